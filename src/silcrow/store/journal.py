"""The history journal: one JSON object per line, appended durably.

Every committed mutation (and every undo) is one record::

    {"id": "…", "time": "2026-12-02T18:15:00.123456Z", "target": "memory",
     "action": "replace", "origin": "tool", "before": [...], "after": [...],
     "undoes": null}

A change the journal missed (a hand edit, or a writer killed between its
atomic rename and its append) is recorded by the next write as an
``outside_edit`` record (origin ``disk``), so history stays complete.

Keeping whole before/after lists (the files are a few KB at most) makes undo
a plain restore and lets anyone audit what an agent changed and why.

Both memory targets share the journal but take different locks, so appends
also take the journal's own sidecar lock (always after a target lock, never
before one: no lock-order deadlock). Each append is one write, not fsynced
(the memory file's own fsyncs make the change durable; see ``files``): a
record torn or lost by a crash can only be at the end, readers skip lines
that do not parse, and the next write bridges a lost record with an
``outside_edit`` record. When the journal outgrows ``MAX_BYTES`` the oldest records
are dropped, keeping about ``KEEP_BYTES`` of the newest: history and undo
reach back that far, and the file cannot grow without bound.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow.errors import LockTimeoutError
from silcrow.store import locking

JOURNAL_NAME = ".journal.jsonl"
MAX_BYTES = 4 * 1024 * 1024
KEEP_BYTES = 2 * 1024 * 1024
LOCK_TIMEOUT = 30.0


def new_record(
    *,
    target: str,
    action: str,
    origin: str,
    before: list[str],
    after: list[str],
    undoes: str | None = None,
) -> dict[str, Any]:
    """A journal record for one committed change of ``target``."""
    return {
        "id": uuid.uuid4().hex,
        "time": datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z"),
        "target": target,
        "action": action,
        "origin": origin,
        "before": list(before),
        "after": list(after),
        "undoes": undoes,
    }


def append(path: Path, record: dict[str, Any]) -> None:
    """Append ``record`` as one line; compact the journal when it is too big."""
    # ensure_ascii keeps the line pure ASCII, so surrogate-escaped bytes from a
    # damaged file can still be journaled and read back exactly.
    line = (json.dumps(record, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")
    lock = locking.ExclusiveLock(path.with_name(path.name + ".lock"), LOCK_TIMEOUT)
    try:
        lock.acquire()
    except locking.LockWaitTimeout as exc:
        raise LockTimeoutError(
            f"could not lock the history journal {path} within {LOCK_TIMEOUT:g}s; the memory file itself "
            "was updated, but this change is missing from `silcrow memory history`"
        ) from exc
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                # A crash cut the previous record short: start on a fresh line so
                # only that record is lost, not this one too.
                line = b"\n" + line
            written = os.write(fd, line)
            if written != len(line):  # a short write would leave a torn line; finish it
                os.write(fd, line[written:])
            size += len(line)
        finally:
            os.close(fd)
        if size > MAX_BYTES:
            _compact(path, KEEP_BYTES)
    finally:
        lock.release()


def _compact(path: Path, keep_bytes: int) -> None:
    """Keep the newest whole records that fit in ``keep_bytes``; called with the journal lock held."""
    with open(path, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line.strip()]
    kept: list[bytes] = []
    total = 0
    for line in reversed(lines):
        total += len(line) + 1
        if total > keep_bytes and kept:
            break
        kept.append(line)
    temp = path.with_name(f".{path.name}.{os.getpid()}.compact.tmp")
    with open(temp, "wb") as handle:
        handle.write(b"".join(line + b"\n" for line in reversed(kept)))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    if os.name == "nt":  # no directory fsync there
        return
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Iterator[dict[str, Any]]:
    """Records in the order they were appended; unparsable lines are skipped."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            record = _parse(line)  # None for the tail of a write cut short by a crash
            if record is not None:
                yield record


def last_record(path: Path, target: str, *, chunk: int = 64 * 1024) -> dict[str, Any] | None:
    """The newest record of ``target``, reading the journal backwards (it is usually near the end)."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return None
    with handle:
        end = handle.seek(0, os.SEEK_END)
        tail = b""
        while end > 0:
            start = max(0, end - chunk)
            handle.seek(start)
            data = handle.read(end - start) + tail
            lines = data.split(b"\n")
            # Unless the start of the file was reached, the first piece may be a partial line.
            tail, complete = (lines[0], lines[1:]) if start > 0 else (b"", lines)
            for line in reversed(complete):
                record = _parse(line)
                if record is not None and record.get("target") == target:
                    return record
            end = start
    return None


def _parse(line: bytes) -> dict[str, Any] | None:
    line = line.strip()
    if not line:
        return None
    try:
        record = json.loads(line.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        return None
    if isinstance(record, dict) and "target" in record and "after" in record:
        return record
    return None
