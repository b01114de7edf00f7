"""The PostgreSQL recall store's bookkeeping for fast search: each profile's number of memories
(``recall_counts``, kept by a trigger) and planner statistics refreshed after a large ingest."""

from __future__ import annotations

import multiprocessing

import psycopg
import pytest

from silcrow.recall import get_embedder
from silcrow.recall.local import MemoryFilter, PostgresRecall, RecallRecord, _postgres

CTX = multiprocessing.get_context("spawn")


def _counts(dsn: str) -> tuple[dict[str, int], dict[str, int]]:
    """(what recall_counts says, what counting the rows says), per profile."""
    with psycopg.connect(dsn) as conn:
        kept = dict(conn.execute("SELECT profile, memories FROM silcrow.recall_counts WHERE memories > 0"))
        real = dict(conn.execute("SELECT profile, count(*) FROM silcrow.recall_memories GROUP BY profile"))
    return {str(k): int(v) for k, v in kept.items()}, {str(k): int(v) for k, v in real.items()}


def _facts(prefix: str, n: int) -> list[RecallRecord]:
    return [RecallRecord(text=f"{prefix} fact number {i} about the harbour", kind="fact") for i in range(n)]


def test_counts_follow_inserts_duplicates_and_deletes_per_profile(pg_dsn: str) -> None:
    none = get_embedder("none")
    alice, bob = PostgresRecall(pg_dsn, none, "alice"), PostgresRecall(pg_dsn, none, "bob")
    alice.ingest(_facts("alice", 5), (None, None))
    bob.ingest(_facts("bob", 3), (None, None))
    alice.ingest(_facts("alice", 6), (None, None))  # five of these are already stored
    kept, real = _counts(pg_dsn)
    assert kept == real == {"alice": 6, "bob": 3}
    assert alice.delete(alice.find_ids(MemoryFilter(contains="number 1"), (None, None))) == 1
    assert bob.delete(bob.find_ids(MemoryFilter(contains=""), (None, None))) == 3
    kept, real = _counts(pg_dsn)
    assert kept == real == {"alice": 5}


def _ingest_in_a_process(dsn: str, me: int, n: int) -> None:
    store = PostgresRecall(dsn, get_embedder("none"), "shared")
    for start in range(0, n, 10):  # many small transactions, interleaved with the others'
        store.ingest(_facts(f"writer {me}", n)[start : start + 10], (None, None))


def test_counts_stay_exact_with_writers_in_several_processes(pg_dsn: str) -> None:
    procs = [CTX.Process(target=_ingest_in_a_process, args=(pg_dsn, me, 60)) for me in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 4
    kept, real = _counts(pg_dsn)
    assert kept == real == {"shared": 240}


def test_search_scores_with_the_kept_count(pg_dsn: str) -> None:
    """BM25's idf takes the profile's size from recall_counts: a wrong count changes the scores."""
    store = PostgresRecall(pg_dsn, get_embedder("none"), "alice")
    store.ingest([*_facts("alice", 20), RecallRecord(text="the lighthouse keeper waved", kind="fact")],
                 (None, None))
    before = [(h.text, h.score) for h in store.search("lighthouse harbour", 5, (None, None), mode="lexical")]
    with psycopg.connect(pg_dsn) as conn:
        conn.execute("ALTER TABLE silcrow.recall_memories DISABLE TRIGGER USER")
        conn.execute("UPDATE silcrow.recall_counts SET memories = 3 WHERE profile = 'alice'")
    after = [(h.text, h.score) for h in store.search("lighthouse harbour", 5, (None, None), mode="lexical")]
    assert before != after


def test_a_large_ingest_refreshes_the_planner_statistics(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def estimate() -> float:
        with psycopg.connect(pg_dsn) as conn:
            row = conn.execute("SELECT reltuples FROM pg_class"
                               " WHERE oid = 'silcrow.recall_memories'::regclass")
            return float(row.fetchone()[0])  # type: ignore[index]

    assert estimate() < 0  # never analysed
    monkeypatch.setattr(_postgres, "ANALYZE_AFTER", 10)
    PostgresRecall(pg_dsn, get_embedder("none")).ingest(_facts("bulk", 25), (None, None))
    assert estimate() == 25
