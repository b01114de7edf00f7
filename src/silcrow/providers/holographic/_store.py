"""The holographic fact store: SQLite facts with FTS5, entities, trust, HRR vectors.

One file (``<home>/memory_store.db`` by default, as in Hermes). Facts are
unique by content; each carries a trust score in [0, 1] that feedback moves
(helpful +0.05, unhelpful -0.10: a wrong fact sinks faster than a good one
rises), the entities found in it, and its HRR vector (see :mod:`.hrr`).

Every call takes the store's lock: the manager calls from its worker
thread and from timed threads, and SQLite connections are not to be shared
between threads without one.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from silcrow._sqlite import connect, statements, transaction
from silcrow.errors import RecallError
from silcrow.providers.holographic import _hrr as hrr

HELPFUL_DELTA = 0.05
UNHELPFUL_DELTA = -0.10

_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    fact_id         INTEGER PRIMARY KEY AUTOINCREMENT,
    content         TEXT NOT NULL UNIQUE,
    category        TEXT NOT NULL DEFAULT 'general',
    tags            TEXT NOT NULL DEFAULT '',
    trust_score     REAL NOT NULL DEFAULT 0.5,
    retrieval_count INTEGER NOT NULL DEFAULT 0,
    helpful_count   INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at      TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    hrr_vector      BLOB
);
CREATE TABLE IF NOT EXISTS entities (
    entity_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    aliases     TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS fact_entities (
    fact_id   INTEGER NOT NULL REFERENCES facts(fact_id) ON DELETE CASCADE,
    entity_id INTEGER NOT NULL REFERENCES entities(entity_id),
    PRIMARY KEY (fact_id, entity_id)
);
CREATE INDEX IF NOT EXISTS facts_by_trust ON facts(trust_score DESC);
CREATE INDEX IF NOT EXISTS facts_by_category ON facts(category);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5(
    content, tags, content=facts, content_rowid=fact_id, tokenize='porter unicode61');
CREATE TRIGGER IF NOT EXISTS facts_fts_ins AFTER INSERT ON facts BEGIN
    INSERT INTO facts_fts(rowid, content, tags) VALUES (new.fact_id, new.content, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS facts_fts_del AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts(facts_fts, rowid, content, tags)
        VALUES ('delete', old.fact_id, old.content, old.tags);
END;
CREATE TRIGGER IF NOT EXISTS facts_fts_upd AFTER UPDATE OF content, tags ON facts BEGIN
    INSERT INTO facts_fts(facts_fts, rowid, content, tags)
        VALUES ('delete', old.fact_id, old.content, old.tags);
    INSERT INTO facts_fts(rowid, content, tags) VALUES (new.fact_id, new.content, new.tags);
END;
"""
# Version 1 is the schema fact stores had before migrations were recorded (IF NOT EXISTS:
# it adopts such a file as it is).
_MIGRATIONS = ((1, "facts, entities and their full-text index", statements(_SCHEMA)),)

FACT_COLUMNS = ("fact_id, content, category, tags, trust_score, retrieval_count, helpful_count, "
                "created_at, updated_at")

# Entity candidates, as the Hermes plugin finds them: runs of two or more capitalised
# words, quoted terms, and "X aka Y" / "X also known as Y" pairs (Y becomes X's alias).
_CAPITALISED_RUN = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)\b")
_QUOTED = re.compile(r"\"([^\"]+)\"|'([^']+)'")
# The alias is one word, or a run of capitalised words ("Guido van Rossum aka BDFL likes ...").
# The alias after the keyword; the name before it is found by a backward scan in
# _aka_pairs, because a lazy "[\w ]+?" before the keyword is quadratic on long runs of words.
_AKA = re.compile(r"\s(?i:aka|also known as)\s+(\w+(?:\s+[A-Z]\w*)*)")


def _aka_pairs(text: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    floor = 0
    for match in _AKA.finditer(text):
        start = match.start()
        while start > floor and (text[start - 1].isalnum() or text[start - 1] in "_ "):
            start -= 1
        pairs.append((text[start : match.start()].strip(), match.group(1).strip()))
        floor = match.end()
    return pairs


def extract_entities(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """``(names, aliases)``: entity names in first-seen order, and ``(name, alias)`` pairs."""
    names: dict[str, str] = {}
    for match in _CAPITALISED_RUN.finditer(text):
        names.setdefault(match.group(1).lower(), match.group(1))
    for match in _QUOTED.finditer(text):
        found = (match.group(1) or match.group(2) or "").strip()
        if found:
            names.setdefault(found.lower(), found)
    aliases: list[tuple[str, str]] = []
    for name, alias in _aka_pairs(text):
        if name and alias:
            names.setdefault(name.lower(), name)
            aliases.append((name, alias))
    alias_keys = {a.lower() for _, a in aliases}
    return [n for key, n in names.items() if key not in alias_keys], aliases


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, value))


class FactStore:
    """SQLite-backed facts (see module doc)."""

    def __init__(self, path: Path, *, default_trust: float = 0.5, dim: int = 1024) -> None:
        if dim < 64:
            raise RecallError(f"hrr_dim must be at least 64 (got {dim}); the default is 1024")
        self.path = path
        self.default_trust = _clamp(default_trust)
        self.dim = dim
        self.lock = threading.RLock()
        self.conn = connect(path, _MIGRATIONS, error=RecallError,
                            what="holographic fact store (db_path)", timeout=10.0)
        self.conn.row_factory = sqlite3.Row

    @contextmanager
    def _tx(self) -> Iterator[None]:
        """The lock plus one IMMEDIATE transaction: a fact and its index land together or not at all."""
        with self.lock, transaction(self.conn):
            yield

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    # -- writes ----------------------------------------------------------------------------

    def add_fact(self, content: str, category: str = "general", tags: str = "") -> int:
        """Store a fact; the same content again returns the existing id unchanged."""
        content = content.strip()
        if not content:
            raise RecallError("a fact needs some content; pass the text to remember")
        with self._tx():
            row = self.conn.execute("SELECT fact_id FROM facts WHERE content = ?", (content,)).fetchone()
            if row is not None:
                return int(row["fact_id"])
            cur = self.conn.execute(
                "INSERT INTO facts (content, category, tags, trust_score) VALUES (?, ?, ?, ?)",
                (content, category, tags, self.default_trust),
            )
            fact_id = int(cur.lastrowid or 0)
            self._index(fact_id, content)
        return fact_id

    def update_fact(self, fact_id: int, *, content: str | None = None, trust_delta: float | None = None,
                    tags: str | None = None, category: str | None = None) -> bool:
        with self._tx():
            row = self.conn.execute("SELECT trust_score FROM facts WHERE fact_id = ?",
                                    (fact_id,)).fetchone()
            if row is None:
                return False
            sets: list[str] = ["updated_at = CURRENT_TIMESTAMP"]
            params: list[Any] = []
            if content is not None:
                if not content.strip():
                    raise RecallError("update needs non-empty content (or leave content out)")
                sets.append("content = ?")
                params.append(content.strip())
            if tags is not None:
                sets.append("tags = ?")
                params.append(tags)
            if category is not None:
                sets.append("category = ?")
                params.append(category)
            if trust_delta is not None:
                sets.append("trust_score = ?")
                params.append(_clamp(row["trust_score"] + trust_delta))
            try:
                self.conn.execute(f"UPDATE facts SET {', '.join(sets)} WHERE fact_id = ?", [*params, fact_id])
            except sqlite3.IntegrityError as exc:
                raise RecallError(
                    f"another fact already says exactly {content!r}; remove one of them") from exc
            if content is not None:
                self.conn.execute("DELETE FROM fact_entities WHERE fact_id = ?", (fact_id,))
                self._index(fact_id, content.strip())
        return True

    def remove_fact(self, fact_id: int) -> bool:
        with self._tx():
            if self.conn.execute("SELECT 1 FROM facts WHERE fact_id = ?", (fact_id,)).fetchone() is None:
                return False
            self.conn.execute("DELETE FROM facts WHERE fact_id = ?", (fact_id,))
        return True

    def record_feedback(self, fact_id: int, *, helpful: bool) -> dict[str, Any]:
        with self._tx():
            row = self.conn.execute("SELECT trust_score, helpful_count FROM facts WHERE fact_id = ?",
                                    (fact_id,)).fetchone()
            if row is None:
                raise RecallError(f"no fact with id {fact_id}; take the id from a fact_store search")
            old = float(row["trust_score"])
            new = _clamp(old + (HELPFUL_DELTA if helpful else UNHELPFUL_DELTA))
            bump = 1 if helpful else 0
            self.conn.execute(
                "UPDATE facts SET trust_score = ?, helpful_count = helpful_count + ?, "
                "updated_at = CURRENT_TIMESTAMP WHERE fact_id = ?", (new, bump, fact_id))
        return {"fact_id": fact_id, "old_trust": round(old, 4), "new_trust": round(new, 4),
                "helpful_count": int(row["helpful_count"]) + bump}

    def mark_retrieved(self, fact_ids: list[int]) -> None:
        if not fact_ids:
            return
        with self._tx():
            marks = ",".join("?" * len(fact_ids))
            self.conn.execute("UPDATE facts SET retrieval_count = retrieval_count + 1 "
                              f"WHERE fact_id IN ({marks})", fact_ids)

    # -- reads -----------------------------------------------------------------------------

    def count(self) -> int:
        with self.lock:
            return int(self.conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0])

    def list_facts(self, category: str | None = None, min_trust: float = 0.0, limit: int = 50
                   ) -> list[dict[str, Any]]:
        where, params = self._filter(category, min_trust)
        with self.lock:
            rows = self.conn.execute(
                f"SELECT {FACT_COLUMNS} FROM facts {where} ORDER BY trust_score DESC, fact_id LIMIT ?",
                [*params, limit]).fetchall()
        return [dict(r) for r in rows]

    def facts_with_vectors(self, category: str | None = None, min_trust: float = 0.0
                           ) -> list[tuple[dict[str, Any], np.ndarray]]:
        where, params = self._filter(category, min_trust, "hrr_vector IS NOT NULL")
        with self.lock:
            sql = f"SELECT {FACT_COLUMNS}, hrr_vector FROM facts {where}"
            rows = self.conn.execute(sql, params).fetchall()
        out = []
        for row in rows:
            fact = dict(row)
            out.append((fact, hrr.from_bytes(fact.pop("hrr_vector"))))
        return out

    def fts(self, match: str, category: str | None, min_trust: float, limit: int) -> list[dict[str, Any]]:
        """FTS5 matches with ``bm25`` (higher is better) and the stored vector."""
        where, params = self._filter(category, min_trust, "facts_fts MATCH ?", prefix="f.")
        with self.lock:
            try:
                rows = self.conn.execute(
                    f"SELECT {', '.join('f.' + c.strip() for c in FACT_COLUMNS.split(','))}, f.hrr_vector, "
                    f"-bm25(facts_fts) AS bm25 FROM facts_fts JOIN facts f ON f.fact_id = facts_fts.rowid "
                    f"{where} ORDER BY bm25(facts_fts) LIMIT ?", [match, *params, limit]).fetchall()
            except sqlite3.OperationalError:
                return []  # a query FTS5 cannot parse matches nothing
        return [dict(r) for r in rows]

    def entities_of(self, fact_ids: list[int]) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {fid: set() for fid in fact_ids}
        if not fact_ids:
            return out
        marks = ",".join("?" * len(fact_ids))
        with self.lock:
            rows = self.conn.execute(
                f"SELECT fe.fact_id, e.name FROM fact_entities fe JOIN entities e USING (entity_id) "
                f"WHERE fe.fact_id IN ({marks})", fact_ids).fetchall()
        for row in rows:
            out[int(row["fact_id"])].add(str(row["name"]).lower())
        return out

    def canonical_entity(self, name: str) -> str:
        """The stored entity ``name`` is, directly or as an alias; ``name`` itself otherwise."""
        with self.lock:
            row = self.conn.execute("SELECT name FROM entities WHERE name = ?", (name,)).fetchone()
            if row is None:
                row = self.conn.execute(
                    "SELECT name FROM entities WHERE ',' || lower(aliases) || ',' LIKE ?",
                    (f"%,{name.lower()},%",)).fetchone()
        return str(row["name"]) if row is not None else name

    # -- internals (caller holds the lock and a transaction) -------------------------------

    @staticmethod
    def _filter(category: str | None, min_trust: float, *extra: str, prefix: str = ""
                ) -> tuple[str, list[Any]]:
        clauses: list[str] = list(extra)
        params: list[Any] = []
        clauses.append(f"{prefix}trust_score >= ?")
        params.append(float(min_trust))
        if category:
            clauses.append(f"{prefix}category = ?")
            params.append(category)
        return "WHERE " + " AND ".join(clauses), params

    def _entity_id(self, name: str) -> int:
        canonical = self.canonical_entity(name)
        row = self.conn.execute("SELECT entity_id FROM entities WHERE name = ?", (canonical,)).fetchone()
        if row is not None:
            return int(row["entity_id"])
        return int(self.conn.execute("INSERT INTO entities (name) VALUES (?)", (name,)).lastrowid or 0)

    def _index(self, fact_id: int, content: str) -> None:
        names, aliases = extract_entities(content)
        for name, alias in aliases:
            entity_id = self._entity_id(name)
            row = self.conn.execute("SELECT aliases FROM entities WHERE entity_id = ?",
                                    (entity_id,)).fetchone()
            known = [a for a in str(row["aliases"]).split(",") if a]
            if alias.lower() not in {a.lower() for a in known}:
                self.conn.execute("UPDATE entities SET aliases = ? WHERE entity_id = ?",
                                  (",".join([*known, alias]), entity_id))
        canonical: list[str] = []
        for name in names:
            entity_id = self._entity_id(name)
            self.conn.execute("INSERT OR IGNORE INTO fact_entities (fact_id, entity_id) VALUES (?, ?)",
                              (fact_id, entity_id))
            canonical.append(self.canonical_entity(name))
        vector = hrr.encode_fact(content, canonical, self.dim)
        self.conn.execute("UPDATE facts SET hrr_vector = ? WHERE fact_id = ?",
                          (hrr.to_bytes(vector), fact_id))
