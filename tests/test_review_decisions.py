"""A finding the user rejected is not proposed again, by `memory review` or at session start,
until one of its entries changes; the review says how many it skipped and why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from silcrow.store import MemoryStore
from silcrow.store import _review as review
from silcrow.store._pending import MAX_DECIDED, Proposal

OLDER, NEWER = "User lives in Lisbon.", "User moved to Porto in June."


def _store(tmp_path: Path) -> MemoryStore:
    store = MemoryStore(tmp_path / "home")
    for text in ("User keeps a bonsai on the balcony.", OLDER, NEWER):
        store.add("user", text, origin="cli")
    return store


def test_a_rejected_finding_is_not_proposed_again_until_an_entry_changes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    first = store.consolidate()
    assert [f["kind"] for f in first] == ["contradicted"]
    assert store.reject(first[0]["proposal_id"], "I keep both on purpose")["success"]
    again = store.consolidate()
    assert [f.get("declined", {}).get("reason") for f in again] == ["I keep both on purpose"]
    assert "proposal_id" not in again[0] and store.pending() == []
    # Many other decisions later (the decided proposals keep only the last 50), still remembered.
    for n in range(MAX_DECIDED + 5):
        item = Proposal.new(target="memory", action="add", proposer=None, content=f"Fact {n} of the project.")
        store.proposals.add(item)
        store.reject(item.id)
    assert not any(p.finding for p in store.proposals.decided())
    assert all(f.get("declined") for f in store.consolidate() if f["target"] == "user")
    # One of its entries changes: the finding is about other entries now, and is proposed.
    store.replace("user", "Porto", "User moved to Porto in July.", origin="cli")
    fresh = [f for f in store.consolidate() if f["target"] == "user"]
    assert [f["kind"] for f in fresh] == ["contradicted"] and fresh[0]["proposal_id"]


def test_the_key_follows_the_entries_not_their_order() -> None:
    key = review.finding_key
    assert key("duplicate", "user", ["a", "b"]) == key("duplicate", "user", ["b", "a"])
    assert key("duplicate", "user", ["a", "b"]) != key("duplicate", "user", ["a", "c"])
    assert key("duplicate", "user", ["a", "b"]) != key("duplicate", "memory", ["a", "b"])


def test_memory_review_says_what_it_skipped(tmp_path: Path) -> None:
    from silcrow.cli.main import _register, app

    _register(["memory"])
    store = _store(tmp_path)
    (tmp_path / "home" / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    runner = CliRunner()
    env = {"SILCROW_HOME": str(tmp_path / "home"), "COLUMNS": "200"}
    shown = runner.invoke(app, ["memory", "review"], env=env)
    assert shown.exit_code == 0, shown.output
    assert "contradicted in user" in shown.output
    store.reject(store.pending()[0].id)
    shown = runner.invoke(app, ["memory", "review"], env=env)
    assert shown.exit_code == 0, shown.output
    assert "skipped 1 finding you rejected before" in shown.output
    assert "contradicted in user" not in shown.output and store.pending() == []


def test_the_session_start_review_never_asks_again(tmp_path: Path) -> None:
    from silcrow.testing import ScriptedModelServer

    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "none"\n[memory]\nuser_char_limit = 120\n'
                                      "review_threshold = 0.5\n", encoding="utf-8")
    store = MemoryStore(home)
    for text in (OLDER, NEWER, "Drinks tea."):
        store.add("user", text, origin="cli")

    def chat() -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SILCROW_"))}
        env.update({"SILCROW_HOME": str(home), "HOME": str(home / "user-home"), "COLUMNS": "200",
                    "OPENAI_BASE_URL": server.base_url, "NO_COLOR": "1"})
        return subprocess.run([sys.executable, "-c", "from silcrow.cli.main import main; main()", "chat"],
                              input="/quit\n", capture_output=True, text=True, encoding="utf-8", env=env,
                              timeout=120, check=True).stdout

    with ScriptedModelServer(default={"content": "ok"}) as server:
        assert "1 proposal" in chat()
        store.reject(store.pending()[0].id)
        assert "memory review" not in chat()
    assert store.pending() == []
