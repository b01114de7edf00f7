"""bench/recall.py keeps the JSON shape issue 3 fixes, on a tiny LoCoMo conversation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "recall.py"

CONVERSATION = {
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a border collie called Pixel."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "I am training for the Lisbon marathon."},
        ],
        "session_2_date_time": "10:05 am on 12 June, 2023",
        "session_2": [
            {"speaker": "Ana", "dia_id": "D2:1", "text": "My sister Clara moved to Porto."},
        ],
    },
    "qa": [
        {"question": "What is the name of Ana's dog?", "evidence": ["D1:1"], "category": 4},
        {"question": "Which marathon is Ben training for?", "evidence": ["D1:2"], "category": 1},
        {"question": "Where did Clara move?", "evidence": ["D2:1"], "category": 4},
        {"question": "Adversarial, not asked", "evidence": ["D1:1"], "category": 5},
    ],
}


def test_bench_prints_the_contract_shape(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny.json"
    dataset.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--dataset", str(dataset), "--embedder", "none",
         "--backends", "sqlite", "--sizes", ""],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1  # one JSON object on stdout; progress goes to stderr
    result = json.loads(lines[0])
    assert result["questions"] == 3
    assert set(result["systems"]) == {"bm25", "dense", "silcrow"}
    for figures in result["systems"].values():
        assert set(figures) == {"recall@5", "recall@10"}
        assert all(0.0 <= v <= 1.0 for v in figures.values())
    assert result["systems"]["silcrow"]["recall@10"] == 1.0  # three turns: all of them are in the top 10
    assert {"default", "silcrow_lexical", "silcrow_dense", "no_neighbours", "no_speaker_boost",
            "no_date_resolution", "no_list_decay", "session_context_0.2", "tail_one_per_session",
            "dbsf_fusion"} <= set(result["ablations"])
    default = result["ablations"]["default"]
    assert set(default["turn_by_category"]) == set(default["session_by_category"]) == {"all", "1", "4"}
    assert default["turn_by_category"]["all"]["recall@10"] == default["recall@10"]
    assert set(result["turn_level"]) == set(result["session_level"]) == {"sqlite"}
    assert result["turn_level"]["sqlite"]["all"]["n"] == 3
    assert result["session_level"]["sqlite"]["all"]["recall@10"] == 1.0
    assert result["ingest_turns_per_s"] > 0
    assert set(result["prefetch_ms"]) == {"p50", "p95"} and result["prefetch_ms"]["p50"] > 0
    ingest = result["ingest"]  # short (chat) and long turns, today's ingest beside the previous one
    assert "pydoc_data" in ingest["long_source"]
    for kind in ("short", "long"):
        row = ingest["sqlite"][kind]
        assert row["default"]["turns_per_s"] > 0 and row["baseline"]["turns_per_s"] > 0
        assert row["vs_baseline"] > 0
    assert "window_speaker_b" in result["ablations"]


def test_a_missing_dataset_says_where_to_get_locomo(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LOCOMO_DATA"}
    proc = subprocess.run([sys.executable, str(BENCH)], capture_output=True, text=True, encoding="utf-8",
                          env=env, timeout=120, check=False)
    assert proc.returncode != 0 and "github.com/snap-research/locomo" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_ideas_bench_compares_each_idea_with_the_default(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny.json"
    dataset.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(BENCH.with_name("recall_ideas.py")), "--dataset", str(dataset)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip())
    assert result["questions"] == 3
    assert {"default", "noname_dense", "prf_5_0.3", "rocchio_0.25", "mmr_0.7"} <= set(result["variants"])
    for row in result["variants"].values():
        assert row["recall@10"] == 1.0  # three turns: every variant has them all in its top 10
        assert row["delta_recall@10"] == 0.0


def test_the_reranker_cost_bench_reports_lengths_and_mixed_hits() -> None:
    bench = BENCH.with_name("rerank_cost.py")
    proc = subprocess.run([sys.executable, str(bench), "--lengths", "10,200", "--runs", "2"],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out["by_words"]) == {"10", "200"}
    assert out["by_words"]["200"]["p50_ms"] > 0 and out["longest_vs_shortest_p50"] > 0
    mixed = out["mixed"]
    assert mixed["p50_ms"] > 0 and mixed["one_run_p50_ms"] > 0
    assert mixed["vs_one_run"] == round(mixed["p50_ms"] / mixed["one_run_p50_ms"], 2)
