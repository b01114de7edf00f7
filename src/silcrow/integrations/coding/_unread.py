"""The part of a transcript written since the last time, read in batches of bounded size.

A Claude Code transcript grows for as long as a session lasts (tool results, pasted files), so
the compaction and session-end hooks never read what is unread at once: they take whole lines,
about :data:`BATCH_BYTES` at a time, and the caller records its progress after each batch. A
line longer than :data:`MAX_LINE_BYTES` (a pasted file or log as one message) is passed over
without being held; its number is reported. A last line without its newline is being written
and is read next time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

__all__ = ["BATCH_BYTES", "MAX_LINE_BYTES", "Batch", "batches"]

BATCH_BYTES = 1024 * 1024
MAX_LINE_BYTES = 4 * 1024 * 1024


@dataclass
class Batch:
    """Whole lines of the transcript: ``data`` starts at line ``first_line``; after it the file
    is read up to byte ``end`` and line ``end_line``."""

    data: bytes
    first_line: int
    end: int
    end_line: int
    too_long: list[int] = field(default_factory=list)  # lines passed over since the last batch


def batches(handle: BinaryIO, offset: int, line: int) -> Iterator[Batch]:
    """The whole lines of ``handle`` from byte ``offset`` (line ``line``), batch by batch."""
    handle.seek(offset)
    pending = b""  # read, not yet a whole line; it starts at ``offset``
    skipped = 0  # bytes of an over-long line passed over so far (0: not inside one)
    too_long: list[int] = []
    while block := handle.read(BATCH_BYTES):
        if skipped:
            newline = block.find(b"\n")
            if newline < 0:
                skipped += len(block)
                continue
            too_long.append(line)
            offset, line, skipped = offset + skipped + newline + 1, line + 1, 0
            block = block[newline + 1:]
        pending += block
        cut = pending.rfind(b"\n") + 1
        if cut:
            data, pending = pending[:cut], pending[cut:]
            end, end_line = offset + cut, line + data.count(b"\n")
            first = data.find(b"\n") + 1  # only the first line can be longer than one read
            if first > MAX_LINE_BYTES:
                too_long.append(line)
                data, line = data[first:], line + 1
            yield Batch(data, line, end, end_line, too_long)
            offset, line, too_long = end, end_line, []
        if len(pending) >= MAX_LINE_BYTES:
            skipped, pending = len(pending), b""
    if too_long:  # over-long lines ended after the last whole line: that is progress too
        yield Batch(b"", line, offset, line, too_long)
