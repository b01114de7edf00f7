"""`silcrow.notes.Notes` is the only way into the curated notes (issue 41, item 2).

Outside ``silcrow.store`` (the notes' own package), ``silcrow.notes`` (the service) and
``silcrow.home`` (where a profile's notes are assembled), no module of the package holds a
``MemoryStore``: none builds one, asks a profile or a tenant for one (``.store()``), or reaches
through a service or an agent to one (``notes.store``, ``agent.store``). The check reads the
source (an AST walk), so a new door that goes around ``Notes`` fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import silcrow
from silcrow.home import open_profile
from silcrow.notes import Notes

SRC = Path(silcrow.__file__).parent
OWNERS = ("store/", "notes.py", "home.py")
# The demo of the public MemoryStore class drives it exactly as a library user's code does.
LIBRARY_DEMO = "demo/_memory_walkthrough.py"
# Stores of their own (the recall provider's records, the holographic provider's facts), held as
# ``self.store`` by the provider that owns them: not the curated notes.
OWN_STORES = ("recall/", "providers/")


def _reaches(relative: str, tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "store":
            own = (isinstance(node.value, ast.Name) and node.value.id == "self"
                   and relative.startswith(OWN_STORES))
            if not own:
                found.append(f"{relative}:{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Call):
            func = node.func
            named = (func.id if isinstance(func, ast.Name)
                     else ast.unparse(func.value) if isinstance(func, ast.Attribute) else "")
            if named == "MemoryStore" and relative != LIBRARY_DEMO:
                found.append(f"{relative}:{node.lineno}: {ast.unparse(node)[:60]}")
    return found


def test_only_notes_reaches_the_store() -> None:
    found: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative.startswith(OWNERS):
            continue
        found += _reaches(relative, ast.parse(path.read_text(encoding="utf-8")))
    assert not found, "these reach a MemoryStore around silcrow.notes.Notes:\n" + "\n".join(found)


def test_the_check_sees_each_way_around() -> None:
    """Each shape the check refuses is refused (so the test above can fail)."""
    for source in ("notes.store.load()", "profile.store().history()", "agent.store.entries('user')",
                   "MemoryStore(home)", "MemoryStore.of(profile)", "self.store.pending()"):
        assert _reaches("serve/_x.py", ast.parse(source)), source
    assert not _reaches("recall/local/_x.py", ast.parse("self.store.ingest([])"))


def test_notes_reads_and_upkeep(tmp_path: Path) -> None:
    """The reads and upkeep the surfaces call are the store's, through the service."""
    notes = open_profile(tmp_path, create=True).notes()
    assert notes.add("user", "User likes figs.", origin="cli")["success"]
    assert notes.remove("user", "figs", origin="cli")["success"]
    assert notes.add("memory", "Repo uses uv.", origin="cli")["success"]
    notes.load()
    assert notes.entries("memory") == ["Repo uses uv."]
    assert "Repo uses uv." in notes.prompt_section()
    assert notes.snapshot_block("user") is None
    assert [r["action"] for r in notes.history()] == ["add", "remove", "add"]
    assert [i["text"] for i in notes.archived()] == ["User likes figs."]
    assert [d["text"] for d in notes.details("memory")["memory"]] == ["Repo uses uv."]
    assert notes.review() == [] and notes.box_usage()["waiting"] == 0
    assert notes.usage("memory").endswith("chars") and notes.char_limit("memory") > 0
    assert isinstance(notes, Notes) and notes.due_for_review() == []
