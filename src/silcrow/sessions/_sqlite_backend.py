"""Conversation sessions in SQLite: transcripts, branches, compaction, full-text search.

``<home>/sessions.db`` holds one row per session (with its parent for
branches and the cached system prompt) and one row per message. An FTS5
index over message content backs :meth:`SessionStore.search`, which the
``session_search`` tool and ``silcrow sessions search`` use; there is no LLM
in the loop.

Compaction never deletes: the summarised middle of a conversation is only
flagged ``compacted``, so it drops out of the transcript sent to the model
but stays searchable. Branches copy the active history into a new session
whose ``root_id`` is that of its parent, so search can count a lineage once.

The logic lives in :class:`~silcrow.sessions.SessionBackend`; this module
adds the SQLite connection, its migrations (:mod:`._schema`) and FTS5.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from silcrow import _sqlite
from silcrow.errors import SessionError
from silcrow.schema.sessions import SQLITE_MIGRATIONS
from silcrow.sessions._backend import Conn, SessionBackend
from silcrow.sessions._search import CANDIDATES_SQL, SNIPPET_SQL, fts_query

WHAT = "sessions database"


class SessionStore(SessionBackend):
    """Sessions and their messages in one SQLite file (WAL mode).

    One connection guarded by a lock: the agent may append from a background
    thread while the REPL reads. Other processes are serialised by SQLite
    itself (``BEGIN IMMEDIATE`` plus a busy timeout).
    """

    _p = "?"
    _candidates_sql = CANDIDATES_SQL
    _snippet_sql = SNIPPET_SQL

    def __init__(self, path: Path | str, *, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._conn = _sqlite.connect(
            self.path, SQLITE_MIGRATIONS, error=SessionError, what=WHAT, timeout=timeout
        )
        self._conn.row_factory = sqlite3.Row

    @contextmanager
    def _reading(self) -> Iterator[Conn]:
        """The connection, under the lock, with SQLite errors turned into SessionError."""
        with self._lock, _sqlite.translated(SessionError, self.path, WHAT):
            yield self._conn

    @contextmanager
    def _write(self) -> Iterator[Conn]:
        with self._reading(), _sqlite.transaction(self._conn) as conn:
            yield conn

    def _match(self, query: str) -> str:
        return fts_query(query)

    def _count_matches(self, conn: Conn, match: str, cap: int) -> int:
        return int(conn.execute(
            "SELECT COUNT(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)",
            (match, cap),
        ).fetchone()["n"])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SessionStore:
        return self
