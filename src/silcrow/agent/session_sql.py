"""The SQL of the session store: schema, and the full-text search queries.

Kept apart from :mod:`silcrow.agent.sessions` so the statements can be read
(and ported to another backend) in one place. FTS5 is an external-content
index over ``messages.content``, kept in step by triggers.
"""

from __future__ import annotations

from typing import Any

SCHEMA_VERSION = 1
SEARCHED_ROLES = ("user", "assistant")  # tool output would echo earlier searches

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id            TEXT PRIMARY KEY,
    parent_id     TEXT REFERENCES sessions(id),
    root_id       TEXT NOT NULL,
    title         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    system_prompt TEXT
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated_at);
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
);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages(session_id, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    content, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_au AFTER UPDATE OF content ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
"""


def fts_query(text: str) -> str:
    """Turn free text into a safe FTS5 query: each word a quoted phrase, OR-ed.

    Quoting makes FTS5 operators and punctuation (``AND``, ``*``, ``:``, ``"``,
    ``(``, ``-``) literal; chunks without a letter or digit are dropped since
    the tokenizer would turn them into nothing. OR plus bm25 ranks sessions
    that match more of the words first without demanding all of them.
    """
    phrases = []
    for chunk in text.split():
        if any(ch.isalnum() for ch in chunk):
            phrases.append('"' + chunk.replace('"', '""') + '"')
    return " OR ".join(phrases)


# One hit per lineage (root_id): the best bm25 score, then the earliest message.
_SEARCH = """
WITH hits AS (
    SELECT m.id AS message_id, m.session_id, m.role, m.created_at, s.title, s.root_id,
           bm25(messages_fts) AS score
    FROM messages_fts
    JOIN messages m ON m.id = messages_fts.rowid
    JOIN sessions s ON s.id = m.session_id
    WHERE messages_fts MATCH ? AND m.role IN ({roles}){extra}
), ranked AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY root_id ORDER BY score, message_id) AS r FROM hits
)
SELECT * FROM ranked WHERE r = 1 ORDER BY score, message_id LIMIT ?
"""

# What the current session already shows the model: its active messages and
# their copies elsewhere in its lineage (a branch copies its parent's history).
_NOT_IN_CONTEXT = """
    AND NOT EXISTS (
        SELECT 1 FROM messages c JOIN sessions cs ON cs.id = c.session_id
        WHERE c.session_id = ? AND c.compacted = 0 AND cs.root_id = s.root_id
          AND c.role = m.role AND c.content = m.content)"""

SNIPPET_SQL = (
    "SELECT snippet(messages_fts, 0, '**', '**', '…', 16) FROM messages_fts"
    " WHERE messages_fts MATCH ? AND rowid = ?"
)


def search_sql(
    match: str, *, exclude: tuple[str, ...] = (), current_session_id: str | None = None
) -> tuple[str, tuple[Any, ...]]:
    """The ranked search statement and its parameters (the LIMIT value goes last)."""
    extra = ""
    params: tuple[Any, ...] = (match, *SEARCHED_ROLES)
    if exclude:
        extra += f"\n    AND m.session_id NOT IN ({','.join('?' for _ in exclude)})"
        params += exclude
    if current_session_id is not None:
        extra += _NOT_IN_CONTEXT
        params += (current_session_id,)
    roles = ",".join("?" for _ in SEARCHED_ROLES)
    return _SEARCH.format(roles=roles, extra=extra), params
