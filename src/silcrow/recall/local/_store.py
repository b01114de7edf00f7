"""RecallStore: memories in SQLite, their vectors in memory, hybrid search over both.

SQLite is the source of truth (text, FTS5 index and float32 vectors); the
:class:`VectorIndex` is rebuilt from it on open. Other processes may write
the same file: before every search the store looks at ``PRAGMA
data_version`` (which changes only when *another* connection commits) and,
if it moved, loads the rows it has not seen and drops the ones deleted.

One connection and one re-entrant lock per store make it safe to share
between threads (the manager's background worker calls ``sync_turn`` while
the agent thread searches).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from silcrow import _sqlite
from silcrow.errors import RecallError
from silcrow.models import Embedder
from silcrow.recall.local import _db as db
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._backend import BATCH, RecallBackend, filter_sql, project_params, rank
from silcrow.recall.local._lexical import LexicalSearch, project_sql
from silcrow.recall.local._records import (
    KINDS,
    MemoryFilter,
    RecallHit,
    Scope,
    from_epoch,
)
from silcrow.recall.local._vectors import VectorIndex
from silcrow.schema.recall import MEMORIES, WRITTEN

log = logging.getLogger(__name__)



class RecallStore(RecallBackend):
    """The SQLite implementation of :class:`RecallBackend` (``<home>/recall.db``)."""

    def __init__(self, path: Path, embedder: Embedder, *, timeout: float = 30.0) -> None:
        self.path = path
        self.embedder = embedder
        # Asked first: an embedder that cannot answer (e.g. an unreachable endpoint probing its
        # dimension) fails before an empty database file is created.
        dim = embedder.dim
        self._lock = threading.RLock()
        self._conn = db.connect(path, timeout=timeout)
        self.lexical = LexicalSearch(self._conn)
        self._index = VectorIndex(dim) if dim > 0 else None
        self._scopes: dict[int, Scope] = {}  # every live id -> its scope
        self._by_scope: dict[Scope, set[int]] = {}
        self._allowed_cache: dict[Scope, np.ndarray] = {}
        self._floor = 0  # every id <= floor has been looked at
        self._data_version: int | None = None
        try:
            with self._guard():
                self._prepare_vectors()
                self._refresh(force=True)
        except BaseException:
            self._conn.close()
            raise

    # -- lifecycle -----------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        return _sqlite.transaction(self._conn)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """The store's lock, with every SQLite error (e.g. "database is locked") a RecallError."""
        with self._lock, _sqlite.translated(RecallError, self.path, db.WHAT):
            yield

    def _prepare_vectors(self) -> None:
        """Make stored vectors match the embedder: re-embed after a model change, fill gaps."""
        if self._index is None:
            return  # lexical only: leave any stored vectors alone for a later dense run
        ident = f"{self.embedder.name}/{self.embedder.dim}"
        stored = db.get_meta(self._conn, "embedder")
        if stored != ident:
            with self._tx() as conn:
                if stored is not None:
                    # Vectors of another model live in another space: useless for this one's queries.
                    log.warning("recall: %s holds %s vectors; re-embedding with %s", self.path, stored, ident)
                    conn.execute("DELETE FROM embeddings")
                db.set_meta(conn, "embedder", ident)
        last = 0
        while True:
            rows = self._conn.execute(
                "SELECT m.id, m.text, m.speaker, m.context FROM memories m"
                " LEFT JOIN embeddings e ON e.memory_id = m.id WHERE m.id > ? AND e.memory_id IS NULL"
                " ORDER BY m.id LIMIT ?",
                (last, BATCH),
            ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            log.info("recall: embedding %d stored memories that have no vector yet", len(rows))
            vecs = retrieval.memory_vectors(
                self.embedder, [retrieval.body_text(t, s) for _, t, s, _ in rows], [r[3] for r in rows]
            )
            with self._tx() as conn:
                conn.executemany(
                    "INSERT OR REPLACE INTO embeddings (memory_id, vector) VALUES (?, ?)",
                    [(r[0], v.astype("<f4").tobytes()) for r, v in zip(rows, vecs, strict=True)],
                )

    # -- in-memory view of the table -----------------------------------------------------

    def _track(self, ids: Sequence[int], scopes: Sequence[Scope], vectors: np.ndarray | None) -> None:
        for i, scope in zip(ids, scopes, strict=True):
            self._scopes[i] = scope
            self._by_scope.setdefault(scope, set()).add(i)
            self._allowed_cache.pop(scope, None)
        if self._index is not None and vectors is not None and len(ids):
            self._index.add(np.asarray(ids, dtype=np.int64), vectors)

    def _untrack(self, ids: Sequence[int]) -> None:
        for i in ids:
            scope = self._scopes.pop(i, None)
            if scope is not None:
                self._by_scope.get(scope, set()).discard(i)
                self._allowed_cache.pop(scope, None)
        if self._index is not None and ids:
            self._index.remove(ids)

    def _refresh(self, *, force: bool = False) -> None:
        """Catch up with commits made by other connections (processes)."""
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if not force and version == self._data_version:
            return
        self._data_version = version
        rows = self._conn.execute(
            "SELECT m.id, m.user_id, m.agent_id, e.vector FROM memories m"
            " LEFT JOIN embeddings e ON e.memory_id = m.id WHERE m.id > ? ORDER BY m.id",
            (self._floor,),
        ).fetchall()
        new = [r for r in rows if r[0] not in self._scopes]
        with_vec = [r for r in new if r[3] is not None and self._index is not None]
        without = [r for r in new if r[3] is None or self._index is None]
        if with_vec:
            assert self._index is not None
            mat = np.vstack([np.frombuffer(r[3], dtype="<f4") for r in with_vec])
            if mat.shape[1] != self._index.dim:
                raise RecallError(
                    f"{self.path} holds vectors of dimension {mat.shape[1]} but the embedder "
                    f"{self.embedder.name} makes {self._index.dim}; reopen with the same embedder"
                )
            self._track([r[0] for r in with_vec], [(r[1], r[2]) for r in with_vec], mat)
        self._track([r[0] for r in without], [(r[1], r[2]) for r in without], None)
        if rows:
            self._floor = max(self._floor, rows[-1][0])
        live = int(self._conn.execute("SELECT count(*) FROM memories").fetchone()[0])
        if live != len(self._scopes):  # someone deleted rows: find which
            present = {r[0] for r in self._conn.execute("SELECT id FROM memories")}
            self._untrack([i for i in self._scopes if i not in present])

    def _allowed(self, scope: Scope) -> np.ndarray | None:
        """Ids a search in ``scope`` may return; None when that is every row."""
        mine = self._by_scope.get(scope, set())
        if len(mine) == len(self._scopes):
            return None
        cached = self._allowed_cache.get(scope)
        if cached is None:
            cached = np.fromiter(mine, dtype=np.int64, count=len(mine))
            self._allowed_cache[scope] = cached
        return cached

    # -- writing -------------------------------------------------------------------------

    def _embeds(self) -> bool:
        return self._index is not None

    def _recent_turns(self, session_id: str, scope: Scope, limit: int) -> list[tuple[str, str]]:
        rows = self._conn.execute(
            # "+" keeps the planner on the (session_id, id) index: the scope index would
            # scan every row of a single-tenant store.
            "SELECT speaker, text FROM memories WHERE session_id = ? AND kind = 'turn'"
            " AND +user_id IS ? AND +agent_id IS ? ORDER BY id DESC LIMIT ?",
            (session_id, scope[0], scope[1], limit),
        ).fetchall()
        return [(str(sp), str(t)) for sp, t in rows]

    def _known(self, hashes: list[str]) -> dict[str, int]:
        return {h: int(i) for h, i in self._conn.execute(
            f"SELECT content_hash, id FROM memories WHERE content_hash IN ({db.placeholders(hashes)})",
            hashes,
        )}

    def _write(
        self, fresh: list[dict[str, Any]], made: Callable[[], np.ndarray | None],
        turn: AbstractContextManager[None],
    ) -> int:
        """Insert the new rows in one transaction; returns how many were really new."""
        vectors = made()  # already made: this store writes from the ingesting thread
        stored: list[int] = []
        with turn, self._tx() as conn:
            for n, p in enumerate(fresh):
                rec = p["rec"]
                cur = conn.execute(
                    f"INSERT INTO memories ({MEMORIES.names(WRITTEN)}) VALUES ({db.placeholders(WRITTEN)})"
                    " ON CONFLICT (content_hash) DO NOTHING",
                    (rec.kind, rec.text, rec.session_id, rec.speaker, p["ts"], p["scope"][0], p["scope"][1],
                     rec.external_id, p["context"], json.dumps(rec.metadata, ensure_ascii=False, default=str),
                     p["hash"], p["created"]),
                )
                if cur.rowcount == 0:  # another thread or process stored it since _prepare
                    row = conn.execute("SELECT id FROM memories WHERE content_hash = ?", (p["hash"],))
                    p["id"] = int(row.fetchone()[0])
                    continue
                p["id"] = int(cur.lastrowid or 0)
                stored.append(n)
                conn.execute(
                    "INSERT INTO memories_fts (rowid, body, context, dated) VALUES (?, ?, ?, ?)",
                    (p["id"], retrieval.body_text(rec.text, rec.speaker), p["context"],
                     retrieval.dated_text(p["ts"], rec.text)),
                )
                if vectors is not None:
                    conn.execute(
                        "INSERT INTO embeddings (memory_id, vector) VALUES (?, ?)",
                        (p["id"], vectors[n].astype("<f4").tobytes()),
                    )
        self._track(
            [fresh[n]["id"] for n in stored],
            [fresh[n]["scope"] for n in stored],
            vectors[stored] if vectors is not None else None,
        )
        return len(stored)

    def delete(self, ids: Sequence[int]) -> int:
        if not ids:
            return 0
        with self._guard(), self._tx() as conn:
            marks = db.placeholders(ids)
            gone = [r[0] for r in conn.execute(f"SELECT id FROM memories WHERE id IN ({marks})", list(ids))]
            if gone:
                marks = db.placeholders(gone)
                conn.execute(f"DELETE FROM memories_fts WHERE rowid IN ({marks})", gone)
                conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", gone)  # embeddings cascade
            self._untrack(gone)
            return len(gone)

    def find_ids(self, which: MemoryFilter, scope: Scope) -> list[int]:
        """Ids in ``scope`` of the memories ``which`` picks, oldest first."""
        # SQLite's lower() folds ASCII only, which is what "ignoring ASCII case" promises.
        where, params = filter_sql(
            which, scope, scope_sql="user_id IS ? AND agent_id IS ?", mark="?",
            contains_sql="instr(lower(text), lower(?)) > 0",
        )
        with self._guard():
            sql = f"SELECT id FROM memories WHERE {where} ORDER BY id"
            rows = self._conn.execute(sql, params)
            return [int(r[0]) for r in rows]

    def projects_of(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        column = "json_extract(metadata, '$.project')"
        with self._guard():
            rows = self._conn.execute(f"SELECT id, {column} FROM memories WHERE id IN"
                                      f" ({db.placeholders(ids)}) AND {column} IS NOT NULL", list(ids))
            return {int(i): str(project) for i, project in rows}

    # -- reading -------------------------------------------------------------------------

    def search(
        self, query: str, k: int, scope: Scope, *, mode: str = "hybrid", min_similarity: float | None = None,
        fusion: str = "score", project: str | None = None,
    ) -> list[RecallHit]:
        """Best ``k`` memories for ``query`` in ``scope``; mode is hybrid, lexical or dense.

        ``fusion`` names how hybrid search combines its two sides (see
        ``retrieval.FUSIONS``; the benchmark compares them).

        With ``min_similarity``, a candidate that shares no word with the query and
        whose cosine to it is below that value is left out: the fused scores are
        relative to the pool, so without this gate the "best" hits of a query about
        something never discussed are still returned. (No effect without vectors.)
        """
        if fusion not in retrieval.FUSIONS:
            raise RecallError(f"unknown fusion {fusion!r}; use {' or '.join(retrieval.FUSIONS)}")
        if k <= 0 or not query.strip():
            return []
        qvec = None
        if self._index is not None and mode != "lexical":
            qvec = self.embedder.embed_query(query)  # outside the lock: the slow part
        with self._guard():
            self._refresh()
            only = self._in_project(project, scope) if project is not None else None
            if only is not None and not len(only):
                return []
            lexical: list[tuple[int, float]] = []
            if mode != "dense":
                lexical = self.lexical.search(
                    query, max(k, retrieval.POOL), scope, total=len(self._scopes),
                    whole_store=self._allowed(scope) is None and only is None, need_some=qvec is None,
                    project=project,
                )
            dense: dict[int, float] = {}
            if qvec is not None and self._index is not None:
                allowed = self._allowed(scope) if only is None else only
                dense = dict(self._index.search(qvec, max(k, retrieval.POOL), allowed))
                missing = [i for i, _ in lexical if i not in dense and i in self._index]
                if missing:  # score the lexical candidates too, so fusion sees both sides
                    dense.update(self._index.search(qvec, len(missing), np.asarray(missing, dtype=np.int64)))
            ranked = rank(
                query, mode, lexical, dense, self._about, fusion=fusion,
                min_similarity=min_similarity if qvec is not None else None,
            )
            if only is not None:  # a neighbour lifted into the list may lie outside the project
                inside = set(only.tolist())
                ranked = [(i, s) for i, s in ranked if i in inside]
            return self._hits(ranked[:k])

    def _in_project(self, project: str, scope: Scope) -> np.ndarray:
        """Ids in ``scope`` of the memories of ``project`` (its directory or one below it)."""
        rows = self._conn.execute(
            "SELECT id FROM memories WHERE user_id IS ? AND agent_id IS ? AND"
            f" {project_sql()}", (*scope, *project_params(project)),
        )
        return np.fromiter((int(r[0]) for r in rows), dtype=np.int64)

    def _about(self, ids: list[int]) -> dict[int, tuple[str, str]]:
        """Speaker and session (empty unless a turn) of each of these memories that exists."""
        rows = self._conn.execute(
            "SELECT id, speaker, CASE WHEN kind = 'turn' THEN coalesce(session_id, '') ELSE '' END"
            f" FROM memories WHERE id IN ({db.placeholders(ids)})", ids
        )
        return {int(i): (who, session) for i, who, session in rows}

    def _hits(self, ranked: Sequence[tuple[int, float]]) -> list[RecallHit]:
        if not ranked:
            return []
        ids = [i for i, _ in ranked]
        rows = {
            r[0]: r
            for r in self._conn.execute(
                "SELECT id, text, kind, session_id, speaker, ts, external_id FROM memories"
                f" WHERE id IN ({db.placeholders(ids)})",
                ids,
            )
        }
        return [
            RecallHit(id=i, text=r[1], score=s, kind=r[2], session_id=r[3], speaker=r[4],
                      timestamp=from_epoch(r[5]), external_id=r[6])
            for i, s in ranked
            if (r := rows.get(i)) is not None
        ]

    def stats(self, scope: Scope) -> dict[str, Any]:
        with self._guard():
            self._refresh()
            kinds = dict(self._conn.execute(
                "SELECT kind, count(*) FROM memories WHERE user_id IS ? AND agent_id IS ? GROUP BY kind",
                scope,
            ).fetchall())
            sessions = self._conn.execute(
                "SELECT count(DISTINCT session_id) FROM memories WHERE user_id IS ? AND agent_id IS ?", scope
            ).fetchone()[0]
            total = self._conn.execute("SELECT count(*) FROM memories").fetchone()[0]
            embedded = self._conn.execute("SELECT count(*) FROM embeddings").fetchone()[0]
            first, last = self._conn.execute(
                "SELECT min(ts), max(ts) FROM memories WHERE user_id IS ? AND agent_id IS ?", scope
            ).fetchone()
            migrations = db.applied_migrations(self._conn)
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())
        return {
            "memories": sum(kinds.values()),
            "by_kind": {kind: int(kinds.get(kind, 0)) for kind in KINDS},
            "sessions": int(sessions),
            "first": _iso(first),
            "last": _iso(last),
            "all_scopes_memories": int(total),
            "embedded": int(embedded),
            "embedder": self.embedder.name,
            "dim": self.embedder.dim,
            # Rows of the in-memory vector index; absent when this store was opened without
            # an embedder (then "embedded" still counts the stored vectors).
            **({"index_rows": len(self._index)} if self._index is not None else {}),
            "schema_version": migrations[-1][0] if migrations else 0,
            "db_path": str(self.path),
            "db_bytes": size,
        }


def _iso(ts: float | None) -> str | None:
    when = from_epoch(ts)
    return when.isoformat() if when is not None else None
