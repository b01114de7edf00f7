"""The SQL of the PostgreSQL recall store (:mod:`silcrow.recall.local._postgres`): the conditions
that keep a statement to one profile, scope and project, the statements of its searches and
counts, and the binary COPY of its vectors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from silcrow.db import PROFILE_SETTING
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._records import Scope

MINE = f"profile = current_setting('{PROFILE_SETTING}')"
SCOPE = f"{MINE} AND user_id IS NOT DISTINCT FROM %s AND agent_id IS NOT DISTINCT FROM %s"
#: The same as MINE in a search, which runs outside a transaction (Database.reading) and
#: names its profile as a parameter.
OWN = "profile = %s"
#: A memory's session as the ranking sees it: a turn's, none for a fact or summary.
SESSION = "CASE WHEN kind = 'turn' THEN coalesce(session_id, '') ELSE '' END"


def scoped(scope: Scope, profile: str) -> tuple[str, tuple[str, ...]]:
    """The condition (and its parameters) picking ``profile``'s memories of ``scope``, written
    so the planner can estimate it: ``IS NOT DISTINCT FROM`` looks to it like a filter that keeps
    one row, which made it scan the whole table instead of the word index (25 ms at 10k rows)."""
    parts, params = [OWN], [profile]
    for column, value in (("user_id", scope[0]), ("agent_id", scope[1])):
        if value is None:
            parts.append(f"{column} IS NULL")
        else:
            parts.append(f"{column} = %s")
            params.append(value)
    return " AND ".join(parts), tuple(params)


# The memory belongs to the project %s or a directory below it (params: project_params).
PROJECT = ("((metadata::jsonb ->> 'project') = %s OR left(metadata::jsonb ->> 'project', %s) = %s)")
UPPER, LOWER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
# ts_rank weights for labels {D, C, B, A}: A body, B context, C dated (retrieval.COLUMN_WEIGHTS).
WEIGHTS = "{0.1, %s, %s, %s}" % tuple(reversed(retrieval.COLUMN_WEIGHTS))  # noqa: UP031

#: The PostgreSQL types of a batch's position and its SENT_POSTGRES, in order, for a binary COPY.
SENT_TYPES = ["integer", "text", "text", "text", "text", "double precision", "text", "text", "text", "text",
              "text", "text", "double precision", "text", "text"]
#: The columns whose statistics plan a search or a filter. The texts', metadata's and vector's
#: were half of the time of analysing the table and no plan reads them.
PLANNED = "id, profile, kind, session_id, user_id, agent_id, ts, created_at, search"
#: The planner's estimate of the table's rows: enough to size cut-offs, and it costs no scan.
ESTIMATED_ROWS = ("SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class"
                  " WHERE oid = 'recall_memories'::regclass")


#: How many of the profile's memories hold each query term (and, in the row whose term is NULL,
#: how many it holds), exact and without reading a memory: recall_terms keeps the number of
#: each lexeme (migration 8). A term the parser splits into several lexemes (none of the \w+
#: terms of retrieval.query_terms, in practice) is counted in the word index instead, just past
#: the common-term cut-off.
TERM_COUNTS = (
    "WITH mine AS (SELECT coalesce((SELECT memories FROM recall_counts WHERE profile = %(profile)s), 0) AS n)"
    " SELECT NULL AS term, n FROM mine"
    " UNION ALL SELECT t.term, CASE cardinality(w.lexemes) WHEN 0 THEN 0"
    " WHEN 1 THEN coalesce((SELECT memories FROM recall_terms"
    " WHERE profile = %(profile)s AND lexeme = w.lexemes[1]), 0)"
    " ELSE (SELECT count(*) FROM (SELECT 1 FROM recall_memories"
    " WHERE search @@ to_tsquery('english', quote_literal(t.term)) AND profile = %(profile)s"
    " LIMIT greatest(%(floor)s, floor(%(fraction)s * (SELECT n FROM mine)))::bigint + 1) AS held) END"
    " FROM unnest(%(terms)s::text[]) AS t(term),"
    " tsvector_to_array(to_tsvector('english', t.term)) AS w(lexemes)"
)


def build_memory_mb(rows: int, dim: int) -> int:
    """``maintenance_work_mem`` (MB) for building the HNSW index over ``rows`` vectors of ``dim``:
    room for the whole graph (each vector and its neighbours, ~2.2 KB at 384 dimensions, with
    room to spare), so the build stays in memory, and no more: a build at 10k rows took 0.1-0.2 s
    longer (of 1.6) given 512 MB than given the 64 it needs."""
    need = rows * (4 * dim + 1024) * 3 // 2
    return max(64, min(2048, -(-need // 2**20)))


#: A binary COPY's signature, flags and header extension length, and its end.
COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
COPY_END = b"\xff\xff"


def vector_copy(vectors: np.ndarray) -> bytes:
    """The binary COPY of rows (n integer, embedding vector), n counting from 0, made for all the
    rows at once: written row by row, each vector through pgvector's dumper, it held the
    interpreter for ~8 µs a row, which the writers of an ingest share with its embedding.
    A vector is its dimension, a reserved 0 and its big-endian float32s (pgvector's binary
    format, ``vector_recv``); a field is its length, then its bytes."""
    count, dim = vectors.shape
    row = np.dtype([("fields", ">i2"), ("n_size", ">i4"), ("n", ">i4"), ("vector_size", ">i4"),
                    ("dim", ">i2"), ("unused", ">i2"), ("values", ">f4", (dim,))])
    rows = np.zeros(count, dtype=row)
    rows["fields"], rows["n_size"], rows["n"] = 2, 4, np.arange(count)
    rows["vector_size"], rows["dim"], rows["values"] = 4 + 4 * dim, dim, vectors
    return COPY_HEADER + rows.tobytes() + COPY_END


def tsquery(terms: Sequence[str]) -> str | None:
    """An OR of ``terms`` for to_tsquery; each is a run of word characters, quoted as a lexeme."""
    return " | ".join(f"'{t}'" for t in terms) if terms else None



def counted(result: Any) -> tuple[int, dict[str, int]]:
    """(memories of the profile, memories holding each term) from a :data:`TERM_COUNTS` result."""
    held, df = 0, {}
    for r in result.fetchall():
        if r["term"] is None:
            held = int(r["n"])
        else:
            df[r["term"]] = int(r["n"])
    return held, df
