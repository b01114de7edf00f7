"""bench/store.py runs silcrow's and the real Hermes MemoryStore (from .venv-hermes) on one churn
workload and prints one JSON object with both rates, the ratio and the lost updates of each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "store.py"
HERMES_PYTHON = ROOT / ".venv-hermes" / "bin" / "python"


def _kept(count: int) -> int:
    """How many entries one writer of ``count`` operations leaves (the seed has 21)."""
    sys.path.insert(0, str(BENCH.parent))
    from _store_writer import ops

    live: set[str] = set()
    for action, old, new in ops(0, count):
        live.discard(old)
        if action != "remove":
            live.add(new)
    return len(live)


@pytest.mark.hermes
@pytest.mark.slow
def test_the_bench_measures_silcrow_against_the_real_hermes_store(tmp_path: Path) -> None:
    if not (HERMES_PYTHON.parent.parent / ".installed").exists():
        pytest.fail("the Hermes virtualenv is missing: run `make .venv-hermes/.installed` (or `make test`)")
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--ops", "12", "--procs", "3", "--readers", "1", "--repeat", "1",
         "--sizes", "real", "--without-dirfsync"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    result = json.loads(proc.stdout)  # one JSON object, nothing else on stdout
    assert lines[0] == "{" and lines[-1] == "}"
    assert result["baseline"] == "hermes-agent 0.19.0 tools.memory_tool.MemoryStore"
    for level in ("1p", "3p"):
        figures = result["summary"][level]
        assert figures["silcrow_ops_per_s"] > 0 and figures["hermes_ops_per_s"] > 0
        assert figures["ratio"] == round(figures["silcrow_ops_per_s"] / figures["hermes_ops_per_s"], 3)
        assert figures["ratio_runs"] == [figures["ratio"]]  # one repeat: its ratio is the ratio
        # Every store keeps every write: the workload's final state is known, whatever the interleaving.
        assert figures["lost_updates"] == {"silcrow": 0, "hermes": 0, "hermes_dirfsync": 0,
                                           "silcrow_no_dirfsync": 0}
        assert figures["silcrow_no_dirfsync_ratio"] == round(
            figures["silcrow_no_dirfsync_ops_per_s"] / figures["hermes_ops_per_s"], 3)
    for kind, by_level in result["runs"]["real"].items():
        for procs, run in by_level.items():
            assert run["ops"] == 36 and run["processes"] == int(procs), kind
            assert run["failed_ops"] == 0 and run["torn_reads"] == 0 and run["reads"] > 0, kind
            assert run["final_entries"] == 21 + int(procs) * _kept(36 // int(procs)), kind
    assert set(result["ratios"]) == {f"{ours}_vs_{baseline}_real_{level}" for ours, baseline in
                                     (("silcrow", "hermes"), ("silcrow", "hermes_dirfsync"),
                                      ("silcrow_no_dirfsync", "hermes")) for level in ("1p", "3p")}


def test_the_bench_says_how_to_get_hermes_when_it_is_missing(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--hermes-python", str(tmp_path / "no-python")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert proc.returncode != 0 and proc.stdout == ""
    assert "make .venv-hermes/.installed" in proc.stderr and "Traceback" not in proc.stderr
