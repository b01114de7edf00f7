"""What CrewAI knows of a record beyond its text (id, scope, categories, importance, dates), kept
beside the notes in the profile's ``crewai.db``: the notes hold the text, so a record lives only
while its text is an entry of ``MEMORY.md`` or ``USER.md``."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from crewai.memory.types import MemoryRecord

_SCHEMA = """CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY, target TEXT NOT NULL, content TEXT NOT NULL, record TEXT NOT NULL)"""


class RecordTable:
    """The records' fields by id, and by the notes entry (target, text) they describe."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=30, isolation_level=None)
        self._lock = threading.Lock()
        with self._tx() as conn:
            conn.execute(_SCHEMA)
            conn.execute("CREATE INDEX IF NOT EXISTS records_entry ON records (target, content)")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def put(self, target: str, record: MemoryRecord) -> None:
        fields = record.model_dump(mode="json", exclude={"embedding"})
        with self._tx() as conn:
            conn.execute("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?)",
                         (record.id, target, record.content, json.dumps(fields, ensure_ascii=False)))

    def drop(self, record_ids: list[str]) -> None:
        with self._tx() as conn:
            conn.executemany("DELETE FROM records WHERE id = ?", [(i,) for i in record_ids])

    def by_entry(self) -> dict[tuple[str, str], dict[str, Any]]:
        """The newest fields of each (target, text)."""
        with self._lock:
            rows = self._conn.execute("SELECT target, content, record FROM records ORDER BY rowid").fetchall()
        return {(target, content): json.loads(fields) for target, content, fields in rows}

    def close(self) -> None:
        with self._lock:
            self._conn.close()
