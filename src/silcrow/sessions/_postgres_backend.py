"""Sessions in PostgreSQL: the same transcripts, branches, compaction and lineage-aware search.

All the logic is :class:`~silcrow.sessions.SessionBackend`'s, composed with
psycopg's ``%s`` marker; this module supplies the connection, a tsvector
(GIN) candidate step in place of FTS5, and ``ts_headline`` snippets.
A write locks the session's row (``FOR UPDATE``), so two hosts appending to
one session get distinct, ordered sequence numbers.

Sessions belong to one profile: each transaction names it (:func:`owned_by`),
every statement keeps to its rows (:meth:`PostgresSessions._mine`) and new
rows take it as their ``profile`` column's default.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from silcrow import schema
from silcrow.db import PROFILE_SETTING, Database, fold, owned_by
from silcrow.errors import SessionError
from silcrow.sessions._backend import Conn, SessionBackend
from silcrow.sessions._search import query_chunks

WHAT = "sessions"
_MINE = f"{{table}}.profile = current_setting('{PROFILE_SETTING}')"
_WORD = re.compile(r"\w+")


class _Connection:
    """A psycopg connection with the DB-API surface the shared logic uses (``executemany``
    on the connection, as sqlite3 has it) and whether it is inside a write."""

    def __init__(self, conn: Any, *, writing: bool) -> None:
        self._conn = conn
        self.writing = writing

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self._conn.execute(sql, params)

    def executemany(self, sql: str, params: Any) -> Any:
        cur = self._conn.cursor()
        cur.executemany(sql, params)
        return cur


class PostgresSessions(SessionBackend):
    """Sessions and messages in ``silcrow.sessions`` / ``silcrow.messages``."""

    _p = "%s"
    _candidates_sql = (
        "SELECT m0.id AS message_id, -ts_rank(m0.search, q.q) AS score"
        " FROM messages m0, to_tsquery('simple', %s) AS q(q)"
        f" WHERE m0.search @@ q.q AND {_MINE.format(table='m0')} ORDER BY score, m0.id LIMIT %s"
    )
    _snippet_sql = (
        "SELECT ts_headline('simple', content, to_tsquery('simple', %s),"
        " 'StartSel=**, StopSel=**, MaxWords=16, MinWords=6, MaxFragments=1, FragmentDelimiter=…')"
        f" AS snippet FROM messages WHERE id = %s AND {_MINE.format(table='messages')}"
    )

    def __init__(self, dsn: str, profile: str = "default") -> None:
        self.db: Database = schema.database(dsn)
        self.profile = profile
        self.where = self.db.where
        self.db.retrying(lambda: self._read("SELECT 1 AS ok"))  # a bad DSN or old schema fails here

    @contextmanager
    def _reading(self) -> Iterator[Conn]:
        with self.db.transaction(SessionError, WHAT) as conn:
            owned_by(conn, self.profile)
            yield _Connection(conn, writing=False)

    @contextmanager
    def _write(self) -> Iterator[Conn]:
        with self.db.transaction(SessionError, WHAT, lock_error=SessionError) as conn:
            owned_by(conn, self.profile)
            yield _Connection(conn, writing=True)

    def _mine(self, table: str) -> str:
        return _MINE.format(table=table)

    def _row_lock(self, conn: Conn) -> str:
        return " FOR UPDATE" if getattr(conn, "writing", False) else ""

    def _match(self, query: str) -> str:
        # The chunks FTS5 would search, each a phrase (its words in a row, as FTS5 reads a
        # quoted string), OR-ed. Words are runs of word characters: no tsquery syntax survives.
        phrases = dict.fromkeys(
            " <-> ".join(f"'{w}'" for w in words)
            for chunk in query_chunks(query)
            if (words := _WORD.findall(fold(chunk).casefold()))
        )
        return " | ".join(f"({p})" for p in phrases)

    def _count_matches(self, conn: Conn, match: str, cap: int) -> int:
        row = conn.execute(
            "SELECT COUNT(*) AS n FROM (SELECT 1 FROM messages"
            f" WHERE search @@ to_tsquery('simple', %s) AND {self._mine('messages')} LIMIT %s) AS hits",
            (match, cap),
        ).fetchone()
        return int(row["n"])

    def close(self) -> None:
        """The pool is shared by every backend of this process and closed when it exits."""
