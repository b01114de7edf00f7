"""Benchmark of start-up cost: ``import silcrow``, ``silcrow --help`` and ``silcrow memory show``.

    .venv/bin/python bench/startup.py [--runs 15]

Prints one JSON object on stdout (progress goes to stderr). Every command is
a fresh interpreter, run ``--runs`` times, interleaved round-robin with the
baseline (``python -c pass`` on the same interpreter) so that machine load
hits all of them alike. ``*_ms`` are medians of wall time; ``*_over_baseline_ms``
subtract the baseline median; ``*_cpu_ms`` are medians of the child's user+system
CPU time, which machine load changes much less than wall time. Targets (issue 8): ``import silcrow`` < 80 ms
and ``silcrow memory show`` < 300 ms wall. ``importtime`` lists the modules
with the largest cumulative import time (``python -X importtime``) in each
command, to show where the time goes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

err = Console(stderr=True)
TARGETS_MS = {"import_silcrow": 80.0, "memory_show": 300.0}


def _commands(home: Path) -> dict[str, list[str]]:
    python = sys.executable
    script = str(Path(python).with_name("silcrow"))
    cli = [script] if Path(script).exists() else [python, "-c", "from silcrow.cli.main import main; main()"]
    return {
        "baseline": [python, "-c", "pass"],
        "import_silcrow": [python, "-c", "import silcrow"],
        "help": [*cli, "--help"],
        "memory_show": [*cli, "--home", str(home), "memory", "show"],
    }


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wall(cmd: list[str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one run; CPU time is what the command costs on an idle machine,
    wall time what a user waits (it grows with the machine's load)."""
    cpu = _cpu_s()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
    return elapsed * 1000, (_cpu_s() - cpu) * 1000


def _importtime(cmd: list[str], top: int) -> dict[str, int]:
    """Largest cumulative import times (µs) of the top-level imports in ``cmd``."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *cmd[1:]] if cmd[0] == sys.executable
                          else [sys.executable, "-X", "importtime", *cmd],
                          capture_output=True, text=True, encoding="utf-8")
    rows: list[tuple[int, str]] = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, raw = line[len("import time:"):].split("|")
        if not raw.startswith("    "):  # nesting depth 0 or 1: what the command itself pulled in
            rows.append((int(cumulative.strip()), raw.strip()))
    return {name: us for us, name in sorted(rows, reverse=True)[:top]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        memories = home / "memories"
        memories.mkdir()
        entries = [f"Project {i} builds with `make build-{i}` and deploys on Fridays." for i in range(20)]
        (memories / "MEMORY.md").write_text("\n§\n".join(entries), encoding="utf-8")
        (memories / "USER.md").write_text("The user is called Sam.\n§\nSam prefers pytest.", encoding="utf-8")
        commands = _commands(home)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for cmd in commands.values():
            _wall(cmd)  # warm the page cache and .pyc files once
        for run in range(args.runs):
            err.print(f"[dim]run {run + 1}/{args.runs}[/dim]")
            for name, cmd in commands.items():
                wall_ms, cpu_ms = _wall(cmd)
                times[name].append(wall_ms)
                cpu[name].append(cpu_ms)
        err.print("[dim]import times[/dim]")
        importtime = {name: _importtime(cmd, args.top)
                      for name, cmd in commands.items() if name != "baseline"}
    median = {name: statistics.median(values) for name, values in times.items()}
    result = {
        "runs": args.runs,
        "python": sys.version.split()[0],
        "load_average_1m": round(os.getloadavg()[0], 2),
        **{f"{name}_ms": round(value, 1) for name, value in median.items()},
        **{f"{name}_min_ms": round(min(times[name]), 1) for name in commands},
        **{f"{name}_cpu_ms": round(statistics.median(cpu[name]), 1) for name in commands},
        **{f"{name}_over_baseline_ms": round(median[name] - median["baseline"], 1)
           for name in commands if name != "baseline"},
        **{f"{name}_x_baseline": round(median[name] / median["baseline"], 2)
           for name in commands if name != "baseline"},
        "targets_ms": TARGETS_MS,
        "targets_met": {name: median[name] < limit for name, limit in TARGETS_MS.items()},
        "importtime_us": importtime,
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
