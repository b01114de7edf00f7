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
import stat
import time
from pathlib import Path
from typing import Any

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


class _SyncLog:
    """Wraps the real ``os.fsync`` and ``os.replace`` (both still run) to record, in order, what
    each synced or renamed once it returned: the file or directory by device and inode."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[tuple[Any, ...]] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd: int) -> None:
            found = os.fstat(fd)
            real_fsync(fd)
            self.events.append(("fsync", stat.S_ISDIR(found.st_mode), found.st_dev, found.st_ino))

        def replace(src: Any, dst: Any, **kwargs: Any) -> None:
            real_replace(src, dst, **kwargs)
            renamed, directory = os.stat(dst), os.stat(os.path.dirname(os.fspath(dst)) or ".")
            self.events.append(("replace", os.fspath(dst), (renamed.st_dev, renamed.st_ino),
                                (directory.st_dev, directory.st_ino)))

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)

    def undurable(self) -> list[str]:
        """Each rename not both preceded by an fsync of the file it put in place and followed by
        an fsync of its directory (so far): what a power cut could still take back or tear."""
        missing = []
        for index, event in enumerate(self.events):
            if event[0] != "replace":
                continue
            _, name, renamed, directory = event
            before, after = self.events[:index], self.events[index + 1:]
            if ("fsync", False, *renamed) not in before:
                missing.append(f"{name}: its data was not synced before the rename")
            if ("fsync", True, *directory) not in after:
                missing.append(f"{name}: its directory was not synced after the rename")
        return missing


def test_every_write_is_on_disk_before_it_returns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A write that returned survives a power cut: the new file's data is synced before the rename
    # (a crash never exposes a torn file, even to readers that take no lock) and the directory
    # after it (the rename itself cannot be taken back). Checked after each call, for every file
    # the store replaces: the notes, the proposal box, the ledger.
    home = tmp_path / "home"
    elsewhere = home / "kept"  # the notes file linked to another directory inside the home
    elsewhere.mkdir(parents=True)
    (elsewhere / "USER.md").write_text("prefers tea", encoding="utf-8")
    (home / "memories").mkdir()
    (home / "memories" / "USER.md").symlink_to(elsewhere / "USER.md")
    store = MemoryStore(home, write_policy="approve")
    log = _SyncLog(monkeypatch)
    calls = [
        lambda: store.add("memory", "first"),
        lambda: store.replace("memory", "first", "first, edited"),
        lambda: store.add("user", "likes trains"),
        lambda: store.remove("memory", "first, edited"),
        lambda: store.undo("memory"),
        lambda: store.add("memory", "from the model", origin="tool"),  # held: the box is written
        lambda: store.approve(store.pending()[0].id),
        lambda: store.details(),  # the ledger is folded and stored
    ]
    for call in calls:
        result = call()
        assert not isinstance(result, dict) or result.get("success", True), result
        assert log.undurable() == []
    renamed = {event[1] for event in log.events if event[0] == "replace"}
    assert {str(home / "memories" / "MEMORY.md"), str(elsewhere / "USER.md"),
            str(home / "memories" / ".pending.json"), str(home / "memories" / ".ledger.json")} <= renamed
    assert store.entries("memory") == ["first, edited", "from the model"]
