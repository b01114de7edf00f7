"""Real processes writing the same memory files at once, with readers polling.

Each writer owns its entries (``[p<writer>:i<item>] v<version>``) and follows
a seeded plan of adds, replaces and removes on both targets, so the final
state the operations imply is computable without knowing how they
interleaved. Readers poll the raw file bytes the whole time and record
anything that is not a complete file.
"""

from __future__ import annotations

import multiprocessing
import random
import re
from pathlib import Path
from typing import Any

from silcrow.store import MemoryStore
from silcrow.store import _document as D

WRITERS = 8
OPS_PER_WRITER = 100
READERS = 2
SENTINEL = "sentinel: untouched by every writer"
ENTRY_RE = re.compile(r"\[p\d+:i\d+\] v\d+")
CTX = multiprocessing.get_context("fork")


def _plan(writer: int) -> tuple[list[tuple[str, str, str | None, str | None]], dict[str, set[str]]]:
    """The writer's operations and the entries each target holds afterwards."""
    rng = random.Random(writer)
    live: dict[str, dict[int, int]] = {"memory": {}, "user": {}}
    ops: list[tuple[str, str, str | None, str | None]] = []
    next_item = 0
    for _ in range(OPS_PER_WRITER):
        target = rng.choice(["memory", "user"])
        items = live[target]
        roll = rng.random()
        if not items or roll < 0.45:
            items[next_item] = 0
            ops.append(("add", target, None, f"[p{writer}:i{next_item}] v0"))
            next_item += 1
        elif roll < 0.75:
            item = rng.choice(sorted(items))
            old = f"[p{writer}:i{item}] v{items[item]}"
            items[item] += 1
            ops.append(("replace", target, old, f"[p{writer}:i{item}] v{items[item]}"))
        else:
            item = rng.choice(sorted(items))
            ops.append(("remove", target, f"[p{writer}:i{item}] v{items.pop(item)}", None))
    final = {t: {f"[p{writer}:i{i}] v{v}" for i, v in items.items()} for t, items in live.items()}
    return ops, final


def _writer(home: str, writer: int, failures: Any) -> None:
    store = MemoryStore(home, memory_char_limit=10**6, user_char_limit=10**6, lock_timeout=60)
    ops, _ = _plan(writer)
    for action, target, old, new in ops:
        store.reset_turn()
        if action == "add":
            result = store.add(target, new or "", origin=f"writer{writer}")
        elif action == "replace":
            result = store.replace(target, old or "", new or "", origin=f"writer{writer}")
        else:
            result = store.remove(target, old or "", origin=f"writer{writer}")
        if not result["success"]:
            failures.put(f"writer {writer} {action} {old}->{new}: {result['error']}")


def _reader(path: str, stop: Any, report: Any) -> None:
    reads = 0
    bad: list[str] = []
    while not stop.is_set():
        with open(path, encoding="utf-8", newline="") as handle:
            raw = handle.read()
        reads += 1
        entries = D.parse(raw)
        if not raw or SENTINEL not in entries:
            bad.append(f"incomplete read: {raw[-80:]!r}")
        elif D.shape_problems(raw, 10**6) or not all(
            e == SENTINEL or ENTRY_RE.fullmatch(e) for e in entries
        ):
            bad.append(f"torn read: {raw[-80:]!r}")
    report.put((reads, bad[:5], len(bad)))


def test_eight_writers_lose_nothing_and_readers_never_see_a_partial_file(tmp_path: Path) -> None:
    home = str(tmp_path)
    setup = MemoryStore(home)
    for target in ("memory", "user"):
        assert setup.add(target, SENTINEL)["success"]

    stop, reports, failures = CTX.Event(), CTX.Queue(), CTX.Queue()
    readers = [
        CTX.Process(target=_reader, args=(str(setup.path(t)), stop, reports)) for t in ("memory", "user")
    ][:READERS]
    writers = [CTX.Process(target=_writer, args=(home, w, failures)) for w in range(WRITERS)]
    for process in readers + writers:
        process.start()
    for process in writers:
        process.join(120)
        assert process.exitcode == 0
    stop.set()
    results = [reports.get(timeout=30) for _ in readers]
    for process in readers:
        process.join(30)

    errors = []
    while not failures.empty():
        errors.append(failures.get())
    assert errors == []
    for reads, examples, bad in results:
        assert bad == 0, examples
        assert reads > 50  # the readers really polled while the writers ran

    expected: dict[str, set[str]] = {"memory": {SENTINEL}, "user": {SENTINEL}}
    for writer in range(WRITERS):
        for target, items in _plan(writer)[1].items():
            expected[target] |= items
    for target in ("memory", "user"):
        final = setup.entries(target)
        assert len(final) == len(set(final))
        assert set(final) == expected[target]
    # Every operation was journaled exactly once.
    assert len(setup.history()) == 2 + WRITERS * OPS_PER_WRITER
