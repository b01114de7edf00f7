"""Writers killed with SIGKILL at random moments never leave a broken file.

The writer's next operation is a pure function of the entries on disk, so
the states a file may legitimately hold form one chain: S0, f(S0), f(f(S0))...
After every kill the file must hold a state of that chain at or after the one
seen after the previous kill: anything else is a torn, mixed or lost write.
The journal may lag the file by the operations whose writer died between
``os.replace`` and the journal append, never lead it.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from silcrow.store import MemoryStore
from silcrow.store import _document as D

KILLS = 40
ITEM_RE = re.compile(r"item (\d+) rev (\d+)")
CTX = multiprocessing.get_context("fork")


def _parse_items(entries: list[str]) -> list[tuple[int, int]]:
    items = []
    for entry in entries:
        match = ITEM_RE.fullmatch(entry)
        assert match, f"not an entry any writer wrote: {entry!r}"
        items.append((int(match[1]), int(match[2])))
    return items


def _next_state(entries: list[str]) -> list[str]:
    """The one operation the writer applies to ``entries``, as a pure function."""
    items = _parse_items(entries)
    next_id = max((i for i, _ in items), default=-1) + 1
    choice = (next_id + sum(r for _, r in items)) % 3
    if len(items) < 4 or choice == 0:
        return [*entries, f"item {next_id} rev 0"]
    first_id, first_rev = items[0]
    if choice == 1:
        return [f"item {first_id} rev {first_rev + 1}", *entries[1:]]
    return entries[1:]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _steps(start: list[str], state: list[str], limit: int = 5000) -> int | None:
    """How many operations lead from ``start`` to ``state``, or None if none do."""
    current = start
    for steps in range(limit):
        if current == state:
            return steps
        current = _next_state(current)
    return None


def _apply(store: MemoryStore, before: list[str]) -> None:
    after = _next_state(before)
    if len(after) > len(before):
        result = store.add("memory", after[-1])
    elif len(after) == len(before):
        result = store.replace("memory", f"item {_parse_items(before)[0][0]} rev", after[0])
    else:
        result = store.remove("memory", f"item {_parse_items(before)[0][0]} rev")
    assert result["success"], result


def _writer_forever(home: str) -> None:
    store = MemoryStore(home)
    while True:
        # Read under no lock: this is the only writer, so the state cannot move.
        _apply(store, store.entries("memory"))


def test_sigkill_at_random_moments_leaves_a_state_before_or_after_an_operation(tmp_path: Path) -> None:
    home = str(tmp_path)
    store = MemoryStore(home)
    rng = random.Random(1234)
    leftovers_seen = 0
    seen = 0
    journal = tmp_path / "memories" / ".journal.jsonl"
    for _ in range(KILLS):
        journal_size = _size(journal)
        writer = CTX.Process(target=_writer_forever, args=(home,))
        writer.start()
        # Let the writer commit at least one operation (bounded wait: the
        # machine may be busy), then kill it somewhere inside a later one.
        deadline = time.monotonic() + 20
        while _size(journal) == journal_size and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(rng.uniform(0, 0.04))
        assert writer.pid is not None
        os.kill(writer.pid, signal.SIGKILL)
        writer.join(10)
        assert writer.exitcode == -signal.SIGKILL

        raw = store.path("memory").read_text(encoding="utf-8") if store.path("memory").exists() else ""
        assert D.shape_problems(raw, 10**6) == []
        on_disk = D.parse(raw)
        history = store.history("memory")
        journaled = history[-1]["after"] if history else []
        disk_position = _steps([], on_disk)
        assert disk_position is not None, f"{on_disk} is not a state any sequence of operations produces"
        journal_position = _steps([], journaled)
        assert journal_position is not None and journal_position <= disk_position
        assert disk_position >= seen  # nothing committed was lost
        seen = disk_position
        leftovers_seen += len(store.backend.leftovers("MEMORY.md"))
        # Temp files of the dead writer are never read as entries.
        assert store.entries("memory") == on_disk

    assert len(store.history("memory")) >= KILLS  # every writer committed work before its kill
    # The next write (any writer) clears what crashed writers left behind.
    _apply(store, store.entries("memory"))
    assert store.backend.leftovers("MEMORY.md") == []
    # ... and journals any change a killed writer made without journaling it: history catches up.
    assert store.history("memory")[-1]["after"] == store.entries("memory")
    print(f"temp files left by killed writers: {leftovers_seen}")


def test_a_stale_temp_file_is_ignored_and_cleaned_up(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "real entry")
    stale = store.path("memory").parent / ".MEMORY.md.99999.deadbeef.tmp"
    stale.write_text("real entry\n§\nhalf-written ent", encoding="utf-8")
    assert store.entries("memory") == ["real entry"]
    assert store.backend.leftovers("MEMORY.md") == [str(stale)]
    reports = store.doctor()
    assert reports[0]["cleaned"] == [str(stale)]
    assert not stale.exists()
    stale.write_text("junk", encoding="utf-8")
    store.add("memory", "second")
    assert not stale.exists()
    assert store.entries("memory") == ["real entry", "second"]


def test_a_symlinked_memory_file_stays_a_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The dotfiles repository is outside the home: the user opted in.
    monkeypatch.setenv("SILCROW_MEMORY_OUTSIDE_HOME", "1")
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "MEMORY.md"
    real.write_text("kept in git", encoding="utf-8")
    (tmp_path / "home" / "memories").mkdir(parents=True)
    link = tmp_path / "home" / "memories" / "MEMORY.md"
    link.symlink_to(real)
    store = MemoryStore(tmp_path / "home")
    assert store.add("memory", "new fact")["success"]
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "kept in git\n§\nnew fact"
    assert store.backend.leftovers("MEMORY.md") == []
