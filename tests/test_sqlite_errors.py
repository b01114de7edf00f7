"""Every SQLite failure under recall and sessions reaches callers as a SilcrowError that says what to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from silcrow.errors import RecallError, SessionError
from silcrow.models import get_embedder
from silcrow.recall.local import MemoryFilter, RecallRecord, RecallStore
from silcrow.sessions import SessionStore


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_locked_recall_database_is_a_recall_error(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    store = RecallStore(path, get_embedder("none"), timeout=0.2)
    store.ingest([RecallRecord(text="the kiln is in the garage", kind="fact")], (None, None))
    other = _hold_write_lock(path)
    try:
        with pytest.raises(RecallError, match="locked.*try again"):
            store.ingest([RecallRecord(text="another fact", kind="fact")], (None, None))
        with pytest.raises(RecallError, match="locked"):
            store.delete(store.find_ids(MemoryFilter(contains="KILN"), (None, None)))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.search("kiln", 3, (None, None))[0].text == "the kiln is in the garage"
    store.close()
    with pytest.raises(RecallError, match="closed"):
        store.search("kiln", 3, (None, None))


def test_find_ids_filters_are_typed_and_combine(tmp_path: Path) -> None:
    store = RecallStore(tmp_path / "recall.db", get_embedder("none"))
    scope = (None, None)
    _, ids = store.ingest(
        [
            RecallRecord(text="Likes Green Tea", kind="fact", session_id="s1"),
            RecallRecord(text="green tea again", kind="turn", session_id="s1", speaker="user"),
            RecallRecord(text="black coffee", kind="turn", session_id="s2", speaker="user"),
        ],
        scope,
    )
    assert store.find_ids(MemoryFilter(contains="GREEN tea"), scope) == ids[:2]
    assert store.find_ids(MemoryFilter(kind="fact", contains="green"), scope) == ids[:1]
    assert store.find_ids(MemoryFilter(session_id="s2"), scope) == ids[2:]
    assert store.find_ids(MemoryFilter(id=ids[1]), scope) == [ids[1]]
    assert store.find_ids(MemoryFilter(id=ids[1]), ("someone", None)) == []
    assert store.find_ids(MemoryFilter(contains="'; DROP TABLE memories; --"), scope) == []
    store.close()


def test_a_locked_sessions_database_is_a_session_error(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = SessionStore(path, timeout=0.2)
    sid = store.create()
    other = _hold_write_lock(path)
    try:
        with pytest.raises(SessionError, match="locked.*try again"):
            store.append(sid, {"role": "user", "content": "hello"})
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.append(sid, {"role": "user", "content": "hello"})
    assert [m["content"] for m in store.messages(sid)] == ["hello"]
    store.close()


def test_the_fact_store_and_the_outbox_record_their_migrations(tmp_path: Path) -> None:
    from silcrow._sqlite import applied_migrations
    from silcrow.providers._outbox import Outbox
    from silcrow.providers.holographic._store import FactStore

    outbox = Outbox(tmp_path / "outbox.db")
    facts = FactStore(tmp_path / "facts.db")
    assert [v for v, _, _ in applied_migrations(outbox._conn)] == [1]
    assert [v for v, _, _ in applied_migrations(facts.conn)] == [1]
    assert outbox._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_outbox_from_before_migrations_opens_with_its_writes(tmp_path: Path) -> None:
    from silcrow.providers._outbox import _SCHEMA, Outbox

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(_SCHEMA)
        conn.execute("INSERT INTO pending (kind, payload, created) VALUES ('add', '{\"x\": 1}', 0)")
    conn.close()
    assert Outbox(path).pending() == [(1, "add", {"x": 1})]


def test_a_newer_fact_store_is_refused_with_what_to_do(tmp_path: Path) -> None:
    from silcrow.providers.holographic._store import FactStore

    FactStore(tmp_path / "facts.db").conn.execute(
        "INSERT INTO schema_migrations VALUES (99, 'future', 0)")
    with pytest.raises(RecallError, match="newer than this silcrow knows.*upgrade"):
        FactStore(tmp_path / "facts.db")
