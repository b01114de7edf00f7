"""Benchmark of the curated-memory store against a naive rewrite.

    .venv/bin/python bench/store.py [--ops 150] [--latency-ops 200] [--procs 8] [--readers 2]

Prints one JSON object on stdout (progress goes to stderr):

* ``latency_ms``: p50/p99 of add, replace and remove in one process;
* ``silcrow`` and ``naive``: for 1 and for N contending processes, the
  throughput, the lost updates (final entries that differ from what the
  operations imply) and the torn reads seen by reader processes polling the
  file during the run (empty file, missing sentinel, or a broken entry);
* ``targets``: whether silcrow met zero lost updates, zero torn reads and
  N-process throughput >= 0.8x the 1-process figure.

The naive baseline is what a memory tool without this design does: read the
file, change the list, ``open(path, "w")`` and write it back, with no lock
and no re-read under a lock.

Each writer owns its entries: it adds ``[w<id>:i<k>] v0``, replaces it with
``v1``, and then removes it, except every eighth item, which it keeps. The
expected final state is known whatever the interleaving, and the file stays
the size of a real memory file (a few hundred to a few thousand characters).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from silcrow.store import MemoryStore
from silcrow.store import entries as E

CTX = multiprocessing.get_context("fork")
SENTINEL = "sentinel entry, never touched"
ENTRY_RE = re.compile(r"\[w\d+:i\d+\] v\d")
BIG_LIMIT = 10**7


def _ops(worker: int, count: int) -> list[tuple[str, str, str]]:
    """(action, old_text, new_text) for one writer; replace/remove use the entry's unique tag."""
    ops: list[tuple[str, str, str]] = []
    item = 0
    while len(ops) < count:
        tag = f"[w{worker}:i{item}]"
        ops.append(("add", "", f"{tag} v0"))
        ops.append(("replace", f"{tag} v0", f"{tag} v1"))
        if item % 8 != 7:
            ops.append(("remove", f"{tag} v1", ""))
        item += 1
    return ops[:count]


def _expected(worker: int, count: int) -> set[str]:
    state: dict[str, str] = {}
    for action, old, new in _ops(worker, count):
        if action == "add":
            state[new.split(" ")[0]] = new
        elif action == "replace":
            state[old.split(" ")[0]] = new
        else:
            state.pop(old.split(" ")[0], None)
    return set(state.values())


def _naive_apply(path: Path, action: str, old: str, new: str) -> bool:
    try:
        # errors="replace": a naive writer may read a file another one is
        # halfway through writing, cut in the middle of a character.
        with open(path, encoding="utf-8", errors="replace") as handle:
            current = E.parse(handle.read())
    except FileNotFoundError:
        current = []
    if action == "add":
        current.append(new)
    else:
        hits = [i for i, entry in enumerate(current) if old in entry]
        if not hits:
            return False  # the entry was lost by someone else's stale rewrite
        if action == "replace":
            current[hits[0]] = new
        else:
            del current[hits[0]]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(E.serialize(current))
    return True


def _writer(kind: str, home: str, worker: int, count: int, start: Any, done: Any, out: Any) -> None:
    store = MemoryStore(home, memory_char_limit=BIG_LIMIT, lock_timeout=120)
    path = store.path("memory")
    ops = _ops(worker, count)
    failed = 0
    start.wait()
    began = time.perf_counter()
    for action, old, new in ops:
        if kind == "naive":
            try:
                ok = _naive_apply(path, action, old, new)
            except OSError:
                ok = False
        else:
            store.reset_turn()
            if action == "add":
                ok = store.add("memory", new)["success"]
            elif action == "replace":
                ok = store.replace("memory", old, new)["success"]
            else:
                ok = store.remove("memory", old)["success"]
        failed += not ok
        with done.get_lock():
            done.value += 1
    out.put(("writer", began, time.perf_counter(), failed))


def _reader(path: str, stop: Any, out: Any) -> None:
    reads = torn = 0
    while not stop.is_set():
        with open(path, encoding="utf-8", errors="replace") as handle:
            raw = handle.read()
        reads += 1
        entries = E.parse(raw)
        if SENTINEL not in entries or not all(e == SENTINEL or ENTRY_RE.fullmatch(e) for e in entries):
            torn += 1
        time.sleep(0.0005)  # poll hard, but leave the 2-core machines some air
    out.put(("reader", reads, torn, 0))


def run_contention(kind: str, procs: int, ops: int, readers: int, progress: Progress) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"silcrow-bench-{kind}-") as home:
        setup = MemoryStore(home, memory_char_limit=BIG_LIMIT)
        assert setup.add("memory", SENTINEL)["success"]
        start, stop = CTX.Event(), CTX.Event()
        done = CTX.Value("i", 0)
        out: Any = CTX.Queue()
        path = str(setup.path("memory"))
        reader_procs = [
            CTX.Process(target=_reader, args=(path, stop, out), daemon=True) for _ in range(readers)
        ]
        writers = [
            CTX.Process(target=_writer, args=(kind, home, w, ops, start, done, out))
            for w in range(procs)
        ]
        for process in reader_procs + writers:
            process.start()
        task = progress.add_task(f"{kind}: {procs} writer(s) x {ops} ops", total=procs * ops)
        start.set()
        while any(p.is_alive() for p in writers):
            progress.update(task, completed=done.value)
            time.sleep(0.05)
        progress.update(task, completed=done.value)
        stop.set()
        rows = [out.get(timeout=60) for _ in range(procs + readers)]
        for process in reader_procs + writers:
            process.join(30)
        spans = [(r[1], r[2]) for r in rows if r[0] == "writer"]
        wall = max(end for _, end in spans) - min(begin for begin, _ in spans)
        expected = {SENTINEL}.union(*(_expected(w, ops) for w in range(procs)))
        final = setup.entries("memory")
        lost = len(expected.symmetric_difference(final)) + (len(final) - len(set(final)))
        return {
            "processes": procs,
            "ops": procs * ops,
            "seconds": round(wall, 3),
            "ops_per_s": round(procs * ops / wall, 1),
            "final_entries": len(final),
            "final_chars": E.char_count(final),
            "lost_updates": lost,
            "failed_ops": sum(r[3] for r in rows if r[0] == "writer"),
            "reads": sum(r[1] for r in rows if r[0] == "reader"),
            "torn_reads": sum(r[2] for r in rows if r[0] == "reader"),
        }


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run_latency(count: int, progress: Progress) -> dict[str, dict[str, float]]:
    timings: dict[str, list[float]] = {"add": [], "replace": [], "remove": []}
    task = progress.add_task("latency: one process", total=3 * count)
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-latency-") as home:
        store = MemoryStore(home, memory_char_limit=BIG_LIMIT)
        for step in ("add", "replace", "remove"):
            for i in range(count):
                tag = f"[w0:i{i}]"
                began = time.perf_counter()
                if step == "add":
                    result = store.add("memory", f"{tag} v0")
                elif step == "replace":
                    result = store.replace("memory", f"{tag} v0", f"{tag} v1")
                else:
                    result = store.remove("memory", f"{tag} v1")
                timings[step].append((time.perf_counter() - began) * 1000)
                assert result["success"], result
                progress.advance(task)
    return {
        step: {
            "p50": round(statistics.median(values), 2),
            "p99": round(_percentile(values, 0.99), 2),
            "n": len(values),
        }
        for step, values in timings.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=150, help="operations per writer process")
    parser.add_argument("--latency-ops", type=int, default=200, help="operations per action for latency")
    parser.add_argument("--procs", type=int, default=8, help="contending writer processes")
    parser.add_argument("--readers", type=int, default=2, help="reader processes polling the file")
    args = parser.parse_args()

    console = Console(file=sys.stderr)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
    )
    with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
        latency = run_latency(args.latency_ops, progress)
        results: dict[str, dict[str, Any]] = {"silcrow": {}, "naive": {}}
        for kind in ("silcrow", "naive"):
            for procs in (1, args.procs):
                # Same total work at both levels, so the figures compare like with like.
                per_writer = args.ops * args.procs // procs
                results[kind][str(procs)] = run_contention(
                    kind, procs, per_writer, args.readers, progress
                )

    many = results["silcrow"][str(args.procs)]
    one = results["silcrow"]["1"]
    ratio = many["ops_per_s"] / one["ops_per_s"]
    report = {
        "benchmark": "store",
        "machine": {
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "tmpdir": tempfile.gettempdir(),
        },
        "params": vars(args),
        "latency_ms": latency,
        "silcrow": results["silcrow"],
        "naive": results["naive"],
        "throughput_ratio_many_vs_1": round(ratio, 3),
        "targets": {
            "zero_lost_updates": many["lost_updates"] == 0,
            "zero_torn_reads": many["torn_reads"] == 0,
            "throughput_ratio_ge_0_8": ratio >= 0.8,
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
