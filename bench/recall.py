"""Evidence recall of the local recall provider on LoCoMo conversations.

One command::

    python bench/recall.py --dataset locomo10.json [--k 5,10]

prints ONE JSON object on stdout (progress goes to stderr)::

    {"questions": N,
     "systems": {"bm25": {"recall@5": x, "recall@10": y}, "dense": {...}, "silcrow": {...}},
     "ingest_turns_per_s": r, "prefetch_ms": {"p50": a, "p95": b},
     "ablations": {"silcrow_lexical": {...}, "silcrow_dense": {...}},
     "by_category": {"silcrow": {"1": {...}, ...}}, "config": {...}}

The first four keys are stable, for scripts and the README's figures
(``systems`` holds exactly the three systems below); ``ablations``,
``by_category`` and ``config`` may grow.

``--dataset`` holds one LoCoMo conversation or a JSON list of them. Each
conversation is ingested into its own fresh home through the public
``LocalProvider.ingest`` API. Questions of categories 1-4 that list evidence
are asked; evidence recall@k of a question is the fraction of its evidence
dialog ids (``D1:3``) among the ids of the top k distinct turns returned, and
the figures are the mean over all questions of all conversations.

Systems, measured in the same run on the same turns:

- ``bm25``: plain baseline, FTS5 BM25 over each turn's ``speaker: text`` alone.
- ``dense``: plain baseline, cosine over the same embedder's vectors of each
  turn's ``speaker: text`` alone.
- ``silcrow``: the provider's default hybrid search.

Ablations (under ``"ablations"``): ``silcrow_lexical`` / ``silcrow_dense``, the
provider's index searched by one side only, show what each side and the
fusion contribute.

``prefetch_ms`` times what an agent turn waits for:
``MemoryManager.prefetch(question)`` with the provider behind it, so the
query embedding, the search, the formatting, the fence and the threat
filter are all included (the first call for each question: nothing cached).

``--alpha``, ``--context-turns``, ``--own-weight``, ``--weights``,
``--speaker-boost`` and ``--fusion`` override the retrieval settings for
ablation runs; the defaults are the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
import numpy as np
from rich.console import Console
from rich.progress import Progress

from silcrow.recall import MemoryManager
from silcrow.recall.embedders import Embedder, get_embedder
from silcrow.recall.formats import parse_locomo
from silcrow.recall.local import LocalProvider, RecallRecord, retrieval

err = Console(stderr=True)


def evidence_ids(question: dict[str, Any]) -> list[str]:
    """Evidence ids of a question; a few LoCoMo entries pack several ids in one string."""
    ids: list[str] = []
    for item in question.get("evidence") or []:
        ids.extend(part.strip() for part in str(item).replace(",", ";").split(";") if part.strip())
    return list(dict.fromkeys(ids))


def recall_at(ranked: list[str], evidence: list[str], k: int) -> float:
    top = list(dict.fromkeys(ranked))[:k]  # k distinct turns
    return sum(e in top for e in evidence) / len(evidence)


def turn_ids(provider: LocalProvider, question: str, k: int, mode: str, fusion: str = "score") -> list[str]:
    return [h.external_id or "" for h in provider.search(question, k, mode=mode, fusion=fusion)]


class PlainBaselines:
    """BM25 and dense over each turn alone: what a naive store would do."""

    def __init__(self, records: list[RecallRecord], embedder: Embedder) -> None:
        self.ids = [r.external_id or "" for r in records]
        self.embedder = embedder
        texts = [retrieval.body_text(r.text, r.speaker) for r in records]
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
        self.db.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)", list(enumerate(texts)))
        self.vectors = embedder.embed(texts) if embedder.dim else np.zeros((len(texts), 0), np.float32)

    def bm25(self, query: str, k: int) -> list[str]:
        match = retrieval.build_match_query(query)
        if match is None:
            return []
        rows = self.db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?", (match, k))
        return [self.ids[r[0]] for r in rows]

    def dense(self, query: str, k: int) -> list[str]:
        if not self.embedder.dim:
            return []
        scores = self.vectors @ self.embedder.embed_query(query)
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")[:k]]


def run(args: argparse.Namespace) -> dict[str, Any]:
    conversations = locomo.conversations(args.dataset)
    ks = sorted({int(x) for x in args.k.split(",") if x.strip()})
    kmax = max(ks)
    embedder = get_embedder(args.embedder)
    embedder.embed(["warm up"])  # load the model now: the ingest rate should not include it
    systems = ["bm25", "dense", "silcrow"]
    ablations = ["silcrow_lexical", "silcrow_dense"]
    scores: dict[str, dict[int, list[float]]] = {s: defaultdict(list) for s in systems + ablations}
    by_cat: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    ingest_turns, ingest_seconds = 0, 0.0
    prefetch_ms: list[float] = []
    questions = 0
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-recall-") as tmp, Progress(console=err) as bar:
        for n, conv in enumerate(conversations):
            records = parse_locomo(conv, source=f"conversation {n}")
            qa = [q for q in conv.get("qa", []) if q.get("category") in (1, 2, 3, 4) and evidence_ids(q)]
            provider = LocalProvider(Path(tmp) / f"conv{n}", embedder=embedder)
            provider.initialize(f"bench-{n}")
            task = bar.add_task(f"conv {n}: ingest {len(records)} turns", total=len(records))
            start = time.perf_counter()
            provider.ingest(records, progress=lambda done, t=task: bar.update(t, completed=done))
            ingest_seconds += time.perf_counter() - start
            ingest_turns += len(records)
            baselines = PlainBaselines(records, embedder)
            manager = MemoryManager(prefetch_timeout=30.0)
            manager.add_provider(provider)
            task = bar.add_task(f"conv {n}: {len(qa)} questions", total=len(qa))
            for q in qa:
                question, evidence = str(q["question"]), evidence_ids(q)
                start = time.perf_counter()
                manager.prefetch(question)  # first call for this text: includes embedding the query
                prefetch_ms.append((time.perf_counter() - start) * 1000)
                ranked = {
                    "bm25": baselines.bm25(question, kmax),
                    "dense": baselines.dense(question, kmax),
                    "silcrow": turn_ids(provider, question, kmax, "hybrid", args.fusion),
                    "silcrow_lexical": turn_ids(provider, question, kmax, "lexical", args.fusion),
                    "silcrow_dense": turn_ids(provider, question, kmax, "dense"),
                }
                for system, ids in ranked.items():
                    for k in ks:
                        scores[system][k].append(recall_at(ids, evidence, k))
                for k in ks:
                    by_cat[str(q["category"])][k].append(recall_at(ranked["silcrow"], evidence, k))
                questions += 1
                bar.advance(task)
            manager.shutdown()  # shuts the provider down too

    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 4) if values else 0.0

    def pct(values: list[float], p: float) -> float:
        if not values:
            return 0.0
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))], 2)

    def figures(system: str) -> dict[str, float]:
        return {f"recall@{k}": mean(scores[system][k]) for k in ks}

    return {
        "questions": questions,
        "systems": {s: figures(s) for s in systems},
        "ingest_turns_per_s": round(ingest_turns / ingest_seconds, 1) if ingest_seconds else 0.0,
        "prefetch_ms": {"p50": round(statistics.median(prefetch_ms), 2) if prefetch_ms else 0.0,
                        "p95": pct(prefetch_ms, 0.95)},
        "ablations": {s: figures(s) for s in ablations},
        "by_category": {
            "silcrow": {c: {f"recall@{k}": mean(v[k]) for k in ks} | {"n": len(v[ks[0]])}
                        for c, v in sorted(by_cat.items())}
        },
        "config": {
            "embedder": embedder.name,
            "alpha": retrieval.ALPHA,
            "context_turns": retrieval.CONTEXT_TURNS,
            "own_weight": retrieval.OWN_WEIGHT,
            "column_weights": list(retrieval.COLUMN_WEIGHTS),
            "pool": retrieval.POOL,
            "fusion": args.fusion,
            "speaker_boost": retrieval.SPEAKER_BOOST,
            "conversations": len(conversations),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    locomo.add_dataset_option(parser)
    parser.add_argument("--k", default="5,10", help="comma-separated cut-offs (default 5,10)")
    parser.add_argument("--embedder", default="onnx", help="embedder name (default onnx)")
    parser.add_argument("--alpha", type=float, help="ablation: dense weight in the fusion")
    parser.add_argument("--context-turns", type=int, help="ablation: preceding turns indexed with a turn")
    parser.add_argument("--own-weight", type=float, help="ablation: turn-alone share of a turn's vector")
    parser.add_argument("--speaker-boost", type=float, help="ablation: boost of turns by a named speaker")
    parser.add_argument("--fusion", choices=sorted(retrieval.FUSIONS), default="score",
                        help="ablation: how the two sides combine (default score)")
    parser.add_argument("--weights", help="ablation: FTS5 weights body,context,dated e.g. 1,0.5,0.2")
    args = parser.parse_args()
    if args.alpha is not None:
        retrieval.ALPHA = args.alpha
    if args.context_turns is not None:
        retrieval.CONTEXT_TURNS = args.context_turns
    if args.speaker_boost is not None:
        retrieval.SPEAKER_BOOST = args.speaker_boost
    if args.own_weight is not None:
        retrieval.OWN_WEIGHT = args.own_weight
    if args.weights:
        body, context, dated = (float(x) for x in args.weights.split(","))
        retrieval.COLUMN_WEIGHTS = (body, context, dated)
    result = run(args)
    err.print(result["systems"], result["ablations"])
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
