"""An archived entry that comes back (restore, undo) leaves the archive and keeps its history;
removing it again archives it once; a batch's remove step is archived as removed."""

from __future__ import annotations

from pathlib import Path

from silcrow.store import MemoryStore
from silcrow.store import _ledger as ledger


def _live(store: MemoryStore, target: str = "user") -> dict[str, dict]:
    return {d["text"]: d for d in store.details(target)[target]}


def test_a_restored_entry_leaves_the_archive_and_keeps_when_it_was_added(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "home")
    store.add("user", "User likes jazz", origin="tool")
    added = _live(store)["User likes jazz"]["added"]
    store.remove("user", "jazz", origin="cli")
    [item] = store.archived()
    assert store.restore(item["id"], origin="cli")["success"]
    assert store.archived() == []  # live again: not also listed as archived
    back = _live(store)["User likes jazz"]
    assert back["added"] == added and back["added_by"]["origin"] == "tool"
    again = store.restore(item["id"], origin="cli")
    assert not again["success"] and "no archived entry" in again["error"]
    store.remove("user", "jazz", origin="cli")
    assert [i["text"] for i in store.archived()] == ["User likes jazz"]  # once, not twice
    state = ledger.parse(store.backend.ledger().read())
    state["folded"] = {}  # every record folded again: still once
    store.backend.ledger().change(lambda _t: ledger.render(state))
    assert [i["text"] for i in store.archived()] == ["User likes jazz"]


def test_undoing_a_remove_or_a_batch_takes_the_entries_out_of_the_archive(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "home")
    store.add("user", "Allergic to penicillin", origin="cli")
    store.add("user", "Has a cat named Miso", origin="cli")
    first = _live(store)["Allergic to penicillin"]["added"]
    store.apply_batch("user", [
        {"action": "replace", "old_text": "penicillin", "content": "Allergic to penicillin since 2010"},
        {"action": "remove", "old_text": "Miso"}], origin="cli")
    why = {i["text"]: i["why"] for i in store.archived()}
    assert why == {"Allergic to penicillin": "replaced", "Has a cat named Miso": "removed"}
    store.undo("user", origin="cli")
    assert [i["text"] for i in store.archived()] == ["Allergic to penicillin since 2010"]
    live = _live(store)
    assert live["Allergic to penicillin"]["added"] == first
    assert live["Has a cat named Miso"]["added_by"]["origin"] == "cli"
