"""Where a :class:`~silcrow.integrations.langgraph.SilcrowStore` keeps its items: the profile's
``langgraph.db`` (SQLite, WAL) or its rows of ``langgraph_items`` in the shared PostgreSQL
database. The SQL is written once, composed with the engine's parameter marker, as the session
archive does."""

from __future__ import annotations

import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from silcrow import _sqlite
from silcrow.errors import StoreError
from silcrow.home import Profile
from silcrow.schema.langgraph import ITEMS, SQLITE

WHAT = "LangGraph store"


@dataclass(frozen=True)
class Row:
    prefix: str
    key: str
    value: str
    recall_id: int | None
    created_at: float
    updated_at: float


def _row(r: Any) -> Row:
    return Row(r["prefix"], r["key"], r["value"], None if r["recall_id"] is None else int(r["recall_id"]),
               float(r["created_at"]), float(r["updated_at"]))


class Items(ABC):
    """The items of one profile's LangGraph store."""

    _p: str  # the engine's parameter marker
    _table: str

    @abstractmethod
    def _conn(self, write: bool) -> AbstractContextManager[Any]:
        """A connection in a transaction, errors translated to StoreError."""

    def _mine(self) -> str:
        return "1 = 1"

    def close(self) -> None:
        """Release the connections."""

    def get(self, prefix: str, key: str) -> Row | None:
        p = self._p
        with self._conn(False) as conn:
            found = conn.execute(f"SELECT {ITEMS.names()} FROM {self._table} WHERE prefix = {p} AND key = {p}"
                                 f" AND {self._mine()}", (prefix, key)).fetchone()
        return None if found is None else _row(found)

    def under(self, prefix: str) -> list[Row]:
        """Every item whose namespace is ``prefix`` or below it ('' for all), newest change first."""
        p = self._p
        where = f"(prefix = {p} OR substr(prefix, 1, {p}) = {p})" if prefix else "1 = 1"
        params: tuple[Any, ...] = (prefix, len(prefix) + 1, prefix + ".") if prefix else ()
        with self._conn(False) as conn:
            rows = conn.execute(f"SELECT {ITEMS.names()} FROM {self._table} WHERE {where} AND {self._mine()}"
                                " ORDER BY updated_at DESC, prefix, key", params).fetchall()
        return [_row(r) for r in rows]

    def prefixes(self) -> list[str]:
        with self._conn(False) as conn:
            rows = conn.execute(f"SELECT DISTINCT prefix FROM {self._table} WHERE {self._mine()}").fetchall()
        return [str(r["prefix"]) for r in rows]

    def put(self, prefix: str, key: str, value: str, recall_id: int | None, now: float) -> int | None:
        """Insert or replace one item (its created_at kept); returns the recall id it had."""
        p = self._p
        with self._conn(True) as conn:
            old = conn.execute(f"SELECT recall_id, created_at FROM {self._table} WHERE prefix = {p}"
                               f" AND key = {p} AND {self._mine()}", (prefix, key)).fetchone()
            if old is None:
                conn.execute(f"INSERT INTO {self._table} ({ITEMS.names()})"
                             f" VALUES ({p}, {p}, {p}, {p}, {p}, {p})",
                             (prefix, key, value, recall_id, now, now))
                return None
            conn.execute(f"UPDATE {self._table} SET value = {p}, recall_id = {p}, updated_at = {p}"
                         f" WHERE prefix = {p} AND key = {p} AND {self._mine()}",
                         (value, recall_id, now, prefix, key))
            return None if old["recall_id"] is None else int(old["recall_id"])

    def delete(self, prefix: str, key: str) -> int | None:
        """Remove one item; returns the recall id it had (None also when there was none)."""
        p = self._p
        with self._conn(True) as conn:
            old = conn.execute(f"SELECT recall_id FROM {self._table} WHERE prefix = {p} AND key = {p}"
                               f" AND {self._mine()}", (prefix, key)).fetchone()
            if old is None:
                return None
            conn.execute(f"DELETE FROM {self._table} WHERE prefix = {p} AND key = {p} AND {self._mine()}",
                         (prefix, key))
            return None if old["recall_id"] is None else int(old["recall_id"])

    def uses(self, recall_id: int) -> bool:
        """Whether an item is still indexed by this recall memory (items with equal text share
        one)."""
        p = self._p
        with self._conn(False) as conn:
            return conn.execute(f"SELECT 1 AS used FROM {self._table} WHERE recall_id = {p}"
                                f" AND {self._mine()}"
                                " LIMIT 1", (recall_id,)).fetchone() is not None

    def indexed(self) -> int:
        with self._conn(False) as conn:
            return int(conn.execute(f"SELECT COUNT(DISTINCT recall_id) AS n FROM {self._table}"
                                    f" WHERE recall_id IS NOT NULL AND {self._mine()}").fetchone()["n"])


class SqliteItems(Items):
    _p = "?"
    _table = "items"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = _sqlite.connect(path, SQLITE, error=StoreError, what=WHAT)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()  # one connection, shared by the store's threads

    @contextmanager
    def _conn(self, write: bool) -> Iterator[Any]:
        with self._lock, _sqlite.translated(StoreError, self.path, WHAT):
            if write:
                with _sqlite.transaction(self._db) as conn:
                    yield conn
            else:
                yield self._db

    def close(self) -> None:
        self._db.close()


class PostgresItems(Items):
    _p = "%s"
    _table = "langgraph_items"

    def __init__(self, dsn: str, profile: str) -> None:
        from silcrow import schema

        self.db = schema.database(dsn)
        self.profile = profile

    def _mine(self) -> str:
        return "profile = current_setting('silcrow.profile')"

    @contextmanager
    def _conn(self, write: bool) -> Iterator[Any]:
        from silcrow.db import owned_by

        with self.db.transaction(StoreError, WHAT) as conn:
            owned_by(conn, self.profile)
            yield conn


def open_items(profile: Profile) -> Items:
    """The items of ``profile``, where its storage is."""
    if profile.storage.shared:
        assert profile.storage.dsn is not None
        return PostgresItems(profile.storage.dsn, profile.name)
    return SqliteItems(profile.path / "langgraph.db")
