"""The history journal: one JSON object per line, appended durably.

Every committed mutation (and every undo) is one record::

    {"id": "…", "time": "2026-12-02T18:15:00.123456Z", "target": "memory",
     "action": "replace", "origin": "tool", "before": [...], "after": [...],
     "undoes": null}

Keeping whole before/after lists (the files are a few KB at most) makes undo
a plain restore and lets anyone audit what an agent changed and why.

Appends use one ``write`` on an ``O_APPEND`` descriptor followed by
``fsync``: both memory targets share the journal but take different locks,
and on a local file system an O_APPEND write lands whole at the end. A record
torn by a crash can only be the last line; readers skip lines that do not
parse.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

JOURNAL_NAME = ".journal.jsonl"


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
    """Append ``record`` as one line and make it durable."""
    # ensure_ascii keeps the line pure ASCII, so surrogate-escaped bytes from a
    # damaged file can still be journaled and read back exactly.
    line = (json.dumps(record, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")
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
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> Iterator[dict[str, Any]]:
    """Records in the order they were appended; unparsable lines are skipped."""
    try:
        handle = open(path, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # the tail of a write cut short by a crash
            if isinstance(record, dict) and "target" in record and "after" in record:
                yield record
