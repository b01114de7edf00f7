"""The SQLite connection of the local recall provider (its tables and migrations: :mod:`._schema`).

One file, ``<home>/recall.db``, in WAL mode so one process can write while
others read. Every schema change is a numbered migration recorded in the
``schema_migrations`` table of the database itself, so a database always
says which shape it has and an older file is upgraded in place on open.

The SQL is deliberately plain (one table of memories, one of vectors, one
FTS5 index) so that it maps to PostgreSQL (:mod:`.postgres`): ``memories``
maps 1:1, the FTS5 table becomes a ``tsvector`` column and ``embeddings`` a
pgvector column.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from silcrow import _sqlite
from silcrow.errors import RecallError
from silcrow.schema.recall import SQLITE_MIGRATIONS

MIGRATIONS = SQLITE_MIGRATIONS
SCHEMA_VERSION = MIGRATIONS[-1][0]
WHAT = "recall database"
applied_migrations = _sqlite.applied_migrations
placeholders = _sqlite.placeholders


def connect(path: Path, *, timeout: float = 30.0) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the recall database at ``path``."""
    return _sqlite.connect(path, MIGRATIONS, error=RecallError, what=WHAT, timeout=timeout)


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def stored_embedder(path: Path) -> str | None:
    """The embedder a recall database's vectors were made with (``"<name>/<dim>"``), None before
    the first vector."""
    conn = connect(path)
    try:
        return get_meta(conn, "embedder")
    finally:
        conn.close()
