"""Fact retrieval: keyword search reranked three ways, and HRR probes.

``search``: FTS5 candidates (any significant query word may match), each
scored ``0.4 * bm25 (scaled to [0, 1]) + 0.3 * word Jaccard + 0.3 * HRR
cosine of the query's words with the fact's content``, times the fact's
trust, times an optional exponential age decay.

The probes use the HRR structure of each fact (``.hrr.encode_fact``):

* ``probe(entity)``: facts where the entity fills the ENTITY role:
  ``cos(unbind(fact, ENTITY), atom(entity))``.
* ``related(entity)``: facts where it fills either role (a named entity or a
  word of the content), then facts that share an entity with those.
* ``reason(entities)``: facts where ALL of them fill a role (the minimum of
  their scores, an AND).
* ``contradict()``: pairs of facts about the same entities whose contents
  say different things.

Scores below :data:`NOISE_FLOOR` are dropped: unrelated unitary vectors have
cosines around ``±1/sqrt(dim)`` (0.03 at 1024), and a role filled by one of a
fact's few parts scores 0.25 or more.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Any

import numpy as np

from silcrow.providers.holographic import _hrr as hrr
from silcrow.providers.holographic._store import FactStore

FTS_WEIGHT, JACCARD_WEIGHT, HRR_WEIGHT = 0.4, 0.3, 0.3
NOISE_FLOOR = 0.12
CONTRADICTION_THRESHOLD = 0.3
MAX_CONTRADICT_FACTS = 500  # pairs grow with the square; only the most recent are compared

_FTS_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset(
    "a about above after again all am an and any are as at be because been before being between both "
    "but by can could did do does doing don down during each few for from further had has have having "
    "he her here hers herself him himself his how i if in into is it its itself just me more most my "
    "myself no nor not now of off on once only or other our ours ourselves out over own same she "
    "should so some such than that the their theirs them themselves then there these they this those "
    "through to too under until up very was we were what when where which while who whom why will "
    "with would you your yours yourself yourselves".split()
)


def fts_query(text: str) -> str:
    """Significant words of ``text`` as quoted FTS5 terms joined by OR ("" when none).

    Words are split the way FTS5's tokenizer splits them ("ana's" is "ana" and "s"), so
    each term can match a single indexed token.
    """
    words = _FTS_WORD.findall(text.lower())
    kept = dict.fromkeys(w for w in words if len(w) > 1 and w not in _STOPWORDS)
    return " OR ".join(f'"{w}"' for w in kept)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _plain(fact: dict[str, Any]) -> dict[str, Any]:
    """A fact as the model sees it (no vector bytes or raw rank)."""
    return {k: v for k, v in fact.items() if k not in ("hrr_vector", "bm25")}


def _clean(fact: dict[str, Any], score: float) -> dict[str, Any]:
    return {**_plain(fact), "score": round(score, 4)}


class FactRetriever:
    def __init__(self, store: FactStore, *, half_life_days: float = 0.0) -> None:
        self.store = store
        self.half_life_days = half_life_days
        self.dim = store.dim

    # -- keyword search --------------------------------------------------------------------

    def search(self, query: str, *, category: str | None = None, min_trust: float = 0.3, limit: int = 10
               ) -> list[dict[str, Any]]:
        match = fts_query(query)
        if not match or limit <= 0:
            return []
        candidates = self.store.fts(match, category, min_trust, limit * 3)
        if not candidates:
            return []
        top_bm25 = max(max(c["bm25"] for c in candidates), 1e-9)
        words = set(hrr.tokens(query))
        query_vec = hrr.encode_text(query, self.dim)
        role = hrr.atom(hrr.ROLE_CONTENT, self.dim)
        scored = []
        for fact in candidates:
            jaccard = _jaccard(words, set(hrr.tokens(f"{fact['content']} {fact['tags']}")))
            vec = fact.get("hrr_vector")
            cosine = hrr.similarity(query_vec, hrr.unbind(hrr.from_bytes(vec), role)) if vec else 0.0
            relevance = (FTS_WEIGHT * fact["bm25"] / top_bm25 + JACCARD_WEIGHT * jaccard
                         + HRR_WEIGHT * max(cosine, 0.0))
            score = relevance * fact["trust_score"] * self._decay(fact["updated_at"])
            scored.append(_clean(fact, score))
        scored.sort(key=lambda f: -f["score"])
        best = scored[:limit]
        self.store.mark_retrieved([f["fact_id"] for f in best])
        return best

    def _decay(self, timestamp: str | None) -> float:
        if self.half_life_days <= 0 or not timestamp:
            return 1.0
        try:
            when = datetime.fromisoformat(timestamp).replace(tzinfo=UTC)
        except ValueError:
            return 1.0
        age_days = max(0.0, (datetime.now(UTC) - when).total_seconds() / 86400)
        return math.pow(0.5, age_days / self.half_life_days)

    # -- HRR probes ------------------------------------------------------------------------

    def _role_scores(self, vectors: list[np.ndarray], role: str, name: str) -> np.ndarray:
        """Cosine of each fact's ``role`` filler with ``name``'s atom, for all facts at once."""
        if not vectors:
            return np.zeros(0)
        fillers = hrr.unbind(np.stack(vectors), hrr.atom(role, self.dim))
        target = hrr.atom(name.lower(), self.dim)
        norms = np.linalg.norm(fillers, axis=1) * np.linalg.norm(target)
        return np.asarray(fillers @ target / np.maximum(norms, 1e-12))

    def _entity_presence(self, vectors: list[np.ndarray], entity: str) -> np.ndarray:
        canonical = self.store.canonical_entity(entity.strip())
        return self._role_scores(vectors, hrr.ROLE_ENTITY, canonical)

    def _ranked(self, facts: list[dict[str, Any]], scores: np.ndarray, limit: int) -> list[dict[str, Any]]:
        picked = [(f, float(s) * f["trust_score"]) for f, s in zip(facts, scores, strict=True)
                  if s >= NOISE_FLOOR]
        picked.sort(key=lambda fs: -fs[1])
        return [_clean(f, s) for f, s in picked[:limit]]

    def probe(self, entity: str, *, category: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.store.facts_with_vectors(category)
        facts, vectors = [f for f, _ in rows], [v for _, v in rows]
        return self._ranked(facts, self._entity_presence(vectors, entity), limit)

    def related(self, entity: str, *, category: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.store.facts_with_vectors(category)
        facts, vectors = [f for f, _ in rows], [v for _, v in rows]
        if not facts:
            return []
        words = hrr.tokens(entity)
        as_word = (np.min([self._role_scores(vectors, hrr.ROLE_CONTENT, w) for w in words], axis=0)
                   if words else np.zeros(len(facts)))
        direct = np.maximum(self._entity_presence(vectors, entity), as_word)
        # One hop: facts that name an entity the direct hits also name, at half weight.
        ids = [f["fact_id"] for f in facts]
        entities = self.store.entities_of(ids)
        own = self.store.canonical_entity(entity.strip()).lower()
        neighbours = {e for fid, s in zip(ids, direct, strict=True) if s >= NOISE_FLOOR
                      for e in entities[fid]} - {own}
        hop = np.array([0.5 * len(entities[fid] & neighbours) / max(len(entities[fid]), 1) for fid in ids])
        return self._ranked(facts, np.maximum(direct, hop), limit)

    def reason(self, entities: list[str], *, category: str | None = None, limit: int = 10
               ) -> list[dict[str, Any]]:
        names = [e for e in entities if isinstance(e, str) and e.strip()]
        rows = self.store.facts_with_vectors(category)
        if not names or not rows:
            return []
        facts, vectors = [f for f, _ in rows], [v for _, v in rows]
        every = np.min([self._entity_presence(vectors, name) for name in names], axis=0)
        return self._ranked(facts, every, limit)

    def contradict(self, *, category: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.store.facts_with_vectors(category)
        rows.sort(key=lambda fv: str(fv[0]["updated_at"]), reverse=True)
        rows = rows[:MAX_CONTRADICT_FACTS]
        entities = self.store.entities_of([f["fact_id"] for f, _ in rows])
        texts = [hrr.encode_text(f["content"], self.dim) for f, _ in rows]
        found: list[dict[str, Any]] = []
        for i, (a, _) in enumerate(rows):
            for j in range(i + 1, len(rows)):
                b = rows[j][0]
                ea, eb = entities[a["fact_id"]], entities[b["fact_id"]]
                overlap = _jaccard(ea, eb)
                if overlap < 0.5:
                    continue
                same = hrr.similarity(texts[i], texts[j])
                score = overlap * (1.0 - max(same, 0.0))
                if score >= CONTRADICTION_THRESHOLD:
                    found.append({"fact_a": _plain(a), "fact_b": _plain(b),
                                  "shared_entities": sorted(ea & eb), "entity_overlap": round(overlap, 3),
                                  "content_similarity": round(same, 3),
                                  "contradiction_score": round(score, 3)})
        found.sort(key=lambda c: -c["contradiction_score"])
        return found[:limit]
