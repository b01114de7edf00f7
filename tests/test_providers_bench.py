"""bench/providers.py prints one JSON object with every system's figures and the ratios to local."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_recall_bench import CONVERSATION

BENCH = Path(__file__).resolve().parents[1] / "bench" / "providers.py"


def test_bench_compares_providers_against_the_local_baseline(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny.json"
    dataset.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--dataset", str(dataset), "--embedder", "none",
         "--systems", "local,holographic"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["questions"] == 3 and result["baseline"] == "local"
    assert set(result["systems"]) == {"local", "holographic"}
    for figures in result["systems"].values():
        assert 0.0 <= figures["recall@5"] <= figures["recall@10"] <= 1.0
        assert figures["ingest_turns_per_s"] > 0
        assert figures["prefetch_ms"]["p95"] >= figures["prefetch_ms"]["p50"]
    assert result["systems"]["holographic"]["recall@10"] == 1.0  # each answer shares a word with its turn
    assert set(result["ratios"]) == {"holographic"}
    assert "hindsight" in result["not_measured"] and "holographic" not in result["not_measured"]


def test_bench_refuses_an_unknown_system(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--dataset", "x.json", "--systems", "local,nope"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and "unknown systems ['nope']" in proc.stderr
