"""Following the history journal: a writer reads only what other writers appended since its
last look, and gets what reading the journal whole would give."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from silcrow.store import MemoryStore
from silcrow.store import _journal as journal

_OTHER_WRITER = (
    "import sys\n"
    "from silcrow.store import MemoryStore\n"
    "store = MemoryStore(sys.argv[1])\n"
    "for i in range(3):\n"
    "    assert store.add('memory', f'from the other process {i}')['success']\n"
    "assert store.add('user', 'the other process also wrote the profile')['success']\n"
)


def test_a_writer_catches_up_with_what_another_process_journaled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A store remembers the newest record it saw and, when others appended since, reads only
    # what they added: their records must be applied, not skipped (a skipped one would show up
    # as an outside edit, or as a delta on the wrong record), also across a compaction.
    monkeypatch.setattr(journal, "MAX_BYTES", 6_000)
    monkeypatch.setattr(journal, "KEEP_BYTES", 3_000)
    store = MemoryStore(tmp_path, memory_char_limit=10**6)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for round_ in range(4):
        assert store.add("memory", f"mine {round_} " + "z" * 300)["success"]
        subprocess.run([sys.executable, "-c", _OTHER_WRITER, str(tmp_path)], check=True, env=env,
                       timeout=120)
        assert store.remove("memory", "from the other process 1")["success"]
    history = store.history("memory")
    assert "outside_edit" not in [r["action"] for r in history]
    assert all(a["after"] == b["before"] for a, b in zip(history, history[1:], strict=False))
    assert history[-1]["after"] == store.entries("memory")


def test_following_the_journal_gives_what_reading_it_whole_gives(tmp_path: Path) -> None:
    path = tmp_path / "memories" / ".journal.jsonl"
    first, second = MemoryStore(tmp_path), MemoryStore(tmp_path)
    first.add("memory", "start")
    seen = journal.last(path, "memory")
    since = journal.stamp(path, head=True)
    assert seen is not None and since is not None
    for i in range(5):
        second.add("memory" if i % 2 else "user", f"later {i}")
    followed = journal.follow(path, "memory", seen, since)
    assert followed is not None and followed[0] == journal.last(path, "memory")
    # A rewritten journal (another start) is not followed: it is read whole.
    path.write_bytes(path.read_bytes().replace(b'"id":"', b'"id":"x', 1))
    assert journal.follow(path, "memory", seen, since) is None


_HAND_EDIT = (
    "import sys\n"
    "from pathlib import Path\n"
    "path = Path(sys.argv[1]) / 'memories' / 'MEMORY.md'\n"
    "path.write_text(path.read_text(encoding='utf-8').replace('alpha', 'omega'), encoding='utf-8')\n"
)


def test_a_file_changed_by_another_process_between_writes_is_read_again(tmp_path: Path) -> None:
    # A store keeps the parse of the text it wrote last, for its next write; a text changed
    # since (here by a same-length edit in another process) must be parsed anew, not reused.
    store = MemoryStore(tmp_path)
    assert store.add("memory", "alpha fact")["success"]
    assert store.add("memory", "beta fact")["success"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", _HAND_EDIT, str(tmp_path)], check=True, env=env, timeout=120)
    assert store.add("memory", "gamma fact")["success"]
    assert store.entries("memory") == ["omega fact", "beta fact", "gamma fact"]
    assert store.replace("memory", "omega", "delta fact")["success"]
    assert store.entries("memory") == ["delta fact", "beta fact", "gamma fact"]
    assert [r["action"] for r in store.history("memory")] == ["add", "add", "outside_edit", "add", "replace"]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    parsed: list[bytes] = []
    real = journal._parse

    def counting(line: bytes) -> dict[str, Any] | None:
        parsed.append(line)
        return real(line)

    monkeypatch.setattr(journal, "_parse", counting)
    return parsed


def test_a_writer_takes_the_newest_record_from_one_line_when_the_file_is_the_one_it_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two stores (as two processes have): while one was away the other appended six records.
    # The file in place is the one the newest record says it left, so that record alone is
    # read, not the chain of six; the history read whole agrees with it.
    mine, other = MemoryStore(tmp_path), MemoryStore(tmp_path)
    assert mine.add("memory", "mine")["success"]
    for i in range(3):
        assert other.add("memory", f"other {i}")["success"]
        assert other.replace("memory", f"other {i}", f"other {i}, edited")["success"]
    parsed = _count_parses(monkeypatch)
    assert mine.add("memory", "mine again")["success"]
    assert len(parsed) == 1
    history = mine.history("memory")
    assert [r["action"] for r in history] == ["add"] + ["add", "replace"] * 3 + ["add"]
    assert all(a["after"] == b["before"] for a, b in zip(history, history[1:], strict=False))
    assert history[-1]["after"] == mine.entries("memory")


def test_a_file_changed_in_place_with_its_size_and_mtime_kept_is_still_an_outside_edit(
    tmp_path: Path,
) -> None:
    # The newest record names the file it left by inode, size and times: an edit in place that
    # keeps the size and sets the modification time back still changes the change time.
    mine, other = MemoryStore(tmp_path), MemoryStore(tmp_path)
    assert mine.add("memory", "alpha fact")["success"]
    assert other.add("memory", "beta fact")["success"]
    path = tmp_path / "memories" / "MEMORY.md"
    before = os.stat(path)
    time.sleep(0.05)  # past the clock's tick, which the change time is taken from
    with open(path, "r+b") as handle:  # the same inode, the same size
        edited = handle.read().replace(b"alpha", b"omega")
        handle.seek(0)
        handle.write(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size and os.stat(path).st_ino == before.st_ino
    assert mine.add("memory", "gamma fact")["success"]
    history = mine.history("memory")
    assert [r["action"] for r in history] == ["add", "add", "outside_edit", "add"]
    assert history[2]["before"] == ["alpha fact", "beta fact"]
    assert history[2]["after"] == ["omega fact", "beta fact"]
