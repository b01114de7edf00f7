"""Does SilcrowStore's search(query=...) find the right memory, and how fast, against LangGraph's own store?

One command: ``python bench/langgraph_store.py [--dataset PATH] [--questions N]``. Prints ONE JSON
object on stdout (progress on stderr).

On one LoCoMo conversation (``--dataset``, default ``$LOCOMO_DATA``; bench/locomo.py says where
to get it), every dialog turn is
put as one item ``{"speaker", "text"}`` under ``("conv", session)``, and each question of
categories 1-4 is asked with ``search(("conv",), query=question, limit=10)``. Measured in the same
run, with the same embedding model (silcrow's default, bge-small):

  silcrow_hybrid  SilcrowStore (SQLite): silcrow's hybrid recall, words and meaning fused
  inmemory_dense  LangGraph's InMemoryStore with index={"embed": the same model, "fields": ["text"]}:
                  cosine similarity only (the baseline a LangGraph user starts from)

``evidence_recall@k``: share of a question's evidence turns among the k items returned, averaged
over questions. ``put_s``: seconds to put every turn (both embed each one); ``search_ms``: median
and p95 per search. Ratios are silcrow over the baseline.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from rich.console import Console

from silcrow.integrations.langgraph import SilcrowStore
from silcrow.models import get_embedder

err = Console(stderr=True)
KS = (1, 5, 10)


def measure(store: BaseStore, turns: list[tuple[str, dict[str, str]]], questions: list[dict[str, Any]],
            label: str) -> dict[str, Any]:
    start = time.perf_counter()
    for name, turn in turns:
        store.put(("conv", name), turn["dia_id"], {"speaker": turn["speaker"], "text": turn["text"]})
    put_s = time.perf_counter() - start
    found = {k: [] for k in KS}  # type: dict[int, list[float]]
    latencies = []
    for n, q in enumerate(questions):
        start = time.perf_counter()
        hits = [i.key for i in store.search(("conv",), query=q["question"], limit=max(KS))]
        latencies.append((time.perf_counter() - start) * 1000)
        wanted = set(q["evidence"])
        for k in KS:
            found[k].append(len(wanted & set(hits[:k])) / len(wanted))
        if n % 25 == 0:
            err.print(f"{label}: {n}/{len(questions)} questions")
    latencies.sort()
    return {
        **{f"evidence_recall@{k}": round(statistics.mean(v), 4) for k, v in found.items()},
        "put_s": round(put_s, 2),
        **locomo.search_times(latencies),
    }


def main() -> None:
    args = locomo.question_bench_args(__doc__.split("\n")[0])
    turns, questions = locomo.turns_and_questions(args.dataset)
    if args.questions:
        questions = questions[:args.questions]
    err.print(f"{len(turns)} turns, {len(questions)} questions")
    embedder = get_embedder("bge")
    baseline = InMemoryStore(index={"dims": embedder.dim, "fields": ["text"],
                                    "embed": lambda texts: embedder.embed(list(texts)).tolist()})
    with tempfile.TemporaryDirectory() as home:
        Path(home, "config.toml").write_text('provider = "none"\nembedder = "bge"\n', encoding="utf-8")
        with SilcrowStore(home=home, index=["text"]) as store:
            ours = measure(store, turns, questions, "silcrow_hybrid")
    theirs = measure(baseline, turns, questions, "inmemory_dense")
    ratios = {f"{key}_ratio": round(ours[key] / theirs[key], 3) for key in ours if theirs[key]}
    print(json.dumps({"dataset": args.dataset.name, "turns": len(turns), "questions": len(questions),
                      "silcrow_hybrid": ours, "inmemory_dense": theirs, "ratios": ratios}))


if __name__ == "__main__":
    sys.exit(main())
