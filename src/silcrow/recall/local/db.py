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
import time
from collections.abc import Iterable
from pathlib import Path

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


def connect(path: Path, *, timeout: float = 30.0) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the recall database at ``path``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise RecallError(
            f"cannot open the recall database {path}: {exc}; check the path and permissions"
        ) from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise RecallError(f"{path} could not be switched to WAL mode (got {mode!r}); use a local disk")
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: durable at checkpoints, no torn db
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise RecallError(
            f"{path} is not a usable recall database ({exc}); move it aside and silcrow will start a new one"
        ) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def applied_migrations(conn: sqlite3.Connection) -> list[tuple[int, str, float]]:
    """(version, name, applied_at) of every migration recorded in the database."""
    rows = conn.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
    return [(int(v), str(n), float(a)) for v, n, a in rows]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the missing migrations, each in its own transaction; returns the schema version."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    for version, name, statements in MIGRATIONS:
        # BEGIN IMMEDIATE takes the write lock first, so two processes opening a fresh
        # file at once cannot both apply the same migration.
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)).fetchone()
            if done is None:
                for sql in statements:
                    conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, time.time()),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    newest = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
    if newest is not None and int(newest) > SCHEMA_VERSION:
        raise RecallError(
            f"the recall database has schema version {newest}, newer than this silcrow knows "
            f"({SCHEMA_VERSION}); upgrade silcrow"
        )
    return SCHEMA_VERSION


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def placeholders(values: Iterable[object]) -> str:
    """``?, ?, ?`` for an IN list."""
    return ", ".join("?" for _ in values)
