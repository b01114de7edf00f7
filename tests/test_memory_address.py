"""`memory remove | replace` address entries the way `memory show` shows them (number, id),
refusing when the file changed since; a miss names the match in the other file; archive
and proposal ids accept unique prefixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from silcrow.store import MemoryStore, Proposal


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    store = MemoryStore(home)
    for text in ("Follows PEP 8 strictly", "Uses pnpm", "Deploys on Tuesdays"):
        store.add("memory", text, origin="cli")
    store.add("user", "User likes PEP 257 docstrings", origin="cli")
    return home


def _cli(home: Path, *args: str):
    from silcrow.cli.main import _register, app

    _register(["memory"])
    return CliRunner().invoke(app, ["memory", *args], env={"SILCROW_HOME": str(home), "COLUMNS": "300"})


def test_remove_takes_the_number_show_printed(home: Path) -> None:
    shown = _cli(home, "show")
    assert "  2. Uses pnpm" in shown.output and "version" in shown.output
    done = _cli(home, "remove", "2")
    assert done.exit_code == 0, done.output
    assert MemoryStore(home).entries("memory") == ["Follows PEP 8 strictly", "Deploys on Tuesdays"]


def test_a_number_is_refused_once_the_file_changed_since_show(home: Path) -> None:
    _cli(home, "show")
    MemoryStore(home).remove("memory", "PEP 8", origin="cli")  # entry 2 is now "Deploys on Tuesdays"
    refused = _cli(home, "remove", "2")
    assert refused.exit_code == 1 and "changed since it was shown" in refused.output
    assert MemoryStore(home).entries("memory") == ["Uses pnpm", "Deploys on Tuesdays"]
    version = json.loads(_cli(home, "show", "--json", "-t", "memory").output)["memory"]["version"]
    assert _cli(home, "replace", f"2@{version}", "Deploys on Thursdays").exit_code == 0
    assert MemoryStore(home).entries("memory") == ["Uses pnpm", "Deploys on Thursdays"]


def test_a_number_never_shown_is_refused_and_text_is_still_text(home: Path) -> None:
    refused = _cli(home, "remove", "1")
    assert refused.exit_code == 1 and "has not been shown" in refused.output and "--text" in refused.output
    assert len(MemoryStore(home).entries("memory")) == 3
    MemoryStore(home).add("memory", "Port 8 is closed", origin="cli")
    assert _cli(home, "remove", "--text", "8 is").exit_code == 0  # a number-like text, looked for as text
    assert "Port 8 is closed" not in MemoryStore(home).entries("memory")


def test_remove_takes_the_id_show_json_gives(home: Path) -> None:
    view = json.loads(_cli(home, "show", "--json").output)["memory"]
    entry_id = view["ids"][view["entries"].index("Uses pnpm")]
    assert _cli(home, "remove", entry_id).exit_code == 0
    assert "Uses pnpm" not in MemoryStore(home).entries("memory")


def test_a_miss_names_the_match_in_the_other_file(home: Path) -> None:
    refused = _cli(home, "remove", "PEP 257")
    assert refused.exit_code == 1
    assert "USER.md holds exactly one match: use --target user" in refused.output
    assert _cli(home, "remove", "PEP 257", "--target", "user").exit_code == 0


def test_archive_and_proposal_ids_accept_unique_prefixes(home: Path) -> None:
    store = MemoryStore(home)
    store.remove("memory", "pnpm", origin="cli")
    item = store.archived()[0]["id"]
    assert _cli(home, "restore", item[:4]).exit_code == 0
    assert "Uses pnpm" in MemoryStore(home).entries("memory")
    assert _cli(home, "restore", item[:3]).exit_code == 1  # under four characters: not a prefix
    for proposal_id, content in (("abcd1111", "One"), ("abcd2222", "Two")):
        store.proposals.add(Proposal(id=proposal_id, time=f"2026-01-01T00:00:0{content == 'Two':d}Z",
                                     target="memory", action="add", content=content))
    ambiguous = _cli(home, "approve", "abcd")
    assert ambiguous.exit_code == 1 and "abcd1111" in ambiguous.output and "abcd2222" in ambiguous.output
    assert _cli(home, "approve", "abcd2").exit_code == 0
    assert _cli(home, "reject", "abcd1").exit_code == 0
    assert store.pending() == [] and "Two" in store.entries("memory") and "One" not in store.entries("memory")
