"""Benchmark of the curated-memory store against a minimal Hermes-style write path of equal durability.

    .venv/bin/python bench/store.py [--ops 100] [--latency-ops 200] [--procs 8] [--readers 2] [--repeat 3]

Prints one JSON object on stdout (progress goes to stderr):

* ``latency_ms``: p50/p99 of add, replace and remove in one process;
* ``runs``: for each file size (``real``: about 20 entries, the size of a
  full default MEMORY.md; ``large``: about 500 entries, a raised budget) and
  each writer kind, with 1 and N contending processes: throughput, lost
  updates (final entries that differ from what the operations imply) and torn
  reads seen by reader processes polling the file during the run; each
  configuration runs ``--repeat`` times, kinds taking turns, and the median
  run is kept (failures are summed over all runs);
* ``ratios``: silcrow's ops/s over each baseline's at each size and process
  count (``silcrow_vs_hermes_dirfsync_<size>_<n>p``, the target, and
  ``silcrow_vs_hermes_<size>_<n>p``, for information), and silcrow's per-op
  cost at ``large`` over ``real`` (1 process);
* ``targets``: ratios against the equal-durability baseline >= 1.0,
  large/real cost <= 2.0, no lost update and no torn read.

Writer kinds, all measured in this run on the same workload:

* ``silcrow``: :class:`MemoryStore` (lock, re-read, atomic replace,
  directory fsync, history journal);
* ``hermes``: the minimal write path of Hermes's memory tool, written here
  from its description: ``flock`` on a sidecar file, re-read and split the
  file, ``mkstemp`` in the same directory, write, ``fsync``, ``os.replace``;
  no journal, no directory fsync, no threat scan (reported for information:
  it is less durable than silcrow, a power cut can undo a rename it reported);
* ``hermes_dirfsync``: the same path, plus an ``fsync`` of the directory after
  ``os.replace`` (still holding the lock), so an acknowledged write survives a
  power cut as silcrow's does: the equal-durability baseline, and the target;
* ``naive``: read, change, ``open(path, "w")`` with no lock (reported for
  lost updates and torn reads, not as a speed target).

Each writer owns its entries: it adds ``[w<id>:i<k>] v0``, replaces it with
``v1``, and then removes it, except every eighth item, which it keeps. The
expected final state is known whatever the interleaving. The file is seeded
with filler entries so that it has the size under test from the start.
"""

from __future__ import annotations

import argparse
import fcntl
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
from silcrow.store import _document as D
from silcrow.store import _entries as E

CTX = multiprocessing.get_context("fork")
SENTINEL = "sentinel entry, never touched"
ENTRY_RE = re.compile(r"\[w\d+:i\d+\] v\d")
BIG_LIMIT = 10**7
FILLER_RE = re.compile(r"filler \d+: .*")
# Entries in the file before the run: a full default MEMORY.md holds about 20
# entries of ~100 chars; 500 is a budget raised tenfold and more.
SIZES = {"real": 20, "large": 500}


def _filler(count: int) -> list[str]:
    return [
        f"filler {i:03d}: the user keeps project notes in ~/notes/{i:03d}.md and prefers short answers"
        for i in range(count)
    ]


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


def _hermes_read(path: Path) -> list[str]:
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return list(dict.fromkeys(e.strip() for e in raw.split(E.ENTRY_DELIMITER) if e.strip()))


def _hermes_apply(path: Path, action: str, old: str, new: str, *, sync_directory: bool = False) -> bool:
    """One mutation the way Hermes's memory tool writes: sidecar flock, re-read, mkstemp, fsync,
    replace; ``sync_directory`` adds the directory fsync that makes the rename durable."""
    with open(path.with_name(path.name + ".lock"), "a+", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            current = _hermes_read(path)
            if action == "add":
                current.append(new)
            else:
                hits = [i for i, entry in enumerate(current) if old in entry]
                if len(hits) != 1:
                    return False
                if action == "replace":
                    current[hits[0]] = new
                else:
                    del current[hits[0]]
            fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".mem_", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(E.ENTRY_DELIMITER.join(current))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, path)
            if sync_directory:
                directory = os.open(path.parent, os.O_RDONLY)
                try:
                    os.fsync(directory)
                finally:
                    os.close(directory)
            return True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _naive_apply(path: Path, action: str, old: str, new: str) -> bool:
    try:
        # errors="replace": a naive writer may read a file another one is
        # halfway through writing, cut in the middle of a character.
        with open(path, encoding="utf-8", errors="replace") as handle:
            current = D.parse(handle.read())
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
        if kind in BASELINES:
            try:
                ok = BASELINES[kind](path, action, old, new)
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


def _hermes_dirfsync_apply(path: Path, action: str, old: str, new: str) -> bool:
    return _hermes_apply(path, action, old, new, sync_directory=True)


BASELINES = {"hermes": _hermes_apply, "hermes_dirfsync": _hermes_dirfsync_apply, "naive": _naive_apply}
# The baseline silcrow must match: the same durability (the rename is fsynced too).
TARGET = "hermes_dirfsync"


def _reader(path: str, stop: Any, out: Any) -> None:
    reads = torn = 0
    while not stop.is_set():
        with open(path, encoding="utf-8", errors="replace") as handle:
            raw = handle.read()
        reads += 1
        entries = D.parse(raw)
        if SENTINEL not in entries or not all(
            e == SENTINEL or ENTRY_RE.fullmatch(e) or FILLER_RE.fullmatch(e) for e in entries
        ):
            torn += 1
        time.sleep(0.0005)  # poll hard, but leave the 2-core machines some air
    out.put(("reader", reads, torn, 0))


def run_contention(
    kind: str, procs: int, ops: int, readers: int, filler: int, progress: Progress
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"silcrow-bench-{kind}-") as home:
        setup = MemoryStore(home, memory_char_limit=BIG_LIMIT)
        seed = [SENTINEL, *_filler(filler)]
        path = setup.path("memory")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(E.ENTRY_DELIMITER.join(seed), encoding="utf-8")
        start, stop = CTX.Event(), CTX.Event()
        done = CTX.Value("i", 0)
        out: Any = CTX.Queue()
        reader_procs = [
            CTX.Process(target=_reader, args=(str(path), stop, out), daemon=True) for _ in range(readers)
        ]
        writers = [
            CTX.Process(target=_writer, args=(kind, home, w, ops, start, done, out))
            for w in range(procs)
        ]
        for process in reader_procs + writers:
            process.start()
        task = progress.add_task(
            f"{kind}: {filler} entries, {procs} writer(s) x {ops} ops", total=procs * ops
        )
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
        expected = set(seed).union(*(_expected(w, ops) for w in range(procs)))
        final = setup.entries("memory")
        lost = len(expected.symmetric_difference(final)) + (len(final) - len(set(final)))
        return {
            "processes": procs,
            "ops": procs * ops,
            "seconds": round(wall, 3),
            "ops_per_s": round(procs * ops / wall, 1),
            "ms_per_op": round(wall * 1000 / (procs * ops), 3),
            "final_entries": len(final),
            "final_chars": E.char_count(final),
            "lost_updates": lost,
            "failed_ops": sum(r[3] for r in rows if r[0] == "writer"),
            "reads": sum(r[1] for r in rows if r[0] == "reader"),
            "torn_reads": sum(r[2] for r in rows if r[0] == "reader"),
        }


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The median run by throughput, with every run's ops/s and the totals of failures."""
    ordered = sorted(rows, key=lambda row: row["ops_per_s"])
    median = dict(ordered[len(ordered) // 2])
    median["ops_per_s_runs"] = [row["ops_per_s"] for row in rows]
    for key in ("lost_updates", "failed_ops", "torn_reads", "reads"):
        median[key] = sum(row[key] for row in rows)
    return median


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
    parser.add_argument("--ops", type=int, default=100, help="operations per writer process")
    parser.add_argument("--latency-ops", type=int, default=200, help="operations per action for latency")
    parser.add_argument("--procs", type=int, default=8, help="contending writer processes")
    parser.add_argument("--readers", type=int, default=2, help="reader processes polling the file")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration (median kept)")
    args = parser.parse_args()

    console = Console(file=sys.stderr)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
    )
    levels = (1, args.procs)
    runs: dict[str, dict[str, dict[str, Any]]] = {}
    with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
        latency = run_latency(args.latency_ops, progress)
        for size, filler in SIZES.items():
            kinds = ("silcrow", TARGET, "hermes", *(("naive",) if size == "real" else ()))
            for procs in levels:
                # Same total work at both levels, so the figures compare like with like.
                per_writer = args.ops * args.procs // procs
                samples: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
                # Kinds take turns, so a burst of load on the machine hits all of them.
                for _ in range(args.repeat):
                    for kind in kinds:
                        samples[kind].append(
                            run_contention(kind, procs, per_writer, args.readers, filler, progress)
                        )
                for kind, rows in samples.items():
                    runs.setdefault(size, {}).setdefault(kind, {})[str(procs)] = _summary(rows)

    def ops_per_s(size: str, kind: str, procs: int) -> float:
        return float(runs[size][kind][str(procs)]["ops_per_s"])

    ratios: dict[str, float] = {}
    for baseline in (TARGET, "hermes"):
        for size in SIZES:
            for procs in levels:
                ratios[f"silcrow_vs_{baseline}_{size}_{procs}p"] = round(
                    ops_per_s(size, "silcrow", procs) / ops_per_s(size, baseline, procs), 3
                )
    ratios["silcrow_cost_large_vs_real_1p"] = round(
        ops_per_s("real", "silcrow", 1) / ops_per_s("large", "silcrow", 1), 3
    )
    ratios["hermes_cost_large_vs_real_1p"] = round(
        ops_per_s("real", "hermes", 1) / ops_per_s("large", "hermes", 1), 3
    )
    silcrow_runs = [run for size in SIZES for run in runs[size]["silcrow"].values()]
    report = {
        "benchmark": "store",
        "machine": {
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "tmpdir": tempfile.gettempdir(),
        },
        "params": {**vars(args), "sizes": SIZES},
        "latency_ms": latency,
        "runs": runs,
        "ratios": ratios,
        "targets": {
            "zero_lost_updates": all(run["lost_updates"] == 0 for run in silcrow_runs),
            "zero_torn_reads": all(run["torn_reads"] == 0 for run in silcrow_runs),
            "ge_1_0x_hermes_dirfsync": all(
                v >= 1.0 for k, v in ratios.items() if k.startswith(f"silcrow_vs_{TARGET}_")
            ),
            "large_cost_le_2x_real": ratios["silcrow_cost_large_vs_real_1p"] <= 2.0,
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
