"""The history journal: one JSON object per line, appended durably.

Every committed mutation (and every undo) is one record::

    {"id": "…", "time": "2026-12-02T18:15:00.123456Z", "target": "memory",
     "action": "replace", "origin": "tool", "before": [...], "after": [...],
     "undoes": null}

A change the journal missed (a hand edit, or a writer killed between its
atomic rename and its append) is recorded by the next write as an
``outside_edit`` record (origin ``disk``), so history stays complete.

Readers get whole before/after lists: undo is a plain restore, and anyone can
audit what an agent changed and why. On disk a record whose ``before`` is the
``after`` of the target's previous record is stored as a delta on it (``base``:
that record's id; ``keep``: how many entries of the start and of the end stay;
``middle``: the entries in between), so a write to a file of hundreds of
entries appends a few hundred bytes, not two copies of the file. At least
every ``CHAIN_LIMIT`` records of a target one is stored whole, so finding the
newest record never reads far back; a delta whose base is missing (a damaged
line) is skipped like a damaged line. A delta also says how many deltas lead to
it (``depth``), and a record written with its notes file names that file
(``file``: inode, size, modification and change times), so that the next writer
that finds that very file in place reads that one line, not the chain (see
:func:`follow`); readers of the history ignore both.

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow import _locking as locking
from silcrow._atomic import replace_file
from silcrow.errors import LockTimeoutError

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
    confirmed_threats: list[str] | None = None,
    proposal: dict[str, Any] | None = None,
    evicted: list[str] | None = None,
    by: dict[str, str] | None = None,
    released: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A journal record for one committed change of ``target``; ``confirmed_threats`` are the
    threat patterns a person saw and confirmed (``--force``, or approving a held proposal) for
    this change; ``proposal`` the approved proposal it applied (its id and who made it); ``by``
    who made the change or the approval (a server's caller: token name and id, client, the
    session it claims; see :class:`~silcrow.store.Proposer`); ``released`` what the scan held
    and the reason the configured chat model gave for releasing it (``held``, ``reason``)."""
    extra: dict[str, Any] = {"confirmed_threats": list(confirmed_threats)} if confirmed_threats else {}
    if released:
        extra["released_by_model"] = dict(released)
    if proposal:
        extra["proposal"] = dict(proposal)
    if evicted:
        extra["evicted"] = list(evicted)
    if by:
        extra["by"] = dict(by)
    return {
        **extra,
        "id": _new_id(),
        "time": datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z"),
        "target": target,
        "action": action,
        "origin": origin,
        "before": list(before),
        "after": list(after),
        "undoes": undoes,
    }


def _new_id() -> str:
    """What ``uuid.uuid4().hex`` gives (random, version 4), without building a UUID object."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return raw.hex()


CHAIN_LIMIT = 32
_FIELDS = ("id", "time", "target", "action", "origin", "before", "after", "undoes")
# Kept only when present (a forced write's confirmed threat pattern ids, a chat model's release
# of a held write, ...).
_OPTIONAL = ("confirmed_threats", "released_by_model", "proposal", "evicted", "by")


def _fields(stored: dict[str, Any]) -> dict[str, Any]:
    return {key: stored.get(key) for key in _FIELDS} | {k: stored[k] for k in _OPTIONAL if k in stored}
_DELTA = ("base", "keep", "middle")
# What a delta keeps of its record as it is (the entries are the delta).
_DELTA_KEPT = tuple(key for key in _FIELDS if key not in ("before", "after"))


# How much of the journal's start a Stamp keeps: compaction rewrites the start, so a file with
# the same inode (a number the filesystem can reuse) but another start is another file.
HEAD_BYTES = 64


@dataclass(frozen=True)
class Stamp:
    """Where the journal ended after an append, to tell later that nobody appended since
    (the same stamp), or to read only what was appended since (see :func:`follow`)."""

    inode: int
    size: int
    mtime_ns: int
    head: bytes = field(default=b"", compare=False)


@dataclass(frozen=True)
class Last:
    """The newest record of a target, whole, with how many deltas lead to it."""

    record: dict[str, Any]
    depth: int


def _stored(record: dict[str, Any], previous: Last | None) -> tuple[dict[str, Any], int]:
    """The on-disk form of ``record`` and its depth: a delta on ``previous`` when it can be."""
    before, after = record["before"], record["after"]
    if previous is None or previous.depth + 1 >= CHAIN_LIMIT or previous.record["after"] != before:
        return record, 0
    limit = min(len(before), len(after))
    head = _common(before, after, limit)
    tail = _common(before[::-1], after[::-1], limit - head)
    stored = {key: record.get(key) for key in _DELTA_KEPT} | {k: record[k] for k in _OPTIONAL if k in record}
    stored.update(base=previous.record["id"], keep=[head, tail], middle=after[head : len(after) - tail],
                  depth=previous.depth + 1)
    return stored, previous.depth + 1


def _common(first: list[str], second: list[str], limit: int) -> int:
    """How many leading items (at most ``limit``) the lists share: a binary search of slice
    comparisons, which run in C (a file of hundreds of entries changes in one place)."""
    low, high = 0, limit  # first[:low] == second[:low]; they differ before high + 1
    while low < high:
        middle = (low + high + 1) // 2
        if first[low:middle] == second[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _whole(stored: dict[str, Any], states: dict[str, Last]) -> Last | None:
    """The record ``stored`` stands for (None when it is a delta on a record that is not there)."""
    target = stored["target"]
    if "base" not in stored:
        last = Last(_fields(stored), 0)
    else:
        previous = states.get(target)
        keep, middle = stored.get("keep"), stored.get("middle")
        if previous is None or previous.record["id"] != stored["base"] or not (
            isinstance(keep, list) and len(keep) == 2 and isinstance(middle, list)
        ):
            return None
        before = previous.record["after"]
        head, tail = keep
        after = before[:head] + middle + (before[len(before) - tail :] if tail else [])
        record = _fields(stored)
        record.update(before=before, after=after)
        last = Last(record, previous.depth + 1)
    states[target] = last
    return last


_LOCK_PATHS: dict[Path, Path] = {}
# ensure_ascii keeps a line pure ASCII, so surrogate-escaped bytes from a damaged file can
# still be journaled and read back exactly. One encoder for every line: json.dumps with
# options builds a new one per call.
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _lock_path(path: Path) -> Path:
    # Kept per journal: building a path is a noticeable part of an append.
    found = _LOCK_PATHS.get(path)
    if found is None:
        found = _LOCK_PATHS[path] = path.with_name(path.name + ".lock")
    return found


def append(path: Path, record: dict[str, Any], previous: Last | None = None, *,
           before_compact: Callable[[], None] | None = None,
           file: list[int] | None = None) -> tuple[Last, Stamp]:
    """Append ``record`` as one line (a delta on ``previous``, the target's newest record, when
    given); compact the journal when it is too big, after ``before_compact`` (which keeps
    what is derived from the records about to go). ``file``: the identity of the notes file
    this change put in place (see :func:`follow`). Returns the record as :func:`last` would
    and where the journal ended."""
    stored, depth = _stored(record, previous)
    if file is not None:
        stored = {**stored, "file": file}
    line = (_ENCODE(stored) + "\n").encode("ascii")
    lock = locking.ExclusiveLock(_lock_path(path), LOCK_TIMEOUT)
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
            ended = _stamp(fd) if size <= MAX_BYTES else None
        finally:
            os.close(fd)
        if ended is None:
            if before_compact is not None:
                before_compact()
            _compact(path, KEEP_BYTES)
            ended = stamp(path, head=True)
    finally:
        lock.release()
    assert ended is not None
    return Last(record, depth), ended


def _stamp(fd: int, head: bool = True) -> Stamp:
    stat = os.fstat(fd)
    start = os.pread(fd, HEAD_BYTES, 0) if head else b""
    return Stamp(stat.st_ino, stat.st_size, stat.st_mtime_ns, start)


def stamp(path: Path, *, head: bool = False) -> Stamp | None:
    """Where the journal ends now (None when there is none); ``head``: with its first bytes,
    for :func:`follow`."""
    if head:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return None
        try:
            return _stamp(fd)
        finally:
            os.close(fd)
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return Stamp(stat.st_ino, stat.st_size, stat.st_mtime_ns)


def follow(path: Path, target: str, last: Last, since: Stamp,
           known: tuple[list[int], list[str]] | None = None) -> tuple[Last, Stamp] | None:
    """The newest record of ``target``, given ``last``, its newest record when the journal
    ended at ``since``: only what was appended since is read. None when that cannot be told
    apart from a rewrite (compaction, a cut line) or a record does not chain onto ``last``;
    then :func:`last` reads it the long way. Called with the target's lock held, so nobody
    appends records of ``target`` meanwhile.

    ``known``: the identity (inode, size, modification and change times) of the target's file as read
    under that lock, and its entries. When the newest record appended since names that very
    file as the one it left (``file``), and its delta agrees with the entries, its ``after``
    is those entries: only that record is parsed, not every one before it (other writers
    append several between two writes of one process). Its ``before`` is then not rebuilt
    (None): what a transaction needs of the newest record is its id, ``after`` and depth."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    try:
        now = _stamp(fd)
        if now.inode != since.inode or now.size < since.size or now.head != since.head or (
            since.size and os.pread(fd, 1, since.size - 1) != b"\n"
        ):
            return None
        data = os.pread(fd, now.size - since.size, since.size)
    finally:
        os.close(fd)
    # Up to the last complete line: a line being appended (by a writer of the other target)
    # is read next time.
    end = data.rfind(b"\n") + 1
    named = json.dumps(target, ensure_ascii=True).encode("ascii")
    ended = Stamp(now.inode, since.size + end, now.mtime_ns if since.size + end == now.size else 0, now.head)
    if known is not None:
        newest = _known_newest(data[:end], named, target, known)
        if newest is not None:
            return newest, ended
    states = {target: last}
    for line in data[:end].split(b"\n"):
        stored = _parse(line) if named in line else None
        if stored is not None and stored.get("target") == target and _whole(stored, states) is None:
            return None
    return states[target], ended


def _known_newest(data: bytes, named: bytes, target: str, known: tuple[list[int], list[str]]) -> Last | None:
    """The newest record of ``target`` in ``data`` (whole lines) when it left the file
    ``known`` names (see :func:`follow`), from that one line; else None."""
    file, entries = known
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        line = data[start:end]
        end = start
        if named not in line:
            continue
        stored = _parse(line)
        if stored is None or stored.get("target") != target:
            continue  # a damaged line, or another target's that quotes this one's name
        if stored.get("file") != file:
            return None
        if "base" not in stored:
            return Last(_fields(stored), 0) if stored.get("after") == entries else None
        keep, middle, depth = stored.get("keep"), stored.get("middle"), stored.get("depth")
        if not (isinstance(keep, list) and len(keep) == 2 and all(isinstance(k, int) for k in keep)
                and isinstance(middle, list) and isinstance(depth, int)):
            return None
        head, tail = keep
        if len(entries) != head + len(middle) + tail or entries[head : len(entries) - tail] != middle:
            return None
        record = _fields(stored)
        record.update(before=None, after=list(entries))
        return Last(record, depth)
    return None


def _compact(path: Path, keep_bytes: int) -> None:
    """Keep the newest records that fit in ``keep_bytes``; called with the journal lock held.

    The first record kept of each target is stored whole (its base is dropped)."""
    with open(path, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line.strip()]
    states: dict[str, Last] = {}
    records: list[tuple[bytes, Last | None]] = []
    for line in lines:
        stored = _parse(line)
        records.append((line, _whole(stored, states) if stored is not None else None))
    kept: list[bytes] = []
    total = 0
    for line, _ in reversed(records):
        total += len(line) + 1
        if total > keep_bytes and kept:
            break
        kept.append(line)
    kept.reverse()
    first = len(records) - len(kept)
    seen: set[str] = set()
    for index, (_line, whole) in enumerate(records[first:]):
        if whole is None:
            continue
        target = whole.record["target"]
        if target not in seen:
            seen.add(target)
            kept[index] = _ENCODE(whole.record).encode("ascii")
    kept.reverse()
    replace_file(path, b"".join(line + b"\n" for line in reversed(kept)))


def _read_whole(path: Path) -> Iterator[Last]:
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return
    states: dict[str, Last] = {}
    with handle:
        for line in handle:
            stored = _parse(line)  # None for the tail of a write cut short by a crash
            if stored is not None:
                whole = _whole(stored, states)
                if whole is not None:
                    yield whole


def read(path: Path) -> Iterator[dict[str, Any]]:
    """Records in the order they were appended, whole; unparsable lines are skipped."""
    return (whole.record for whole in _read_whole(path))


def write_all(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Append ``records`` (whole, in order) as the store's own writes would have: each a delta on
    the newest record of its target. Moving a profile between backends uses it; returns how many."""
    newest: dict[str, Last] = {}
    count = 0
    for record in records:
        target = str(record.get("target", ""))
        newest[target], _ = append(path, record, newest.get(target))
        count += 1
    return count


def last(path: Path, target: str, *, chunk: int = 64 * 1024) -> Last | None:
    """The newest record of ``target``, reading the journal backwards (it is usually near the
    end) to the nearest record stored whole, then forwards through the deltas after it."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return None
    chain: list[dict[str, Any]] = []
    # Every line of this target holds its name as a JSON string: others are not parsed.
    named = json.dumps(target, ensure_ascii=True).encode("ascii")
    with handle:
        end = handle.seek(0, os.SEEK_END)
        tail = b""
        while end > 0 and not (chain and "base" not in chain[-1]):
            start = max(0, end - chunk)
            handle.seek(start)
            data = handle.read(end - start) + tail
            lines = data.split(b"\n")
            # Unless the start of the file was reached, the first piece may be a partial line.
            tail, complete = (lines[0], lines[1:]) if start > 0 else (b"", lines)
            for line in reversed(complete):
                stored = _parse(line) if named in line else None
                if stored is not None and stored.get("target") == target:
                    chain.append(stored)
                    if "base" not in stored:
                        break
            end = start
    states: dict[str, Last] = {}
    found: Last | None = None
    for stored in reversed(chain):
        found = _whole(stored, states)
    return found


def last_record(path: Path, target: str, *, chunk: int = 64 * 1024) -> dict[str, Any] | None:
    """The newest record of ``target`` (see :func:`last`)."""
    found = last(path, target, chunk=chunk)
    return found.record if found is not None else None


def _parse(line: bytes) -> dict[str, Any] | None:
    line = line.strip()
    if not line:
        return None
    try:
        record = json.loads(line.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        return None
    if isinstance(record, dict) and isinstance(record.get("target"), str) and (
        isinstance(record.get("after"), list) or "base" in record
    ):
        return record
    return None
