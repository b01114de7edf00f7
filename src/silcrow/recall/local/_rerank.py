"""How a reranker's scores reorder the best hits of a search, as an option.

A cross-encoder (:mod:`silcrow.models`) costs a model run per hit per search,
so it reads only the best :data:`RERANK_DEPTH` hits and its score is blended
with the search's own, not put in its place: alone it ranked worse than the
hybrid search (it was trained on web search, not on conversation), blended it
ranked better (docs/providers/local.md has the figures).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from silcrow.errors import RecallError
from silcrow.models import Reranker
from silcrow.recall.local._records import RecallHit
from silcrow.recall.local._retrieval import body_text

__all__ = ["RERANK_DEPTH", "RERANK_WEIGHT", "blend", "rerank"]

#: How many of a search's best hits the reranker reads (and may reorder).
RERANK_DEPTH = 20
#: Share of the reranker's score in the new order; the rest is the search's own. Both are
#: min-max scaled over the hits read. Measured on LoCoMo conv-26 (bench/recall.py --reranker).
RERANK_WEIGHT = 0.3


def rerank(reranker: Reranker, query: str, hits: Sequence[RecallHit]) -> list[RecallHit]:
    """``hits`` (best first) with the first RERANK_DEPTH reordered by :func:`blend`; the rest follow."""
    head, tail = list(hits[:RERANK_DEPTH]), list(hits[RERANK_DEPTH:])
    if len(head) < 2 or not query.strip():
        return [*head, *tail]
    read = reranker.scores(query, [body_text(h.text, h.speaker) for h in head])
    return [*blend(head, read), *tail]


def _scaled(values: np.ndarray) -> np.ndarray:
    span = float(values.max() - values.min())
    return (values - values.min()) / span if span > 1e-9 else np.ones_like(values)


def blend(hits: Sequence[RecallHit], read: np.ndarray, weight: float | None = None) -> list[RecallHit]:
    """``hits`` ordered by ``(1 - weight) * own + weight * read``, each min-max scaled over
    ``hits``; a hit's score becomes that blend (ties keep the search's order)."""
    weight = RERANK_WEIGHT if weight is None else weight
    read = np.asarray(read, dtype=np.float64)
    if read.shape != (len(hits),) or not np.isfinite(read).all():
        raise RecallError(f"the reranker returned {read.shape} scores for {len(hits)} hits, or a non-number")
    if not hits:
        return []
    own = _scaled(np.array([h.score for h in hits], dtype=np.float64))
    mixed = (1.0 - weight) * own + weight * _scaled(read)
    order = sorted(range(len(hits)), key=lambda i: (-mixed[i], i))
    return [dataclasses.replace(hits[i], score=float(mixed[i])) for i in order]
