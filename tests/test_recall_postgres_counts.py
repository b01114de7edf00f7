"""The PostgreSQL recall store's bookkeeping for fast search: each profile's number of memories
(``recall_counts``) and of memories holding each word (``recall_terms``), both kept by triggers,
and planner statistics refreshed after a large ingest."""

from __future__ import annotations

import multiprocessing

import pg_support
import psycopg
import pytest

from silcrow.models import get_embedder
from silcrow.recall.local import MemoryFilter, PostgresRecall, RecallRecord, _postgres

CTX = multiprocessing.get_context("spawn")


def _counts(dsn: str) -> tuple[dict[str, int], dict[str, int]]:
    """(what recall_counts says, what counting the rows says), per profile; and recall_terms
    must hold what counting the words of the rows says."""
    with psycopg.connect(dsn) as conn:
        kept = dict(conn.execute("SELECT profile, memories FROM silcrow.recall_counts WHERE memories > 0"))
        real = dict(conn.execute("SELECT profile, count(*) FROM silcrow.recall_memories GROUP BY profile"))
    assert _terms(dsn) == _words(dsn)
    return {str(k): int(v) for k, v in kept.items()}, {str(k): int(v) for k, v in real.items()}


def _terms(dsn: str) -> dict[tuple[str, str], int]:
    """What recall_terms says: (profile, lexeme) -> memories holding it."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT profile, lexeme, memories FROM silcrow.recall_terms WHERE memories <> 0")
        return {(str(p), str(w)): int(n) for p, w, n in rows}


def _words(dsn: str) -> dict[tuple[str, str], int]:
    """What counting the words of the rows says: (profile, lexeme) -> memories holding it."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT r.profile, w.lexeme, count(*) FROM silcrow.recall_memories AS r,"
                            " unnest(r.search) AS w GROUP BY 1, 2")
        return {(str(p), str(w)): int(n) for p, w, n in rows}


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
    assert _terms(pg_dsn)[("alice", "harbour")] == 6 and _terms(pg_dsn)[("bob", "harbour")] == 3
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


def test_word_counts_follow_updates_of_the_indexed_texts_and_of_the_vectors(pg_dsn: str) -> None:
    store = PostgresRecall(pg_dsn, get_embedder("none"), "alice")
    store.ingest(_facts("alice", 4), (None, None))
    with psycopg.connect(pg_dsn) as conn:
        conn.execute("UPDATE silcrow.recall_memories SET body = replace(body, 'harbour', 'lagoon')"
                     " WHERE text LIKE '%number 1 %' OR text LIKE '%number 2 %'")
    _counts(pg_dsn)
    assert _terms(pg_dsn)[("alice", "harbour")] == 2 and _terms(pg_dsn)[("alice", "lagoon")] == 2
    # Vectors cleared for a model change (one UPDATE of every row), then filled (one per row):
    # the words stay as they were.
    before = _terms(pg_dsn)
    with psycopg.connect(pg_dsn) as conn:
        conn.execute("UPDATE silcrow.recall_memories SET embedding = NULL")
    PostgresRecall(pg_dsn, get_embedder("onnx"), "alice")
    assert _terms(pg_dsn) == before
    _counts(pg_dsn)


def test_search_takes_each_words_count_from_the_kept_counts(pg_dsn: str) -> None:
    """BM25's idf of a word takes its count from recall_terms, not from reading the memories."""
    store = PostgresRecall(pg_dsn, get_embedder("none"), "alice")
    store.ingest([*_facts("alice", 20), RecallRecord(text="the lighthouse keeper waved", kind="fact")],
                 (None, None))
    before = [(h.text, h.score) for h in store.search("lighthouse harbour", 5, (None, None), mode="lexical")]
    with psycopg.connect(pg_dsn) as conn:
        conn.execute("UPDATE silcrow.recall_terms SET memories = 1"
                     " WHERE profile = 'alice' AND lexeme = 'harbour'")
    after = [(h.text, h.score) for h in store.search("lighthouse harbour", 5, (None, None), mode="lexical")]
    assert [t for t, _ in before] == [t for t, _ in after] and before != after


def test_a_word_the_parser_splits_is_counted_in_the_index(pg_dsn: str) -> None:
    """"x²y" is one query term but two lexemes ('x' <-> 'y'): no single count is kept for it."""
    store = PostgresRecall(pg_dsn, get_embedder("none"), "alice")
    store.ingest([RecallRecord(text="the x²y term of the formula", kind="fact"),
                  RecallRecord(text="the x axis and the y axis", kind="fact"),
                  *_facts("alice", 3)], (None, None))
    hits = store.search("x²y", 5, (None, None), mode="lexical")
    assert [h.text for h in hits] == ["the x²y term of the formula"]


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


def test_a_search_outside_a_transaction_comes_back_after_a_server_restart(
    pg_server: pg_support.PgServer, pg_dsn: str
) -> None:
    """A search takes a pooled connection without BEGIN (no round trip tests it first): one the
    restart cut fails at its first statement, and the search is run again on a fresh one."""
    store = PostgresRecall(pg_dsn, get_embedder("onnx"), "alice")
    store.ingest([*_facts("alice", 5), RecallRecord(text="the lighthouse keeper waved", kind="fact")],
                 (None, None))
    assert store.search("lighthouse", 1, (None, None))[0].text == "the lighthouse keeper waved"
    pg_server.restart()
    assert store.search("lighthouse", 1, (None, None))[0].text == "the lighthouse keeper waved"
    assert len(store.search("harbour", 3, (None, None), mode="lexical")) == 3
