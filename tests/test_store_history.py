"""The history journal and undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from silcrow.store import MemoryStore
from silcrow.store import _journal as journal


def test_every_committed_mutation_is_journaled(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    store.add("user", "Name: Sam", origin="cli")
    store.replace("memory", "a", "b", origin="tool")
    store.remove("memory", "zzz")  # refused: not journaled
    store.apply_batch(
        "memory", [{"action": "add", "content": "c"}, {"action": "remove", "old_text": "b"}]
    )
    history = store.history()
    assert [(r["target"], r["action"], r["origin"]) for r in history] == [
        ("memory", "add", "api"),
        ("user", "add", "cli"),
        ("memory", "replace", "tool"),
        ("memory", "batch", "api"),
    ]
    assert history[2]["before"] == ["a"] and history[2]["after"] == ["b"]
    assert history[3]["after"] == ["c"]
    assert [r["action"] for r in store.history("user")] == ["add"]
    times = [r["time"] for r in history]
    assert times == sorted(times) and all(t.endswith("Z") for t in times)


def test_undo_walks_back_one_mutation_at_a_time(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    store.add("memory", "b")
    store.replace("memory", "b", "b2")
    store.add("user", "Name: Sam")
    assert store.undo("memory")["success"] is True
    assert store.entries("memory") == ["a", "b"]
    assert store.undo("memory")["success"] is True
    assert store.entries("memory") == ["a"]
    result = store.undo("memory")
    assert result["success"] is True and result["entry_count"] == 0
    assert store.entries("memory") == []
    nothing = store.undo("memory")
    assert nothing["success"] is False and "Nothing to undo" in nothing["error"]
    # The other target is untouched, and undos are journaled too.
    assert store.entries("user") == ["Name: Sam"]
    assert [r["action"] for r in store.history("memory")][-3:] == ["undo", "undo", "undo"]


def test_undo_after_a_new_change_reverts_that_change(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    store.add("memory", "b")
    store.undo("memory")
    store.add("memory", "c")
    store.undo("memory")
    assert store.entries("memory") == ["a"]


def test_undo_refuses_to_discard_a_change_made_outside_silcrow(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    store.path("memory").write_text("a\n§\nhand-written", encoding="utf-8")
    result = store.undo("memory")
    assert result["success"] is False
    assert "changed since then outside silcrow" in result["error"]
    assert store.entries("memory") == ["a", "hand-written"]


def test_a_change_the_journal_missed_is_recorded_at_the_next_write(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    # a hand edit, or a writer killed between its atomic rename and its journal append
    store.path("memory").write_text("a\n§\nhand-written", encoding="utf-8")
    assert store.add("memory", "b")["success"]
    outside, added = store.history("memory")[-2:]
    assert (outside["action"], outside["origin"]) == ("outside_edit", "disk")
    assert (outside["before"], outside["after"]) == (["a"], ["a", "hand-written"])
    assert added["before"] == ["a", "hand-written"] and added["after"] == ["a", "hand-written", "b"]
    assert store.undo("memory")["success"] and store.entries("memory") == ["a", "hand-written"]
    assert store.undo("memory")["success"] and store.entries("memory") == ["a"]  # steps back through it
    store.add("memory", "c")
    assert store.history("memory")[-1]["action"] == "add"  # nothing missed: no extra record


def test_a_torn_journal_line_is_skipped(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "a")
    journal = tmp_path / "memories" / ".journal.jsonl"
    with open(journal, "a", encoding="utf-8") as handle:
        handle.write('{"id": "torn", "target": "mem')  # a crash mid-append
    store.add("memory", "b")
    assert [r["after"] for r in store.history("memory")] == [["a"], ["a", "b"]]
    assert store.undo("memory")["success"] is True
    assert store.entries("memory") == ["a"]


def test_the_journal_is_compacted_to_its_newest_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MAX_BYTES", 60_000)
    monkeypatch.setattr(journal, "KEEP_BYTES", 30_000)
    store = MemoryStore(tmp_path, memory_char_limit=10**6)
    # Most records are deltas (an add stores its own entry and a little more); every
    # CHAIN_LIMIT-th is whole.
    for i in range(150):
        assert store.add("memory", f"fact number {i:03d} " + "x" * 90)["success"]
    size = (tmp_path / "memories" / ".journal.jsonl").stat().st_size
    assert size <= 60_000
    history = store.history("memory")
    assert 0 < len(history) < 150
    # What is kept is the newest, whole and in order; undo still works on it.
    assert history[-1]["after"] == store.entries("memory")
    assert all(a["after"] == b["before"] for a, b in zip(history, history[1:], strict=False))
    assert store.undo("memory")["success"] is True
    assert len(store.entries("memory")) == 149


def test_last_record_reads_the_journal_backwards_across_chunks(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path, memory_char_limit=10**5, user_char_limit=10**5)
    for i in range(30):
        store.add("memory" if i % 3 else "user", f"fact number {i} " + "x" * (i * 7))
    path = tmp_path / "memories" / ".journal.jsonl"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"id": "torn", "target": "us')  # a torn last line is skipped
    for target in ("memory", "user"):
        newest = [r for r in journal.read(path) if r["target"] == target][-1]
        for chunk in (7, 100, 4096, 1 << 20):
            assert journal.last_record(path, target, chunk=chunk) == newest
    assert journal.last_record(path, "nothing") is None
    assert journal.last_record(tmp_path / "missing.jsonl", "memory") is None


def test_records_are_stored_as_deltas_and_read_whole(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path, memory_char_limit=10**6)
    for i in range(40):
        assert store.add("memory", f"fact {i:02d} " + "y" * 200)["success"]
    path = tmp_path / "memories" / ".journal.jsonl"
    lines = path.read_bytes().splitlines()
    assert len(lines) == 40
    whole = [number for number, line in enumerate(lines) if b'"base"' not in line]
    assert whole == [0, journal.CHAIN_LIMIT]
    assert max(len(line) for number, line in enumerate(lines) if number not in whole) < 600
    history = store.history("memory")
    assert [len(r["after"]) for r in history] == list(range(1, 41))
    assert all(a["after"] == b["before"] for a, b in zip(history, history[1:], strict=False))
    assert journal.last_record(path, "memory") == history[-1]
    # A delta whose base is lost is skipped, and so is every delta after it up to a whole record.
    path.write_bytes(b"\n".join(lines[:5] + lines[6:]) + b"\n")
    kept = [len(r["after"]) for r in journal.read(path)]
    assert kept == [1, 2, 3, 4, 5, *range(33, 41)]


def test_writers_in_turn_keep_one_history(tmp_path: Path) -> None:
    first, second = MemoryStore(tmp_path), MemoryStore(tmp_path)
    for i in range(6):
        assert (first if i % 2 else second).add("memory", f"fact {i}")["success"]
    assert first.remove("memory", "fact 0")["success"]
    assert second.undo("memory")["success"]
    history = first.history("memory")
    assert [r["action"] for r in history] == ["add"] * 6 + ["remove", "undo"]
    assert history[-1]["after"] == [f"fact {i}" for i in range(6)] == first.entries("memory")
