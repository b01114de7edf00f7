"""How the PostgreSQL store writes an ingest: a batch's rows and words go to the server while its
vectors are made, in the records' order, with the tsvector silcrow.recall_search makes."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from silcrow.errors import RecallError
from silcrow.models import Embedder, get_embedder
from silcrow.recall.local import PostgresRecall, RecallRecord, _postgres
from silcrow.schema import database


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder("onnx")  # the real model, loaded once for this module


class _Watched(Embedder):
    """The real embedder, whose ``embed`` first waits (up to ``patience`` seconds) until
    ``ready()`` is true, and notes whether it became so."""

    def __init__(self, real: Embedder, ready: Any, patience: float = 10.0) -> None:
        super().__init__()
        self.real, self.ready, self.patience = real, ready, patience
        self.name, self.dim = real.name, real.dim
        self.seen: list[bool] = []

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        deadline = time.monotonic() + self.patience
        while not (ok := self.ready()) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.seen.append(ok)
        return self.real.embed(texts)


def _records(n: int, session: str = "garden") -> list[RecallRecord]:
    return [RecallRecord(text=f"entry {i}: the {session} log says the quince tree was pruned",
                         session_id=session, speaker="user" if i % 2 == 0 else "assistant",
                         external_id=f"{session}-{i}")
            for i in range(n)]


def test_a_batch_is_sent_and_its_words_indexed_while_its_vectors_are_made(
    pg_dsn: str, embedder: Embedder
) -> None:
    """The single batch of a small ingest reaches the server before its vectors exist: the writer
    is in its transaction, its last statement the tsvector of the batch, while the model runs.
    Written after the vectors, the embedder would wait out its patience and note False."""

    def staged() -> bool:
        with database(pg_dsn).connect() as conn:
            row = conn.execute(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database()"
                " AND state = 'idle in transaction' AND query LIKE %s", ("%recall_search(body%",),
            ).fetchone()
        return row is not None

    watched = _Watched(embedder, staged)
    store = PostgresRecall(pg_dsn, watched)
    records = _records(12)
    added, ids = store.ingest(records, (None, None))
    assert added == 12 and watched.seen == [True]
    hits = store.search("when was the quince tree pruned", 3, (None, None))
    assert hits and "quince" in hits[0].text
    store.close()


def test_the_stored_tsvector_is_the_one_recall_search_makes_and_a_trigger_fills_other_writers(
    pg_dsn: str, embedder: Embedder
) -> None:
    """silcrow writes search itself (migration 9); a row inserted without it (by hand, by older
    code) gets it from the trigger, and a changed text remakes it, as the generated column did."""
    store = PostgresRecall(pg_dsn, embedder)
    store.ingest(_records(6), (None, None))
    with database(pg_dsn).connect() as conn:
        differing = conn.execute(
            "SELECT count(*) FROM silcrow.recall_memories"
            " WHERE search IS DISTINCT FROM silcrow.recall_search(body, context, dated)").fetchone()[0]
        assert differing == 0
        conn.execute(
            "INSERT INTO silcrow.recall_memories (profile, kind, text, content_hash, created_at, body)"
            " VALUES ('default', 'fact', 'the heron nests by the weir', 'by-hand', 0,"
            " 'the heron nests by the weir')")
        conn.execute("UPDATE silcrow.recall_memories SET body = 'user: the medlar fruit is bletted',"
                     " text = 'the medlar fruit is bletted' WHERE text LIKE 'entry 0:%'")
        rows = conn.execute(
            "SELECT text, search::text AS words, search = silcrow.recall_search(body, context, dated) AS same"
            " FROM silcrow.recall_memories WHERE content_hash = 'by-hand' OR text LIKE '%medlar%'"
            " ORDER BY text"
        ).fetchall()
    assert [r[0] for r in rows] == ["the heron nests by the weir", "the medlar fruit is bletted"]
    assert all(r[2] for r in rows)
    assert "'heron'" in rows[0][1] and "'medlar'" in rows[1][1] and "'quinc'" not in rows[1][1]
    found = store.search("medlar", 3, (None, None), mode="lexical")
    assert [h.text for h in found] == ["the medlar fruit is bletted"]
    store.close()


def test_batches_written_aside_keep_the_records_order_and_identity(
    pg_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids follow the records across batches written by the writer threads (the ranking reads a
    turn's neighbours by id), a batch with nothing new lets the next ones through, and a record
    repeated in a later batch, not yet committed when that batch was prepared, still gets the
    first one's id and is stored once."""
    monkeypatch.setattr(_postgres, "BATCH", 16)
    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    monkeypatch.setattr(_postgres, "BULK_BATCH", 16)
    store = PostgresRecall(pg_dsn, embedder)
    records = _records(50)
    # The first batch then holds nothing new: its write inserts nothing, and the next ones go on.
    assert store.ingest(records[:16], (None, None))[0] == 16
    added, ids = store.ingest([*records, records[3], records[40]], (None, None))
    assert added == 34
    assert ids[:50] == sorted(ids[:50]) and len(set(ids[:50])) == 50
    assert ids[50] == ids[3] and ids[51] == ids[40]
    with database(pg_dsn).connect() as conn:
        stored = conn.execute("SELECT text FROM silcrow.recall_memories ORDER BY id").fetchall()
    assert [r[0] for r in stored] == [r.text for r in records]
    store.close()


def test_a_failing_batch_stops_the_ingest_without_hanging_and_the_indexes_come_back(
    pg_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second of four batches fails in a writer thread: the ingest raises that error, no
    batch after it is stored (though another thread was already writing the next one), and
    the dropped indexes are built again."""
    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    monkeypatch.setattr(_postgres, "BULK_BATCH", 16)
    store = PostgresRecall(pg_dsn, embedder)
    real = store._write
    calls: list[str] = []

    def second_fails(fresh: list[dict[str, Any]], vectors: Any, turn: Any) -> int:
        first = fresh[0]["rec"].external_id
        calls.append(first)
        if first == "garden-16":
            vectors()  # as a real write would, after waiting for them
            raise RecallError("the disk is full")
        return real(fresh, vectors, turn)

    monkeypatch.setattr(store, "_write", second_fails)
    done = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            store.ingest(_records(64), (None, None))
        except BaseException as exc:  # noqa: BLE001  (handed to the test thread)
            failure.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(60), "the ingest hung after its writer failed"
    assert len(failure) == 1 and isinstance(failure[0], RecallError) and "disk is full" in str(failure[0])
    assert "garden-16" in calls
    with database(pg_dsn).connect() as conn:
        count = conn.execute("SELECT count(*) FROM silcrow.recall_memories").fetchone()[0]
        names = {r[0] for r in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'recall_memories'")}
    assert count == 16  # the first batch alone: those started after the failure refused their turn
    assert {"recall_memories_search", f"recall_memories_hnsw_{embedder.dim}"} <= names
    store.close()



def test_vectors_copied_in_one_block_arrive_exactly(pg_dsn: str) -> None:
    """The binary COPY made for all of a batch's vectors at once (:func:`_postgres.vector_copy`)
    is read by the server as the same float32s, in order, numbered from 0."""
    vectors = np.random.default_rng(7).standard_normal((300, 384)).astype(np.float32)
    vectors[3] = [np.float32(1e-38), np.float32(-3.4e38), *vectors[3][2:]]  # extremes survive too
    with database(pg_dsn).connect() as conn:
        conn.execute("SET search_path = silcrow, public")
        conn.execute("CREATE TEMP TABLE copied (n integer, embedding vector)")
        with conn.cursor().copy("COPY copied (n, embedding) FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(_postgres.vector_copy(vectors))
        rows = conn.execute("SELECT n, embedding::real[] FROM copied ORDER BY n").fetchall()
    assert [r[0] for r in rows] == list(range(300))
    assert np.array_equal(np.array([r[1] for r in rows], dtype=np.float32), vectors)


def test_the_index_build_is_given_memory_for_its_graph_and_no_more() -> None:
    """A build over few rows gets PostgreSQL's default 64 MB (more only slowed it), one over 100k
    rows of 384 dimensions room for its ~220 MB graph, and no build more than 2 GB."""
    assert _postgres.build_memory_mb(0, 384) == 64
    assert _postgres.build_memory_mb(10_000, 384) == 64
    assert 300 <= _postgres.build_memory_mb(100_000, 384) <= 400
    assert _postgres.build_memory_mb(100_000, 1536) > _postgres.build_memory_mb(100_000, 384)
    assert _postgres.build_memory_mb(10**8, 384) == 2048
