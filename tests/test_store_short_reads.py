"""Reading the notes where a read may return less than asked (network and FUSE files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from silcrow.store import MemoryStore, _files


def test_a_short_read_never_truncates_the_notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore(tmp_path)
    notes = [f"Note {n}: the garden gate sticks in wet weather" for n in range(20)]
    for note in notes:
        assert store.add("memory", note)["success"]
    real_read = os.read
    # Reads that stop at 37 bytes, as some network and FUSE files return.
    monkeypatch.setattr(_files.os, "read", lambda fd, n: real_read(fd, min(n, 37)))
    fresh = MemoryStore(tmp_path)
    assert fresh.entries("memory") == notes
    assert fresh.add("memory", "Note 20: oil the gate")["success"]
    monkeypatch.undo()
    assert MemoryStore(tmp_path).entries("memory") == [*notes, "Note 20: oil the gate"]
