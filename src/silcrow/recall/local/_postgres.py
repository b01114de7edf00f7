"""Recall memories in PostgreSQL: tsvector (GIN) for words, pgvector (HNSW) for meaning.

The same hybrid as the local provider's SQLite file: the lexical side ranks
the three indexed texts (body, preceding turns, the date in words) with the
weights of :data:`retrieval.COLUMN_WEIGHTS`, the dense side is cosine
similarity of the same stored vectors (:func:`retrieval.memory_vectors`), and
:func:`~silcrow.recall.local._backend.rank` fuses them exactly as locally.
Ingest (context windows, content-hash identity) is the shared
:class:`~silcrow.recall.local.RecallBackend` code.

Memories belong to one profile: each transaction names it (:func:`~silcrow.db.owned_by`),
every statement keeps to its rows and new rows take it as their ``profile``
column's default; the same conversation ingested by two profiles is stored
twice (identity is (profile, content hash)). The vectors' model is shared by
the whole database.

Vectors live in one ``vector`` column whatever their dimension; the HNSW
index is a partial expression index per dimension, created when an embedder
of that dimension first opens the database.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np

from silcrow import schema
from silcrow.db import Database, fold
from silcrow.errors import RecallError
from silcrow.models import Embedder
from silcrow.recall.local import _pg_sql as sql
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._backend import BATCH, RecallBackend, Writers, filter_sql, project_params, rank
from silcrow.recall.local._lexical import common_cutoff, without_common
from silcrow.recall.local._pg_sql import build_memory_mb, vector_copy  # noqa: F401 - the tests read them here
from silcrow.recall.local._records import KINDS, MemoryFilter, RecallHit, RecallRecord, Scope, from_epoch
from silcrow.schema.recall import MEMORIES, SENT_POSTGRES, WORD_INDEX, WORD_INDEX_NAME, WRITTEN_POSTGRES

log = logging.getLogger(__name__)

WHAT = "recall memories"
EF_SEARCH = 100  # HNSW candidates examined per query (pgvector's default is 40)
#: An ingest that adds at least this many memories, and at least a tenth of the table,
#: analyses the table before returning. Until autovacuum gets to it (a minute or more), the
#: planner believes the table is as small as it was and scans every row of the profile for
#: the nearest vectors instead of using the HNSW index: 50 ms instead of 8 at 10k memories.
ANALYZE_AFTER = 1000

#: An ingest of at least this many memories, and at least as many as the table holds, builds the
#: vector and word indexes afterwards instead of inserting into them row by row: HNSW insertion
#: was two thirds of the ingest time, and one build over all rows costs a fraction of it (a
#: third, for 240 rows into an empty table); the word index takes 0.04 s to build at 10k rows
#: and 0.1 s to keep up. Its batches also commit asynchronously (see ingest).
BULK_ROWS = 200
#: Rows per batch of a bulk import while the indexes are dropped (BATCH otherwise).
BULK_BATCH = 2048
#: Threads writing an ingest's batches (see _write): one sends a batch while another inserts.
WRITERS = 2


@dataclass
class _Bulk:
    """How one bulk import writes (see :meth:`PostgresRecall.ingest`): shared by the thread
    that ingests and the ones that write its batches. ``index`` is None while the vector and
    word indexes are kept, "pending" until the first write drops them and "dropped" until they
    are built again; ``unflushed`` says a batch committed without waiting for the disk."""

    index: str | None
    unflushed: bool = False


class PostgresRecall(RecallBackend):
    """The memories of ``profile`` (every scope) in the ``silcrow.recall_memories`` table."""

    def __init__(self, dsn: str, embedder: Embedder, profile: str = "default") -> None:
        self.embedder = embedder
        self.profile = profile
        self._dim = embedder.dim  # asked first: an embedder that cannot answer fails before any I/O
        self.db: Database = schema.database(dsn)
        self.where = self.db.where
        self._vec = f"vector({self._dim})"
        self._local = threading.local()  # the bulk import this thread writes for (see ingest)
        if self._dim > 0:
            self._prepare_vectors()

    def close(self) -> None:
        """The pool is shared by every backend of this process and closed when it exits."""

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        with self.db.transaction(RecallError, WHAT, owner=self.profile) as conn:
            yield conn

    # -- vectors -----------------------------------------------------------------------

    def _prepare_vectors(self) -> None:
        """The HNSW index for this dimension; re-embed after a model change; fill gaps."""
        ident = f"{self.embedder.name}/{self._dim}"
        with self._tx() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x5EC1,))
            self._create_vector_index(conn)
            row = conn.execute("SELECT value FROM recall_meta WHERE key = 'embedder' FOR UPDATE").fetchone()
            if row is None or row["value"] != ident:
                if row is not None:
                    log.warning(
                        "recall: %s holds %s vectors; re-embedding with %s", self.where, row["value"], ident
                    )
                    conn.execute("UPDATE recall_memories SET embedding = NULL")
                conn.execute(
                    "INSERT INTO recall_meta (key, value) VALUES ('embedder', %s)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (ident,),
                )
        last = 0
        while True:
            with self._tx() as conn:
                rows = conn.execute(
                    "SELECT id, text, speaker, context FROM recall_memories"
                    " WHERE id > %s AND embedding IS NULL ORDER BY id LIMIT %s",
                    (last, BATCH),
                ).fetchall()
            if not rows:
                return
            last = rows[-1]["id"]
            vecs = retrieval.memory_vectors(
                self.embedder,
                [retrieval.body_text(r["text"], r["speaker"]) for r in rows],
                [r["context"] for r in rows],
            )
            with self._tx() as conn:
                cur = conn.cursor()
                cur.executemany(
                    "UPDATE recall_memories SET embedding = %s WHERE id = %s AND embedding IS NULL",
                    [(v, r["id"]) for r, v in zip(rows, vecs, strict=True)],
                )

    # -- ingest steps (see RecallBackend.ingest) ------------------------------------------

    def ingest(
        self, records: Sequence[RecallRecord], scope: Scope, progress: Callable[[int], None] | None = None,
    ) -> tuple[int, list[int]]:
        """As :meth:`RecallBackend.ingest`; a bulk import (BULK_ROWS or more, into a table holding
        fewer) builds the vector and word indexes once afterwards instead of inserting into them
        row by row. They are dropped when the first new row is written (a re-import that adds
        nothing keeps them). Searches meanwhile still answer (by scanning the table); the
        indexes are back when the call returns, whether or not the ingest succeeded."""
        if len(records) < BULK_ROWS:
            return super().ingest(records, scope, progress)
        # Each batch of a bulk import commits without waiting for its WAL to reach the disk;
        # the last commit below does wait, and so makes every batch before it durable before
        # the call returns. A crash meanwhile loses at most the latest batches of an import
        # that never returned (ingesting the same records again stores what is missing).
        bulk = _Bulk(index="pending" if len(records) >= self._estimated_rows() else None)
        self._local.bulk = bulk
        try:
            return super().ingest(records, scope, progress)
        finally:
            self._local.bulk = None
            if bulk.index == "dropped" or bulk.unflushed:
                with self._tx() as conn:
                    # A synchronous commit that wrote something waits for the WAL up to it, so
                    # every batch before it is on disk when the import returns. The counter
                    # is rewritten unchanged for that: a commit that wrote nothing waits for none.
                    conn.execute("SET LOCAL synchronous_commit = on")
                    conn.execute(f"UPDATE recall_counts SET memories = memories WHERE {sql.MINE}")
                    if bulk.index == "dropped":
                        conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x5EC1,))
                        rows = int(conn.execute("SELECT coalesce(sum(memories), 0) AS n FROM recall_counts")
                                   .fetchone()["n"])
                        memory = sql.build_memory_mb(rows, self._dim)
                        conn.execute(f"SET LOCAL maintenance_work_mem = '{memory}MB'")
                        conn.execute(WORD_INDEX)
                        if self._dim > 0:
                            self._create_vector_index(conn)

    def _bulk(self) -> _Bulk | None:
        return getattr(self._local, "bulk", None)

    def _batch_rows(self) -> int:
        # Without the indexes to update, a batch is quick to write: larger ones spend fewer
        # round trips and commits per row.
        bulk = self._bulk()
        return BULK_BATCH if bulk is not None and bulk.index is not None else BATCH

    def _writer(self) -> Writers:
        # Batches are written by threads of their own: each sends its batch and indexes its
        # words while the batch is embedded, the next one prepared and the one before inserted
        # (see _write); the server works on two batches at once.
        bulk = self._bulk()
        return Writers(lambda: setattr(self._local, "bulk", bulk), WRITERS)

    def _estimated_rows(self) -> int:
        with self._tx() as conn:
            return int(conn.execute(sql.ESTIMATED_ROWS).fetchone()["n"])

    def _create_vector_index(self, conn: Any) -> None:
        conn.execute(
            f"CREATE INDEX IF NOT EXISTS recall_memories_hnsw_{self._dim} ON recall_memories"
            f" USING hnsw ((embedding::{self._vec}) vector_cosine_ops)"
            f" WHERE vector_dims(embedding) = {self._dim}"
        )

    def _guard(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()  # every statement runs in a translated transaction

    def _embeds(self) -> bool:
        return self._dim > 0

    def _recent_turns(self, session_id: str, scope: Scope, limit: int) -> list[tuple[str, str]]:
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT speaker, text FROM recall_memories WHERE session_id = %s AND kind = 'turn'"
                f" AND {sql.SCOPE} ORDER BY id DESC LIMIT %s",
                (session_id, *scope, limit),
            ).fetchall()
        return [(r["speaker"], r["text"]) for r in rows]

    def _recent_turns_of(
        self, keys: list[tuple[str, Scope]], limit: int
    ) -> dict[tuple[str, Scope], list[tuple[str, str]]]:
        if not keys:
            return {}
        # One statement for every session: one each was a transaction of five round trips, as
        # many as the batch holds sessions (most of a bulk import's statements).
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT k.n, r.speaker, r.text FROM unnest(%s::text[], %s::text[], %s::text[])"
                " WITH ORDINALITY AS k(session_id, user_id, agent_id, n) CROSS JOIN LATERAL"
                " (SELECT id, speaker, text FROM recall_memories WHERE session_id = k.session_id"
                f" AND kind = 'turn' AND {sql.MINE} AND user_id IS NOT DISTINCT FROM k.user_id"
                " AND agent_id IS NOT DISTINCT FROM k.agent_id ORDER BY id DESC LIMIT %s) AS r"
                " ORDER BY k.n, r.id DESC",
                ([k[0] for k in keys], [k[1][0] for k in keys], [k[1][1] for k in keys], limit),
            ).fetchall()
        found: dict[tuple[str, Scope], list[tuple[str, str]]] = {}
        for r in rows:
            found.setdefault(keys[int(r["n"]) - 1], []).append((r["speaker"], r["text"]))
        return found

    def _known(self, hashes: list[str]) -> dict[str, int]:
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT content_hash, id FROM recall_memories WHERE content_hash = ANY(%s) AND {sql.MINE}",
                (hashes,),
            ).fetchall()
        return {r["content_hash"]: int(r["id"]) for r in rows}

    def _ingested(self, added: int) -> None:
        if added < ANALYZE_AFTER:
            return
        try:
            with self._tx() as conn:
                rows = float(conn.execute(
                    "SELECT reltuples FROM pg_class WHERE oid = 'recall_memories'::regclass"
                ).fetchone()["reltuples"])
                if rows < 0 or added * 10 >= rows:  # -1: never analysed
                    # Only the table's owner may; for anyone else the server skips it with a warning.
                    conn.execute(f"ANALYZE recall_memories ({sql.PLANNED})")
        except RecallError as exc:  # the memories are stored: slower searches are no reason to fail
            log.warning("could not refresh the statistics of the recall memories: %s", exc)

    def _write(
        self, fresh: list[dict[str, Any]], vectors: Callable[[], np.ndarray | None],
        turn: AbstractContextManager[None],
    ) -> int:
        if not fresh:
            return 0
        rows = [
            (n, rec.kind, rec.text, rec.session_id, rec.speaker, p["ts"], p["scope"][0], p["scope"][1],
             rec.external_id, p["context"], json.dumps(rec.metadata, ensure_ascii=False, default=str),
             p["hash"], p["created"], retrieval.body_text(rec.text, rec.speaker),
             retrieval.dated_text(p["ts"], rec.text))
            for n, p in enumerate(fresh)
            if (rec := p["rec"]) is not None
        ]
        bulk = self._bulk()
        if bulk is not None and bulk.index == "pending":
            with self._tx() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x5EC1,))
                conn.execute(f"DROP INDEX IF EXISTS recall_memories_hnsw_{self._dim}, {WORD_INDEX_NAME}")
            bulk.index = "dropped"
        ids: dict[str, int] = {}
        sent = MEMORIES.names(SENT_POSTGRES)
        with self._tx() as conn:
            if bulk is not None:
                conn.execute("SET LOCAL synchronous_commit = off")
                bulk.unflushed = True
            # The rows go first, by COPY into a table of this transaction (one binary stream,
            # not one statement each), and their words are indexed there, all while the
            # vectors are still being made; then the vectors, and one INSERT of all of it, in
            # the batch's order (ids follow the records: the ranking reads neighbours by id).
            # The words go to a table of their own: set in the rows' table, they would rewrite
            # every row, and compress its texts once it passed 2 KB.
            conn.execute(f"CREATE TEMP TABLE recall_incoming WITH (toast_tuple_target = 8160) ON COMMIT DROP"
                         f" AS SELECT 0 AS n, {sent} FROM recall_memories WITH NO DATA")
            cur = conn.cursor()
            with cur.copy(f"COPY recall_incoming (n, {sent}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(sql.SENT_TYPES)
                for row in rows:
                    copy.write_row(row)
            conn.execute("CREATE TEMP TABLE recall_words ON COMMIT DROP AS SELECT n,"
                         " silcrow.recall_search(body, context, dated) AS search FROM recall_incoming")
            made = vectors()
            if made is not None:
                conn.execute("CREATE TEMP TABLE recall_vectors (n integer, embedding vector) ON COMMIT DROP")
                with cur.copy("COPY recall_vectors (n, embedding) FROM STDIN (FORMAT BINARY)") as copy:
                    copy.write(sql.vector_copy(made))
            joined = " LEFT JOIN recall_vectors AS v USING (n)" if made is not None else ""
            with turn:
                found = conn.execute(
                    f"INSERT INTO recall_memories ({MEMORIES.names(WRITTEN_POSTGRES)})"
                    f" SELECT {MEMORIES.names(SENT_POSTGRES, alias='i')}, w.search,"
                    f" {'v.embedding' if made is not None else 'NULL'} FROM recall_incoming AS i"
                    f" JOIN recall_words AS w USING (n){joined}"
                    " ORDER BY i.n ON CONFLICT (profile, content_hash) DO NOTHING RETURNING id, content_hash"
                ).fetchall()
            ids.update({r["content_hash"]: int(r["id"]) for r in found})
            stored = len(ids)
            raced = [p["hash"] for p in fresh if p["hash"] not in ids]  # another writer stored them
            if raced:
                found = conn.execute(
                    "SELECT content_hash, id FROM recall_memories"
                    f" WHERE content_hash = ANY(%s) AND {sql.MINE}",
                    (raced,),
                ).fetchall()
                ids.update({r["content_hash"]: int(r["id"]) for r in found})
        for p in fresh:
            p["id"] = ids[p["hash"]]
        return stored

    # -- the rest of the interface ------------------------------------------------------

    def delete(self, ids: Sequence[int]) -> int:
        if not ids:
            return 0
        with self._tx() as conn:
            gone = conn.execute(
                f"DELETE FROM recall_memories WHERE id = ANY(%s) AND {sql.MINE} RETURNING id", (list(ids),)
            ).fetchall()
        return len(gone)

    def find_ids(self, which: MemoryFilter, scope: Scope) -> list[int]:
        fold = f"'{sql.UPPER}', '{sql.LOWER}'"  # ASCII case folding, as SQLite's lower() does
        where, params = filter_sql(
            which, scope, scope_sql=sql.SCOPE, mark="%s",
            contains_sql=f"strpos(translate(text, {fold}), translate(%s, {fold})) > 0",
        )

        def once() -> list[int]:
            with self._tx() as conn:
                rows = conn.execute(
                    f"SELECT id FROM recall_memories WHERE {where} ORDER BY id", params
                ).fetchall()
            return [int(r["id"]) for r in rows]

        return self.db.retrying(once)

    def projects_of(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        column = "(metadata::jsonb ->> 'project')"

        def once() -> dict[int, str]:
            with self.db.reading(RecallError, WHAT) as conn:
                rows = conn.execute(f"SELECT id, {column} AS project FROM recall_memories WHERE id = ANY(%s)"
                                    f" AND {sql.OWN} AND {column} IS NOT NULL", (list(ids), self.profile))
                return {int(r["id"]): str(r["project"]) for r in rows}

        return self.db.retrying(once)

    def search(
        self, query: str, k: int, scope: Scope, *, mode: str = "hybrid", min_similarity: float | None = None,
        fusion: str = "score", project: str | None = None,
    ) -> list[RecallHit]:
        if fusion not in retrieval.FUSIONS:
            raise RecallError(f"unknown fusion {fusion!r}; use {' or '.join(retrieval.FUSIONS)}")
        if k <= 0 or not query.strip():
            return []
        embeds = self._dim > 0 and mode != "lexical"
        # The query's vector is made while its words are looked up and scored: the model
        # (ONNX Runtime) and the server both work without holding the interpreter.
        vector: Future[np.ndarray] | None = None
        if embeds:
            vector = _workers().submit(self.embedder.embed_query, query)
        pool = max(k, retrieval.POOL)

        def once() -> list[RecallHit]:
            # Outside a transaction: a search only reads, each statement names the profile, and
            # a BEGIN and a COMMIT would be two more round trips.
            with self.db.reading(RecallError, WHAT) as conn:
                terms = retrieval.query_terms(fold(query)) if mode != "dense" else []
                with conn.pipeline():  # one round trip for the settings and the term counts
                    if embeds:  # HNSW candidates examined; scoped searches still fill k (every
                        # search of this connection sets them: only searches read the index)
                        conn.execute("SELECT set_config('hnsw.ef_search', %s, false),"
                                     " set_config('hnsw.iterative_scan', 'relaxed_order', false)",
                                     (str(max(EF_SEARCH, pool)),), prepare=True)
                    counts = self._term_counts(conn, terms) if terms else None
                lexical = []
                if mode != "dense":
                    lexical = self._lexical(conn, terms, counts, pool, scope, need_some=not embeds,
                                            project=project)
                dense: dict[int, float] = {}
                known: dict[int, tuple[str, str]] | None = None
                if vector is not None:
                    dense, known = self._dense(conn, vector.result(), pool, scope, [i for i, _ in lexical],
                                               project=project, neighbours=mode == "hybrid")

                def about(ids: list[int]) -> dict[int, tuple[str, str]]:
                    if known is not None:  # the dense statement brought every candidate's neighbours
                        return {i: known[i] for i in ids if i in known}
                    rows = conn.execute(
                        f"SELECT id, speaker, {sql.SESSION} AS session FROM recall_memories"
                        f" WHERE id = ANY(%s) AND {sql.OWN}", (ids, self.profile), prepare=True,
                    )
                    return {int(r["id"]): (r["speaker"], r["session"]) for r in rows}

                ranked = rank(
                    query, mode, lexical, dense, about, fusion=fusion,
                    min_similarity=min_similarity if embeds else None,
                )
                if project is not None:  # a neighbour lifted into the list may lie outside the project
                    inside = self._in_project(conn, [i for i, _ in ranked], project, self.profile)
                    ranked = [(i, s) for i, s in ranked if i in inside]
                return self._hits(conn, ranked[:k])

        return self.db.retrying(once)

    def _term_counts(self, conn: Any, terms: list[str]) -> Any:
        """:data:`sql.TERM_COUNTS` for ``terms``, sent (in a pipeline, read later by :func:`sql.counted`)."""
        return conn.execute(sql.TERM_COUNTS, {"profile": self.profile, "floor": retrieval.DF_FLOOR,
                                           "fraction": retrieval.DF_FRACTION, "terms": terms}, prepare=True)

    @staticmethod
    def _in_project(conn: Any, ids: list[int], project: str, profile: str) -> set[int]:
        rows = conn.execute(
            f"SELECT id FROM recall_memories WHERE id = ANY(%s) AND {sql.OWN} AND {sql.PROJECT}",
            (ids, profile, *project_params(project)),
        )
        return {int(r["id"]) for r in rows}

    def _lexical(
        self, conn: Any, terms: list[str], counted: Any, pool: int, scope: Scope, *, need_some: bool,
        project: str | None = None,
    ) -> list[tuple[int, float]]:
        if not terms:
            return []
        held, df = sql.counted(counted)
        # Terms too common to be worth scoring are left out (as the SQLite store does): ranking
        # every memory that holds them was most of the time of a search at 100k memories.
        cutoff = common_cutoff(held)
        terms = without_common(terms, {t for t in terms if df[t] > cutoff}, need_some=need_some)
        match = sql.tsquery(terms)
        if match is None:
            return []
        where, params = sql.scoped(scope, self.profile)
        in_project = f" AND {sql.PROJECT}" if project is not None else ""
        # The best matches by ts_rank first, then the texts of those alone: carrying every
        # match's texts through the sort cost as much as the ranking. Those are fetched by
        # their ids (an array, not a join: joined, a small table was read whole for them).
        # Prepared, as the other statements of a search are: planned once per connection.
        rows = conn.execute(
            "SELECT id, body, context, dated FROM recall_memories WHERE id = ANY(ARRAY("
            f"SELECT id FROM recall_memories, to_tsquery('english', %s) AS q WHERE search @@ q"
            f" AND {where}{in_project} ORDER BY ts_rank(%s, search, q) DESC, id LIMIT %s))",
            (match, *params, *(project_params(project) if project is not None else ()), sql.WEIGHTS,
             max(pool, retrieval.LEXICAL_POOL)), prepare=True,
        ).fetchall()
        if not rows:
            return []
        # ts_rank knows no idf: a name said in every turn counts as much as a rare word. The
        # candidates are rescored with BM25 (retrieval.bm25), each term's count capped as the
        # SQLite store counts it.
        docs = {int(r["id"]): (r["body"], r["context"] or "", r["dated"] or "") for r in rows}
        capped = {t: min(df[t], cutoff + 1) for t in terms}
        return retrieval.bm25(terms, docs, capped, max(held, 1))[:pool]

    def _dense(
        self, conn: Any, qvec: np.ndarray, pool: int, scope: Scope, lexical_ids: list[int],
        project: str | None = None, *, neighbours: bool = True,
    ) -> tuple[dict[int, float], dict[int, tuple[str, str]]]:
        """The cosine of the nearest memories and of the lexical candidates (so fusion sees both
        sides of each); and the speaker and session of all of them and (``neighbours``) of the
        memories just before and after each, which the ranking asks for (:func:`rank`'s
        ``about``). One statement: each round trip waits for the server to be scheduled on
        busy cores."""
        vec = f"embedding::{self._vec}"
        where, params = sql.scoped(scope, self.profile)
        in_project = f" AND {sql.PROJECT}" if project is not None else ""
        rows = conn.execute(
            f"WITH cand AS ((SELECT id, 1 - ({vec} <=> %s::{self._vec}) AS cos FROM recall_memories"
            f" WHERE vector_dims(embedding) = {self._dim} AND {where}{in_project}"
            f" ORDER BY {vec} <=> %s::{self._vec} LIMIT %s)"
            f" UNION SELECT id, 1 - ({vec} <=> %s::{self._vec}) FROM recall_memories"
            f" WHERE id = ANY(%s) AND vector_dims(embedding) = {self._dim} AND {sql.OWN})"
            f" SELECT m.id, c.cos, m.speaker, {sql.SESSION} AS session FROM recall_memories m"
            " LEFT JOIN cand c ON c.id = m.id WHERE m.id = ANY(ARRAY(SELECT u.id + d"
            " FROM (SELECT id FROM cand UNION SELECT unnest(%s::bigint[])) AS u(id),"
            " unnest(%s::int[]) AS d))"
            f" AND m.{sql.OWN}",
            (qvec, *params, *(project_params(project) if project is not None else ()), qvec, pool,
             qvec, lexical_ids, self.profile, lexical_ids, [-1, 0, 1] if neighbours else [0], self.profile),
            prepare=True,
        ).fetchall()
        dense = {int(r["id"]): float(r["cos"]) for r in rows if r["cos"] is not None}
        return dense, {int(r["id"]): (r["speaker"], r["session"]) for r in rows}

    def _hits(self, conn: Any, ranked: Sequence[tuple[int, float]]) -> list[RecallHit]:
        if not ranked:
            return []
        rows = {
            int(r["id"]): r
            for r in conn.execute(
                "SELECT id, text, kind, session_id, speaker, ts, external_id FROM recall_memories"
                f" WHERE id = ANY(%s) AND {sql.OWN}",
                ([i for i, _ in ranked], self.profile), prepare=True,
            )
        }
        return [
            RecallHit(id=i, text=r["text"], score=s, kind=r["kind"], session_id=r["session_id"],
                      speaker=r["speaker"], timestamp=from_epoch(r["ts"]), external_id=r["external_id"])
            for i, s in ranked
            if (r := rows.get(i)) is not None
        ]

    def stats(self, scope: Scope) -> dict[str, Any]:
        def once() -> dict[str, Any]:
            with self._tx() as conn:
                kinds = {
                    r["kind"]: int(r["n"])
                    for r in conn.execute(
                        f"SELECT kind, count(*) AS n FROM recall_memories WHERE {sql.SCOPE} GROUP BY kind",
                        scope,
                    )
                }
                mine = conn.execute(
                    f"SELECT count(DISTINCT session_id) AS sessions, min(ts) AS first, max(ts) AS last"
                    f" FROM recall_memories WHERE {sql.SCOPE}",
                    scope,
                ).fetchone()
                every = conn.execute(
                    "SELECT count(*) AS total, count(embedding) AS embedded,"
                    " pg_total_relation_size('recall_memories') AS bytes"
                    f" FROM recall_memories WHERE {sql.MINE}"
                ).fetchone()
                version = conn.execute("SELECT max(version) AS v FROM schema_migrations").fetchone()
                stored = conn.execute("SELECT value FROM recall_meta WHERE key = 'embedder'").fetchone()
            # Opened without a model (e.g. for counting), report the one the stored vectors belong to.
            name, dim = self.embedder.name, self._dim
            if dim == 0 and stored is not None:
                name, _, size = str(stored["value"]).rpartition("/")
                dim = int(size) if size.isdigit() else 0
            return {
                "memories": sum(kinds.values()),
                "by_kind": {kind: kinds.get(kind, 0) for kind in KINDS},
                "sessions": int(mine["sessions"]),
                "first": _iso(mine["first"]),
                "last": _iso(mine["last"]),
                "all_scopes_memories": int(every["total"]),
                "embedded": int(every["embedded"]),
                "embedder": name,
                "dim": dim,
                "schema_version": int(version["v"] or 0),
                "db_path": self.where,
                "db_bytes": int(every["bytes"]),
            }

        return self.db.retrying(once)


def _iso(ts: float | None) -> str | None:
    when = from_epoch(ts)
    return when.isoformat() if when is not None else None


_WORKERS: dict[int, ThreadPoolExecutor] = {}
_WORKERS_LOCK = threading.Lock()


def _workers() -> ThreadPoolExecutor:
    """This process's threads for query vectors (a forked child starts its own: the parent's
    threads do not follow it)."""
    with _WORKERS_LOCK:
        pool = _WORKERS.get(os.getpid())
        if pool is None:
            pool = _WORKERS[os.getpid()] = ThreadPoolExecutor(4, thread_name_prefix="silcrow-query")
        return pool
