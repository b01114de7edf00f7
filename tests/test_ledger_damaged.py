"""A damaged ledger (.ledger.json edited by hand into the wrong shapes) is derived data: what
still has its shape is kept, the rest starts fresh, and nothing that reads or counts entry
metadata fails (the CLI, a session start, a tool read). `memory review --unused-days` is
bounded: a huge value is a usage error, not an internal error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_cli_memory import cli

from silcrow.store import MemoryStore

TODAY = datetime.now(UTC).strftime("%Y-%m-%dT00:00:00Z")
DAMAGED = [
    {"version": 1, "folded": [], "entries": [], "archive": {}},
    {"version": 1, "folded": {"user": 3}, "entries": {"user": {"x": "y"}, "memory": 5},
     "archive": [1, "a", {"text": 5}, {"id": "i1", "text": "kept", "target": "user", "why": "removed",
                                                              "archived": TODAY}]},
]


@pytest.mark.parametrize("doc", DAMAGED)
def test_a_damaged_ledger_is_read_as_far_as_it_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict) -> None:
    home = tmp_path / "home"
    (home / "memories").mkdir(parents=True)
    (home / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    store = MemoryStore(home)
    store.add("user", "x", origin="cli")
    (home / "memories" / ".ledger.json").write_text(json.dumps(doc), encoding="utf-8")
    store.note_prompt_use("s1")  # a session start
    store.note_surfaced("user", ["x"], "tool")  # a tool read
    assert [d["text"] for d in store.details("user")["user"]] == ["x"]
    kept = [i["text"] for i in store.archived()]
    assert kept == (["kept"] if doc["archive"] and isinstance(doc["archive"], list) else [])
    for args in (["show", "--details"], ["archive"], ["restore", "nope"], ["show", "--details", "--json"]):
        code, out, err = cli(capsys, "--home", str(home), "memory", *args)
        assert "internal error" not in out + err, (args, out, err)
    code, out, err = cli(capsys, "--home", str(home), "memory", "remove", "-t", "user", "x")
    assert code == 0, err
    assert "x" in [i["text"] for i in store.archived()]


def test_review_unused_days_is_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--home", str(tmp_path / "home"), "memory", "review",
                         "--unused-days", "999999999999")
    assert code == 2 and "internal error" not in out + err
    assert "--unused-days" in err
