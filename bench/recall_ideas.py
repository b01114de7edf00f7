"""Ranking ideas that need a second query, measured against the default on one ingested store.

One command::

    python bench/recall_ideas.py --dataset locomo-conv-26.json

prints ONE JSON object on stdout (progress goes to stderr)::

    {"questions": N, "variants": {"default": {"recall@5", "recall@10", "multi_hop", "temporal",
     "open_domain", "single_hop", "delta_recall@10"}, ...}, "config": {...}}

``bench/recall.py`` switches the ideas that live in the shipped ranking
(:func:`silcrow.recall.local._backend.rank`) on and off. The ideas here need
more than one query per question, which the backends do not run, so this
script runs them over the SQLite store's own pieces (its FTS5 table, its
vector index, the shared :func:`retrieval.bm25` and ``rank``) and compares
each with the default rebuilt the same way (``default``: the lexical
candidates are the FTS5 top LEXICAL_POOL rescored by the shared BM25, as the store does):

- ``noname_dense`` / ``noname_lexical``: a second query with the speakers'
  names taken out (the speaker boost still knows who was named), its cosine
  averaged with the full query's / its terms used for the lexical side.
- ``prf_M_W``: pseudo-relevance feedback: the M terms of the top 5 hits found
  in at least two of them, highest idf first, added at weight W to BM25.
- ``rocchio_B``: the query vector plus B times the mean of the top 3 hits' vectors.
- ``mmr_L``: ranks 6-10 picked by maximal marginal relevance (L: share of
  relevance against similarity to the hits already picked).
- ``list_alpha_A``: the dense weight A for list questions (``asks_for_a_list``).
- ``question_lift``: a top-10 hit that is a question lifts the turn after it
  (its answer) to the hit's score.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
import numpy as np
from recall import evidence_ids, recall_at
from rich.console import Console
from rich.progress import Progress

from silcrow._sqlite import STOPWORDS, placeholders
from silcrow.models import get_embedder
from silcrow.recall import parse_locomo
from silcrow.recall.local import LocalProvider, RecallStore
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._backend import rank

err = Console(stderr=True)
_WORD = re.compile(r"\w+")
Ranked = list[tuple[int, float]]


class Pieces:
    """The SQLite store's own lexical and dense sides, callable with any query text or terms."""

    def __init__(self, store: RecallStore) -> None:
        self.store = store
        conn = store._conn
        self.body = {int(i): str(b) for i, b in conn.execute("SELECT rowid, body FROM memories_fts")}
        self.total = len(self.body)
        speakers = [str(r[0]) for r in conn.execute("SELECT DISTINCT speaker FROM memories")]
        self.names = {w for s in speakers for w in _WORD.findall(s.casefold())}
        self.df: Counter[str] = Counter()
        for b in self.body.values():
            self.df.update(set(_WORD.findall(b.casefold())))

    def lexical(self, terms: list[str], weights: Mapping[str, float] | None = None) -> Ranked:
        match = retrieval.match_expression(terms)
        if match is None:
            return []
        conn = self.store._conn
        ids = [int(r[0]) for r in conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts) LIMIT ?",
            (match, retrieval.LEXICAL_POOL),
        )]
        docs = {int(r[0]): r[1:] for r in conn.execute(
            f"SELECT rowid, body, context, dated FROM memories_fts WHERE rowid IN ({placeholders(ids)})", ids
        )}
        df = self.store.lexical.df(terms, self.total, self.store.lexical._count)
        return retrieval.bm25(terms, docs, df, self.total, weights)[: retrieval.POOL]

    def vector(self, i: int) -> np.ndarray:
        index = self.store._index
        assert index is not None
        packed = index._loc[i]
        return np.asarray(index._buckets[packed >> 32].mat[packed & 0xFFFFFFFF])

    def dense(self, vectors: list[np.ndarray], extra: list[int]) -> dict[int, float]:
        """Mean cosine over ``vectors`` of the union of their top POOL and ``extra``."""
        index = self.store._index
        assert index is not None
        ids = set(extra)
        for v in vectors:
            ids |= {i for i, _ in index.search(v, retrieval.POOL)}
        allowed = np.asarray(sorted(ids), dtype=np.int64)
        per = [dict(index.search(v, len(allowed), allowed)) for v in vectors]
        return {int(i): float(np.mean([p[int(i)] for p in per])) for i in allowed}

    def about(self, ids: list[int]) -> Mapping[int, tuple[str, str]]:
        return self.store._about(ids)

    def without_names(self, text: str) -> str:
        return " ".join(w for w in text.split()
                        if re.sub(r"'s$|\W", "", w.casefold().replace("\u2019", "'")) not in self.names)

    def feedback_terms(self, top: list[int], have: set[str], m: int) -> list[str]:
        seen: Counter[str] = Counter()
        for i in top:
            seen.update({w for w in _WORD.findall(self.body[i].casefold())
                         if len(w) > 2 and not w.isdigit() and w not in STOPWORDS and w not in have
                         and w not in self.names})
        idf = {w: float(np.log((self.total - self.df[w] + 0.5) / (self.df[w] + 0.5))) for w in seen}
        return sorted((w for w, c in seen.items() if c >= 2), key=lambda w: (-seen[w] * idf[w], w))[:m]


def answer(pieces: Pieces, emb: Any, text: str, variant: dict[str, Any]) -> Ranked:
    terms = retrieval.query_terms(text)
    qv = emb.embed_query(text)
    vectors = [qv]
    if variant.get("noname_dense"):
        vectors.append(emb.embed_query(pieces.without_names(text)))
    lex_terms = terms
    if variant.get("noname_lexical"):
        lex_terms = [t for t in terms if t not in pieces.names] or terms
    lexical = pieces.lexical(lex_terms)
    dense = pieces.dense(vectors, [i for i, _ in lexical])
    alpha = retrieval.ALPHA
    if "list_alpha" in variant and retrieval.asks_for_a_list(text):
        retrieval.ALPHA = variant["list_alpha"]
    try:
        ranked = rank(text, "hybrid", lexical, dense, pieces.about, min_similarity=None)
    finally:
        retrieval.ALPHA = alpha
    if "prf" in variant:
        m, weight = variant["prf"]
        extra = pieces.feedback_terms([i for i, _ in ranked[:5]], set(terms), m)
        lexical = pieces.lexical(terms + extra, dict.fromkeys(extra, weight))
        ranked = rank(text, "hybrid", lexical, pieces.dense(vectors, [i for i, _ in lexical]),
                      pieces.about, min_similarity=None)
    if "rocchio" in variant:
        centre = np.mean([pieces.vector(i) for i, _ in ranked[:3]], axis=0)
        moved = qv + variant["rocchio"] * centre
        dense = pieces.dense([moved / np.linalg.norm(moved)], [i for i, _ in lexical])
        ranked = rank(text, "hybrid", lexical, dense, pieces.about, min_similarity=None)
    if "mmr" in variant:
        ranked = mmr(ranked, pieces.vector, variant["mmr"])
    if variant.get("question_lift"):
        near = [*(i for i, _ in ranked), *(i + 1 for i, _ in ranked[:10])]
        sessions = {i: s for i, (_, s) in pieces.about(near).items()}
        out = dict(ranked)
        for i, score in ranked[:10]:
            if pieces.body[i].rstrip().endswith("?") and sessions.get(i + 1) == sessions.get(i):
                out[i + 1] = max(out.get(i + 1, 0.0), score)
        ranked = sorted(out.items(), key=lambda p: (-p[1], p[0]))
    return ranked


def mmr(
    ranked: Ranked, vector: Callable[[int], np.ndarray], lam: float, head: int = 5, depth: int = 10
) -> Ranked:
    out, rest = list(ranked[:head]), list(ranked[head:40])
    best = ranked[0][1] if ranked and ranked[0][1] > 0 else 1.0
    while len(out) < depth and rest:
        chosen = [vector(i) for i, _ in out]
        def gain(p: tuple[int, float], chosen: list[np.ndarray] = chosen) -> float:
            return lam * p[1] / best - (1 - lam) * max(float(vector(p[0]) @ c) for c in chosen)

        pick = max(rest, key=gain)
        rest.remove(pick)
        out.append(pick)
    picked = {i for i, _ in out}
    return out + [p for p in ranked if p[0] not in picked]


VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "noname_dense": {"noname_dense": True},
    "noname_lexical": {"noname_lexical": True},
    "prf_5_0.3": {"prf": (5, 0.3)},
    "prf_10_0.2": {"prf": (10, 0.2)},
    "prf_5_0.5": {"prf": (5, 0.5)},
    "rocchio_0.25": {"rocchio": 0.25},
    "rocchio_1.0": {"rocchio": 1.0},
    "mmr_0.7": {"mmr": 0.7},
    "mmr_0.5": {"mmr": 0.5},
    "list_alpha_0.5": {"list_alpha": 0.5},
    "list_alpha_0.7": {"list_alpha": 0.7},
    "question_lift": {"question_lift": True},
}
CATEGORIES = {"1": "multi_hop", "2": "temporal", "3": "open_domain", "4": "single_hop"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    locomo.add_dataset_option(parser)
    parser.add_argument("--embedder", default="bge", help="embedder name (default bge)")
    args = parser.parse_args()
    emb = get_embedder(args.embedder)
    got: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in VARIANTS}
    questions = 0
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-ideas-") as tmp, Progress(console=err) as bar:
        for n, conv in enumerate(locomo.conversations(args.dataset)):
            provider = LocalProvider(Path(tmp) / str(n), embedder=emb)
            provider.initialize(f"ideas-{n}")
            provider.ingest(parse_locomo(conv, source=f"conversation {n}"))
            store = provider.store
            if not isinstance(store, RecallStore) or store._index is None:
                sys.exit("recall_ideas.py needs the SQLite store and an embedder with vectors")
            pieces = Pieces(store)
            ext = {int(i): str(e) for i, e in store._conn.execute("SELECT id, external_id FROM memories")}
            qa = [q for q in conv.get("qa", []) if q.get("category") in (1, 2, 3, 4) and evidence_ids(q)]
            task = bar.add_task(f"conv {n}: {len(qa)} questions x {len(VARIANTS)} variants", total=len(qa))
            for q in qa:
                evidence, cat = evidence_ids(q), str(q["category"])
                for name, variant in VARIANTS.items():
                    ids = [ext[i] for i, _ in answer(pieces, emb, str(q["question"]), variant)]
                    for key in ("all", cat):
                        got[name][f"{key}@5"].append(recall_at(ids, evidence, 5))
                        got[name][f"{key}@10"].append(recall_at(ids, evidence, 10))
                questions += 1
                bar.advance(task)
            provider.shutdown()

    def mean(values: list[float]) -> float:
        return round(float(np.mean(values)), 4) if values else 0.0

    base = mean(got["default"]["all@10"])
    variants = {
        name: {"recall@5": mean(g["all@5"]), "recall@10": mean(g["all@10"])}
        | {label: mean(g[f"{c}@10"]) for c, label in CATEGORIES.items()}
        | {"delta_recall@10": round(mean(g["all@10"]) - base, 4)}
        for name, g in got.items()
    }
    for name, row in variants.items():
        err.print(f"{name:16} r@5 {row['recall@5']:.4f} r@10 {row['recall@10']:.4f}"
                  f" ({row['delta_recall@10']:+.4f}) multi-hop {row['multi_hop']:.4f}"
                  f" open {row['open_domain']:.4f}")
    config = {"embedder": emb.name, "alpha": retrieval.ALPHA, "pool": retrieval.POOL}
    sys.stdout.write(json.dumps({"questions": questions, "variants": variants, "config": config}) + "\n")


if __name__ == "__main__":
    main()
