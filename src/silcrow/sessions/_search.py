"""The full-text search of the session archive: query words, and the ranked search statement.

Kept in one place so both engines search alike: the PostgreSQL backend
reuses the search statement with its own candidate step and parameter
marker. On SQLite, FTS5 is an external-content index over
``messages.content``, kept in step by triggers (see :mod:`._schema`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from silcrow._sqlite import STOPWORDS, quote_term

SEARCHED_ROLES = ("user", "assistant")  # tool output would echo earlier searches


def query_chunks(text: str) -> list[str]:
    """The whitespace-separated chunks of ``text`` a search looks for (see :func:`fts_query`)."""
    words: dict[str, str] = {}
    for chunk in text.split():
        if any(ch.isalnum() for ch in chunk):
            key = "".join(ch for ch in chunk.casefold() if ch.isalnum() or ch in "'-_")
            words.setdefault(key, chunk)
    topical = [chunk for key, chunk in words.items() if key.strip("'-_") not in STOPWORDS]
    return topical or list(words.values())


def fts_query(text: str) -> str:
    """Turn free text into a safe FTS5 query: each word a quoted phrase, OR-ed.

    Quoting makes FTS5 operators and punctuation (``AND``, ``*``, ``:``, ``"``,
    ``(``, ``-``) literal; chunks without a letter or digit are dropped since
    the tokenizer would turn them into nothing, and so are repeats and
    :data:`STOPWORDS` (unless the query has nothing else). OR plus bm25 ranks
    messages that match more of the words first without demanding all of them.
    """
    return " OR ".join(quote_term(chunk) for chunk in query_chunks(text))


# Ranking every match of a common word is the slow part of a search, so only
# the best `candidates` matches (FTS5 orders by bm25 itself) are joined and
# reduced to one hit per lineage (root_id): the best score, then the earliest
# message. n_candidates tells the caller whether the cut may have hidden a
# lineage, in which case it asks again with more.
CANDIDATES_SQL = (
    "SELECT rowid AS message_id, rank AS score FROM messages_fts"
    " WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?"
)
_SEARCH = """
WITH cand AS ({candidates}), hits AS (
    SELECT c.message_id, c.score, m.session_id, m.role, m.created_at, s.title, s.root_id
    FROM cand c
    JOIN messages m ON m.id = c.message_id AND {mine_m}
    JOIN sessions s ON s.id = m.session_id AND {mine_s}
    WHERE m.role IN ({roles}){extra}
), ranked AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY root_id ORDER BY score, message_id) AS r FROM hits
)
SELECT *, (SELECT COUNT(*) FROM cand) AS n_candidates
FROM ranked WHERE r = 1 ORDER BY score, message_id LIMIT {p}
"""

# What the current session already shows the model: its active messages and
# their copies elsewhere in its lineage (a branch copies its parent's history).
_NOT_IN_CONTEXT = """
    AND NOT EXISTS (
        SELECT 1 FROM messages c JOIN sessions cs ON cs.id = c.session_id AND {mine_cs}
        WHERE c.session_id = {p} AND {mine_c} AND c.compacted = 0 AND cs.root_id = s.root_id
          AND c.role = m.role AND c.content = m.content)"""

SNIPPET_SQL = (
    "SELECT snippet(messages_fts, 0, '**', '**', '…', 16) AS snippet FROM messages_fts"
    " WHERE messages_fts MATCH ? AND rowid = ?"
)


def search_sql(
    candidates_sql: str,
    match: str,
    candidates: int,
    *,
    exclude: tuple[str, ...] = (),
    current_session_id: str | None = None,
    mine: Callable[[str], str] = lambda table: "1 = 1",
    mark: str = "?",
) -> tuple[str, tuple[Any, ...]]:
    """The ranked search statement and its parameters (the LIMIT value goes last).

    ``candidates_sql`` is the engine's full-text step (FTS5 here, tsvector on
    PostgreSQL); the lineage logic after it is the same SQL on both, composed with the
    engine's parameter ``mark``. ``mine(alias)`` is the condition keeping the rows of the
    store's owner (see ``SessionBackend._mine``).
    """
    extra = ""
    params: tuple[Any, ...] = (match, candidates, *SEARCHED_ROLES)
    if exclude:
        extra += f"\n    AND m.session_id NOT IN ({','.join(mark for _ in exclude)})"
        params += exclude
    if current_session_id is not None:
        extra += _NOT_IN_CONTEXT.format(mine_c=mine("c"), mine_cs=mine("cs"), p=mark)
        params += (current_session_id,)
    roles = ",".join(mark for _ in SEARCHED_ROLES)
    search = _SEARCH.format(
        candidates=candidates_sql, roles=roles, extra=extra, mine_m=mine("m"), mine_s=mine("s"), p=mark
    )
    return search, params
