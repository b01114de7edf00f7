"""The SQLite layer of the local recall provider: connection, schema, migrations.

One file, ``<home>/recall.db``, in WAL mode so one process can write while
others read. Every schema change is a numbered migration recorded in the
``schema_migrations`` table of the database itself, so a database always
says which shape it has and an older file is upgraded in place on open.

The SQL is deliberately plain (one table of memories, one of vectors, one
FTS5 index) so that it ports to PostgreSQL: ``memories`` maps 1:1, the FTS5
table becomes a ``tsvector`` column and ``embeddings`` a pgvector column.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from silcrow import _sqlite
from silcrow.errors import RecallError

#: (version, name, statements). Append only: never edit a migration that shipped.
MIGRATIONS: list[tuple[int, str, tuple[str, ...]]] = [
    (
        1,
        "memories, embeddings, fts5 index, meta",
        (
            """
            CREATE TABLE memories (
                id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: readers track ids
                kind         TEXT NOT NULL CHECK (kind IN ('turn', 'fact', 'summary')),
                text         TEXT NOT NULL,
                session_id   TEXT NOT NULL DEFAULT '',
                speaker      TEXT NOT NULL DEFAULT '',
                ts           REAL,              -- when it happened, unix seconds UTC
                user_id      TEXT,
                agent_id     TEXT,
                external_id  TEXT,
                context      TEXT NOT NULL DEFAULT '',  -- preceding turns, used for retrieval only
                metadata     TEXT NOT NULL DEFAULT '{}',
                content_hash TEXT NOT NULL,
                created_at   REAL NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX memories_hash ON memories (content_hash)",
            "CREATE INDEX memories_session ON memories (session_id, id)",
            "CREATE INDEX memories_scope ON memories (user_id, agent_id)",
            """
            CREATE TABLE embeddings (
                memory_id INTEGER PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
                vector    BLOB NOT NULL       -- float32, little endian, unit length
            )
            """,
            # body = "speaker: text", context = preceding turns, dated = the date in words.
            """
            CREATE VIRTUAL TABLE memories_fts USING fts5 (
                body, context, dated, tokenize = 'porter unicode61 remove_diacritics 2'
            )
            """,
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
    ),
]

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

