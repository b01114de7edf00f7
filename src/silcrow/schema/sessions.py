"""The tables of the session archive, described once, with their migrations on both engines.

``<home>/sessions.db`` holds ``sessions`` (one row per session, with its
parent for branches and the cached system prompt), ``messages``, the FTS5
index ``messages_fts`` and ``meta``; a shared PostgreSQL database holds
``sessions`` and ``messages`` with the owning profile and a tsvector of each
message. Migrations on both engines are numbered and append-only: a migration
that shipped never changes. ``POSTGRES`` holds this domain's statements of
each PostgreSQL migration (assembled in order by :mod:`silcrow.schema`).
"""

from __future__ import annotations

from silcrow._table import Table
from silcrow.db import OWNED
from silcrow.schema._notes import V1_OWNER

__all__ = [
    "MESSAGES",
    "SESSIONS",
    "SQLITE_MIGRATIONS",
    "SQLITE_VERSION",
]

SESSIONS = Table(
    ("id", "parent_id", "root_id", "title", "created_at", "updated_at", "system_prompt"),
    sqlite="sessions", postgres="sessions", postgres_only=("profile",),
)
MESSAGES = Table(
    ("id", "session_id", "seq", "role", "content", "tool_calls", "tool_call_id", "name", "recall_block",
     "created_at", "compacted", "is_summary"),
    sqlite="messages", postgres="messages", postgres_only=("search", "profile"),
)
SEARCH_INDEX = Table(("content",), sqlite="messages_fts")
META = Table(("key", "value"), sqlite="meta")
TABLES = (SESSIONS, MESSAGES, SEARCH_INDEX, META)

#: Numbered migrations (see silcrow._sqlite). Version 1 uses IF NOT EXISTS throughout, so a
#: sessions.db made before migrations were recorded gets it applied as a no-op.
SQLITE_MIGRATIONS: list[tuple[int, str, tuple[str, ...]]] = [
    (
        1,
        "sessions, messages, fts5 index with triggers, meta",
        (
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS sessions (
                id            TEXT PRIMARY KEY,
                parent_id     TEXT REFERENCES sessions(id),
                root_id       TEXT NOT NULL,
                title         TEXT,
                created_at    TEXT NOT NULL,
                updated_at    TEXT NOT NULL,
                system_prompt TEXT
            )
            """,
            "CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated_at)",
            """
            CREATE TABLE IF NOT EXISTS messages (
                id           INTEGER PRIMARY KEY AUTOINCREMENT,
                session_id   TEXT NOT NULL REFERENCES sessions(id),
                seq          REAL NOT NULL,
                role         TEXT NOT NULL,
                content      TEXT,
                tool_calls   TEXT,
                tool_call_id TEXT,
                name         TEXT,
                recall_block TEXT,
                created_at   TEXT NOT NULL,
                compacted    INTEGER NOT NULL DEFAULT 0,
                is_summary   INTEGER NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX IF NOT EXISTS messages_by_session ON messages(session_id, seq)",
            """
            CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
                content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
            )
            """,
            """
            CREATE TRIGGER IF NOT EXISTS messages_ai AFTER INSERT ON messages BEGIN
                INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
            END
            """,
            """
            CREATE TRIGGER IF NOT EXISTS messages_ad AFTER DELETE ON messages BEGIN
                INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
            END
            """,
            """
            CREATE TRIGGER IF NOT EXISTS messages_au AFTER UPDATE OF content ON messages BEGIN
                INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
                INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
            END
            """,
            # Older silcrow read the version from these two places: keep them telling the truth.
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '1')",
            "PRAGMA user_version = 1",
        ),
    ),
]
SQLITE_VERSION = SQLITE_MIGRATIONS[-1][0]

POSTGRES: dict[int, tuple[str, ...]] = {
    1: (
        """
            CREATE TABLE sessions (
                id            text PRIMARY KEY,
                parent_id     text REFERENCES sessions(id),
                root_id       text NOT NULL,
                title         text,
                created_at    text NOT NULL,
                updated_at    text NOT NULL,
                system_prompt text
            )
            """,
        "CREATE INDEX sessions_updated ON sessions (updated_at)",
        """
            CREATE TABLE messages (
                id           bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                session_id   text NOT NULL REFERENCES sessions(id),
                seq          double precision NOT NULL,
                role         text NOT NULL,
                content      text,
                tool_calls   text,
                tool_call_id text,
                name         text,
                recall_block text,
                created_at   text NOT NULL,
                compacted    integer NOT NULL DEFAULT 0,
                is_summary   integer NOT NULL DEFAULT 0,
                search tsvector GENERATED ALWAYS AS (
                    to_tsvector('simple', silcrow.fold(coalesce(content, '')))
                ) STORED
            )
            """,
        "CREATE INDEX messages_by_session ON messages (session_id, seq)",
        "CREATE INDEX messages_search ON messages USING gin (search)",
    ),
    2: (
        # Sessions are keyed by (profile, id), and messages carry the profile of their session,
        # so no query, join or foreign key can reach across profiles.
        "ALTER TABLE messages DROP CONSTRAINT messages_session_id_fkey",
        "ALTER TABLE sessions DROP CONSTRAINT sessions_parent_id_fkey",
        "ALTER TABLE sessions DROP CONSTRAINT sessions_pkey",
        "ALTER TABLE sessions ADD COLUMN profile text",
        f"UPDATE sessions SET profile = ({V1_OWNER})",
        f"ALTER TABLE sessions ALTER COLUMN profile SET NOT NULL, {OWNED}",
        "ALTER TABLE sessions ADD PRIMARY KEY (profile, id)",
        "ALTER TABLE sessions ADD CONSTRAINT sessions_parent_fkey"
        " FOREIGN KEY (profile, parent_id) REFERENCES sessions (profile, id)",
        "DROP INDEX sessions_updated",
        "CREATE INDEX sessions_updated ON sessions (profile, updated_at)",
        "ALTER TABLE messages ADD COLUMN profile text",
        "UPDATE messages m SET profile = s.profile FROM sessions s WHERE s.id = m.session_id",
        f"ALTER TABLE messages ALTER COLUMN profile SET NOT NULL, {OWNED}",
        "ALTER TABLE messages ADD CONSTRAINT messages_session_fkey"
        " FOREIGN KEY (profile, session_id) REFERENCES sessions (profile, id)",
        "DROP INDEX messages_by_session",
        "CREATE INDEX messages_by_session ON messages (profile, session_id, seq)",
    ),
}
