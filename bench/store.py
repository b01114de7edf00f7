"""Benchmark of silcrow's curated-notes write path against the real Hermes ``MemoryStore``.

    .venv/bin/python bench/store.py [--ops 100] [--procs 8] [--readers 2] [--repeat 3]

The baseline is hermes-agent's own ``tools.memory_tool.MemoryStore`` (the version ``make
.venv-hermes/.installed`` pins), run from ``.venv-hermes`` (``--hermes-python`` to use another).
Both stores run the same churn workload in the same run, each writer a process of its own
(``bench/_store_writer.py``): it adds ``[w<id>:i<k>] v0``, replaces it with ``v1``, then removes
it, except every eighth item, which it keeps, so the final file is known whatever the
interleaving. The file is seeded with filler entries to the size under test (``real``: 20
entries, a full default MEMORY.md; ``large``: 500, a budget raised tenfold and more), and
reader processes poll it during the run for torn reads.

What each store does per write (both: a sidecar ``flock``, a re-read under it, a temp file
fsynced and renamed over the file, a threat scan of the new text):

* ``silcrow``: also fsyncs the directory after the rename (a power cut cannot take back a
  write that returned), appends the history journal (undo), refuses files that resolve
  outside the home and keeps the bytes of entries it does not change;
* ``hermes``: as its source says (``tools/memory_tool.py``: ``_file_lock``,
  ``_reload_target``, ``_write_file``): the baseline;
* ``hermes_dirfsync``: the same Hermes store with a directory fsync added after its rename, so
  that it is as durable as silcrow: reported for information, to tell the cost of that one
  fsync from the cost of silcrow's own work;
* ``silcrow_no_dirfsync`` (only with ``--without-dirfsync``): silcrow with its directory fsync
  skipped, the other way round: what silcrow's write costs without that fsync. For information
  only; silcrow never runs so (a write that returned could be undone by a power cut).

Prints one JSON object on stdout (progress on stderr):

* ``summary``: silcrow's and Hermes's ops/s at 1 and ``--procs`` processes on the ``real``
  file, and their ratio (the target: >= 0.9); ``ratio_runs``: the ratio of each repeat, the two
  stores run back to back (its spread is the noise of the machine);
* ``runs``: per size, store and process count, the median run by throughput, every run's
  ops/s, and the sums over runs of lost updates (final entries that differ from what the
  operations imply, counted for both stores), refused operations and torn reads;
* ``ratios``: silcrow's ops/s over Hermes's at each size and process count (and over the
  directory-fsyncing Hermes's, ``silcrow_vs_hermes_dirfsync_*``);
* ``targets``: the ratios >= 0.9, and no lost update or torn read for either store.

Each configuration runs ``--repeat`` times, the stores taking turns, so that a burst of load
on the machine hits both.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from silcrow.store import ENTRY_DELIMITER
from silcrow.store import _document as D

ROOT = Path(__file__).resolve().parents[1]
WRITER = Path(__file__).with_name("_store_writer.py")
HERMES_PYTHON = ROOT / ".venv-hermes" / "bin" / "python"
sys.path.insert(0, str(WRITER.parent))
from _store_writer import ops as planned_ops  # noqa: E402 - beside this file

CTX = multiprocessing.get_context("fork")
SENTINEL = "sentinel entry, never touched"
ENTRY_RE = re.compile(r"\[w\d+:i\d+\] v\d")
FILLER_RE = re.compile(r"filler \d+: .*")
SIZES = {"real": 20, "large": 500}
KINDS = ("silcrow", "hermes", "hermes_dirfsync")
NO_DIRFSYNC = "silcrow_no_dirfsync"  # for information, with --without-dirfsync
TARGET_RATIO = 0.9


def _filler(count: int) -> list[str]:
    return [
        f"filler {i:03d}: the user keeps project notes in ~/notes/{i:03d}.md and prefers short answers"
        for i in range(count)
    ]


def _expected(worker: int, count: int) -> set[str]:
    state: dict[str, str] = {}
    for action, old, new in planned_ops(worker, count):
        if action == "add":
            state[new.split(" ")[0]] = new
        elif action == "replace":
            state[old.split(" ")[0]] = new
        else:
            state.pop(old.split(" ")[0], None)
    return set(state.values())


def _reader(path: str, stop: Any, out: Any) -> None:
    reads = torn = 0
    while not stop.is_set():
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                raw = handle.read()
        except FileNotFoundError:  # never, with an atomic rename: counted as torn
            raw = ""
        reads += 1
        entries = D.parse(raw)
        if SENTINEL not in entries or not all(
            e == SENTINEL or ENTRY_RE.fullmatch(e) or FILLER_RE.fullmatch(e) for e in entries
        ):
            torn += 1
        time.sleep(0.0005)  # poll hard, but leave the 2-core machines some air
    out.put((reads, torn))


def _python(kind: str, hermes_python: Path) -> str:
    return sys.executable if kind.startswith("silcrow") else str(hermes_python)


def run_contention(kind: str, procs: int, ops: int, readers: int, filler: int,
                   hermes_python: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"silcrow-bench-{kind}-") as home:
        seed = [SENTINEL, *_filler(filler)]
        directory = Path(home) / "memories"
        directory.mkdir(mode=0o700)
        path = directory / "MEMORY.md"
        path.write_text(ENTRY_DELIMITER.join(seed), encoding="utf-8")
        path.chmod(0o600)  # as silcrow makes it (it would tighten a looser one, and say so)
        env = {**os.environ, "HERMES_HOME": home, "SILCROW_HOME": home}
        writers = [
            subprocess.Popen(
                [_python(kind, hermes_python), str(WRITER), kind, home, str(w), str(ops)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=home,
            )
            for w in range(procs)
        ]
        for writer in writers:  # every writer has built its store
            assert writer.stdout is not None
            line = writer.stdout.readline()
            if line.strip() != "ready":
                raise SystemExit(f"a {kind} writer did not start: {line!r}; see its error above")
        stop = CTX.Event()
        out: Any = CTX.Queue()
        reader_procs = [CTX.Process(target=_reader, args=(str(path), stop, out), daemon=True)
                        for _ in range(readers)]
        for process in reader_procs:
            process.start()
        for writer in writers:  # then they all start at once
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        rows = []
        for writer in writers:
            stdout, _ = writer.communicate(timeout=600)
            if writer.returncode != 0:
                raise SystemExit(f"a {kind} writer failed (exit {writer.returncode})")
            rows.append(json.loads(stdout.strip().splitlines()[-1]))
        stop.set()
        seen = [out.get(timeout=60) for _ in reader_procs]
        for process in reader_procs:
            process.join(30)
        wall = max(r["ended"] for r in rows) - min(r["began"] for r in rows)
        expected = set(seed).union(*(_expected(w, ops) for w in range(procs)))
        final = D.parse(path.read_text(encoding="utf-8"))
        lost = len(expected.symmetric_difference(final)) + (len(final) - len(set(final)))
        return {
            "processes": procs,
            "ops": procs * ops,
            "seconds": round(wall, 3),
            "ops_per_s": round(procs * ops / wall, 1),
            "ms_per_op": round(wall * 1000 / (procs * ops), 3),
            "final_entries": len(final),
            "lost_updates": lost,
            "failed_ops": sum(r["failed"] for r in rows),
            "reads": sum(r[0] for r in seen),
            "torn_reads": sum(r[1] for r in seen),
        }


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The median run by throughput, with every run's ops/s and the totals of failures."""
    ordered = sorted(rows, key=lambda row: row["ops_per_s"])
    median = dict(ordered[len(ordered) // 2])
    median["ops_per_s_runs"] = [row["ops_per_s"] for row in rows]
    for key in ("lost_updates", "failed_ops", "torn_reads", "reads"):
        median[key] = sum(row[key] for row in rows)
    return median


def _hermes_version(hermes_python: Path) -> str:
    try:
        found = subprocess.run(
            [str(hermes_python), "-c", "import importlib.metadata as m; print(m.version('hermes-agent'))"],
            capture_output=True, text=True, check=False,
        )
    except OSError:  # no such interpreter
        found = None
    if found is None or found.returncode != 0:
        raise SystemExit(
            f"hermes-agent is not importable with {hermes_python}: build its virtualenv with "
            "`make .venv-hermes/.installed`, or give another with --hermes-python"
        )
    return found.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=100, help="operations per writer at --procs processes")
    parser.add_argument("--procs", type=int, default=8, help="contending writer processes")
    parser.add_argument("--readers", type=int, default=2, help="reader processes polling the file")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration (median kept)")
    parser.add_argument("--sizes", default=",".join(SIZES), help="file sizes to run: real, large")
    parser.add_argument("--hermes-python", type=Path, default=HERMES_PYTHON,
                        help="a Python with hermes-agent installed (default: .venv-hermes)")
    parser.add_argument("--without-dirfsync", action="store_true",
                        help=f"also run {NO_DIRFSYNC}: silcrow without its directory fsync (for information)")
    args = parser.parse_args()
    kinds = (*KINDS, NO_DIRFSYNC) if args.without_dirfsync else KINDS
    sizes = {name: SIZES[name] for name in args.sizes.split(",") if name}
    if "real" not in sizes:
        parser.error("--sizes must include real (the summary's size)")
    hermes_version = _hermes_version(args.hermes_python)

    console = Console(file=sys.stderr)
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
    levels = (1, args.procs)
    runs: dict[str, dict[str, dict[str, Any]]] = {}
    with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("runs", total=len(sizes) * len(levels) * args.repeat * len(kinds))
        for size, filler in sizes.items():
            for procs in levels:
                # Same total work at both levels, so the figures compare like with like.
                per_writer = args.ops * args.procs // procs
                samples: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
                for _ in range(args.repeat):
                    for kind in kinds:
                        progress.update(task, description=f"{kind}: {filler} entries, {procs} writer(s)")
                        samples[kind].append(run_contention(
                            kind, procs, per_writer, args.readers, filler, args.hermes_python))
                        progress.advance(task)
                for kind, rows in samples.items():
                    runs.setdefault(size, {}).setdefault(kind, {})[str(procs)] = _summary(rows)

    def ops_per_s(size: str, kind: str, procs: int) -> float:
        return float(runs[size][kind][str(procs)]["ops_per_s"])

    def ratio_runs(kind: str, procs: int) -> list[float]:
        ours, theirs = (runs["real"][k][str(procs)]["ops_per_s_runs"] for k in (kind, "hermes"))
        return [round(a / b, 3) for a, b in zip(ours, theirs, strict=True)]

    ratios = {
        f"silcrow_vs_{baseline}_{size}_{procs}p": round(
            ops_per_s(size, "silcrow", procs) / ops_per_s(size, baseline, procs), 3)
        for baseline in KINDS[1:] for size in sizes for procs in levels
    }
    if args.without_dirfsync:
        ratios.update({
            f"{NO_DIRFSYNC}_vs_hermes_{size}_{procs}p": round(
                ops_per_s(size, NO_DIRFSYNC, procs) / ops_per_s(size, "hermes", procs), 3)
            for size in sizes for procs in levels
        })
    every = [run for size in sizes for kind in kinds for run in runs[size][kind].values()]
    report = {
        "benchmark": "store",
        "baseline": f"hermes-agent {hermes_version} tools.memory_tool.MemoryStore",
        "summary": {
            f"{procs}p": {
                "silcrow_ops_per_s": ops_per_s("real", "silcrow", procs),
                "hermes_ops_per_s": ops_per_s("real", "hermes", procs),
                "ratio": ratios[f"silcrow_vs_hermes_real_{procs}p"],
                "ratio_runs": ratio_runs("silcrow", procs),
                "hermes_dirfsync_ops_per_s": ops_per_s("real", "hermes_dirfsync", procs),
                "ratio_vs_hermes_dirfsync": ratios[f"silcrow_vs_hermes_dirfsync_real_{procs}p"],
                **({f"{NO_DIRFSYNC}_ops_per_s": ops_per_s("real", NO_DIRFSYNC, procs),
                    f"{NO_DIRFSYNC}_ratio": ratios[f"{NO_DIRFSYNC}_vs_hermes_real_{procs}p"],
                    f"{NO_DIRFSYNC}_ratio_runs": ratio_runs(NO_DIRFSYNC, procs)}
                   if args.without_dirfsync else {}),
                "lost_updates": {kind: runs["real"][kind][str(procs)]["lost_updates"] for kind in kinds},
            }
            for procs in levels
        },
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                    "tmpdir": tempfile.gettempdir()},
        "params": {**{k: v for k, v in vars(args).items() if k != "hermes_python"},
                   "hermes_python": str(args.hermes_python), "sizes": sizes},
        "runs": runs,
        "ratios": ratios,
        "targets": {
            f"ge_{TARGET_RATIO}x_hermes": all(
                v >= TARGET_RATIO for k, v in ratios.items() if k.startswith("silcrow_vs_hermes_")
                and not k.startswith("silcrow_vs_hermes_dirfsync_")),
            "zero_lost_updates": all(run["lost_updates"] == 0 for run in every),
            "zero_torn_reads": all(run["torn_reads"] == 0 for run in every),
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
