"""The lexical side of retrieval: FTS5 BM25 over the memories, within a tenant scope.

Terms found in a large share of a big store are left out of the query (see
:data:`retrieval.DF_FRACTION`): their idf is near zero, but FTS5 would have
to score every row holding them, which is what makes OR queries slow at
100k+ rows. Whether a term is that common is learnt by reading just past the
cut-off in its posting list (cheap) and cached until the store grows or
shrinks by a tenth. (PostgreSQL keeps each word's count in a table and reads
it exactly on every search; :func:`common_cutoff` and :func:`without_common`
make both leave out the same terms.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Container

from silcrow._sqlite import placeholders
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._backend import project_params
from silcrow.recall.local._records import Scope


def project_sql(prefix: str = "") -> str:
    """The condition "the memory belongs to the project ? or a directory below it" on SQLite
    (three parameters: :func:`~silcrow.recall.local._backend.project_params`)."""
    column = f"json_extract({prefix}metadata, '$.project')"
    return f"({column} = ? OR substr({column}, 1, ?) = ?)"


def common_cutoff(total: int) -> int:
    """A term held by more than this many of ``total`` memories is too common to score."""
    return max(retrieval.DF_FLOOR, int(retrieval.DF_FRACTION * total))


def without_common(terms: list[str], common: Container[str], *, need_some: bool) -> list[str]:
    """``terms`` less the ``common`` ones. Only common words left: with vectors, the dense side
    ranks better than near-zero idf scores; lexical-only search (``need_some``) keeps them all
    rather than return nothing."""
    keep = [term for term in terms if term not in common]
    return keep if keep or not need_some else terms


class CommonTerms:
    """Which query terms are too common to be worth scoring, learnt by probing and cached.

    ``probe(term, n)`` says whether more than ``n`` memories hold ``term`` (the engine
    reads just past the n-th entry of its posting list).
    """

    def __init__(self, probe: Callable[[str, int], bool]) -> None:
        self._probe = probe
        self.common: dict[str, tuple[bool, int]] = {}  # term -> (too common?, rows when checked)
        self.counts: dict[str, tuple[int, int]] = {}  # term -> (memories holding it, rows when counted)

    def selective(self, terms: list[str], total: int, *, need_some: bool) -> list[str]:
        """``terms`` without those too common to be worth scoring in a store of ``total`` rows."""
        cutoff = common_cutoff(total)
        if total <= cutoff:
            return terms
        if len(self.common) > 100_000:
            self.common.clear()
        for term in terms:
            if (c := self.common.get(term)) is None or abs(total - c[1]) > 0.1 * c[1]:
                self.common[term] = (self._probe(term, cutoff), total)
        return without_common(terms, {t for t in terms if self.common[t][0]}, need_some=need_some)

    def df(self, terms: list[str], total: int,
           count: Callable[[list[str], int], dict[str, int]]) -> dict[str, int]:
        """How many memories hold each term, counted up to the common-term cut-off by ``count``.

        In a store of DF_FLOOR rows or more a term's count is kept until the store has grown
        or shrunk by a tenth, as its commonness is: an idf moves little with a tenth more rows,
        and counting was a third of a search's time (PostgreSQL reads every row it counts).
        """
        cap = common_cutoff(total) + 1
        if total < retrieval.DF_FLOOR:
            return count(terms, cap)  # small: cheap to count, and each new row moves an idf
        if len(self.counts) > 100_000:
            self.counts.clear()
        stale = [t for t in terms if (c := self.counts.get(t)) is None or abs(total - c[1]) > 0.1 * c[1]]
        if stale:
            for term, held in count(stale, cap).items():
                self.counts[term] = (held, total)
        return {t: self.counts[t][0] for t in terms}


class LexicalSearch(CommonTerms):
    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__(self._held_by_more_than)
        self._conn = conn

    def _held_by_more_than(self, term: str, n: int) -> bool:
        row = self._conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1 OFFSET ?",
            (retrieval.quote_term(term), n),
        ).fetchone()
        return row is not None

    def search(
        self, query: str, limit: int, scope: Scope, *, total: int, whole_store: bool, need_some: bool,
        project: str | None = None,
    ) -> list[tuple[int, float]]:
        """(id, bm25) of the best matches in ``scope``, larger is better.

        ``whole_store``: the scope holds every row, so no join with ``memories``
        is needed to filter (the common single-user case, and the fast one).
        """
        terms = self.selective(retrieval.query_terms(query), total, need_some=need_some)
        match = retrieval.match_expression(terms)
        if match is None:
            return []
        w = ", ".join(str(x) for x in retrieval.COLUMN_WEIGHTS)
        wanted = limit
        if retrieval.SHARED_BM25:
            limit = max(limit, retrieval.LEXICAL_POOL)
        if whole_store:
            rows = self._conn.execute(
                f"SELECT rowid, -bm25(memories_fts, {w}) AS s FROM memories_fts"
                " WHERE memories_fts MATCH ? ORDER BY s DESC LIMIT ?",
                (match, limit),
            )
        else:
            # "+" keeps the planner from driving the query by the scope index.
            in_project = f" AND {project_sql('m.')}" if project is not None else ""
            rows = self._conn.execute(
                f"SELECT m.id, -bm25(memories_fts, {w}) AS s FROM memories_fts"
                " JOIN memories m ON m.id = memories_fts.rowid"
                f" WHERE memories_fts MATCH ? AND +m.user_id IS ? AND +m.agent_id IS ?{in_project}"
                " ORDER BY s DESC LIMIT ?",
                (match, scope[0], scope[1], *(project_params(project) if project is not None else ()), limit),
            )
        found = [(int(i), float(s)) for i, s in rows]
        if not retrieval.SHARED_BM25 or not found:
            return found
        ids = [i for i, _ in found]
        docs = {int(r[0]): r[1:] for r in self._conn.execute(
            f"SELECT rowid, body, context, dated FROM memories_fts WHERE rowid IN ({placeholders(ids)})", ids
        )}
        # As many as asked for, as the PostgreSQL store returns: fusion normalises each side
        # over its list, so a longer list here would rank the same data differently.
        return retrieval.bm25(terms, docs, self.df(terms, total, self._count), total)[:wanted]

    def _count(self, terms: list[str], cap: int) -> dict[str, int]:
        """How many memories hold each term, counted up to ``cap``."""
        return {t: int(self._conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
            (retrieval.quote_term(t), cap),
        ).fetchone()[0]) for t in terms}
