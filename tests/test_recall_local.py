"""The local recall provider with the real offline embedding model and a real SQLite file."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow.errors import RecallError
from silcrow.models import Embedder, get_embedder
from silcrow.recall.contract import check_provider_contract
from silcrow.recall.local import LocalProvider, RecallRecord, RecallStore, _postgres
from silcrow.recall.local import _db as recall_db_module
from silcrow.recall.local import _retrieval as retrieval

DAY1 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
DAY2 = datetime(2023, 6, 12, 10, 5, tzinfo=UTC)

# A small two-person conversation. Several answers do not repeat the words of the
# question they answer, which is what indexing a turn with its preceding turns is for.
DIALOG: list[tuple[str, str, str, datetime]] = [
    ("s1", "Ana", "Hi Ben! How was your weekend?", DAY1),
    ("s1", "Ben", "Great! I finally went to the pottery workshop downtown.", DAY1),
    ("s1", "Ana", "Oh fun, what did you make there?", DAY1),
    ("s1", "Ben", "A blue bowl and a tiny vase for my mum.", DAY1),
    ("s1", "Ana", "Lovely. I adopted a puppy last week, her name is Pixel.", DAY1),
    ("s1", "Ben", "Congratulations! What breed is she?", DAY1),
    ("s1", "Ana", "A border collie, very energetic.", DAY1),
    ("s2", "Ben", "I'm training for the city marathon in October.", DAY2),
    ("s2", "Ana", "Wow. How many kilometres do you run each week?", DAY2),
    ("s2", "Ben", "About forty, split over four runs.", DAY2),
    ("s2", "Ana", "My sister Clara just moved to Lisbon for a new job.", DAY2),
    ("s2", "Ben", "Lisbon is beautiful, she will love the food.", DAY2),
]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder("onnx")  # the real model, loaded once for this module


def _records() -> list[RecallRecord]:
    return [
        RecallRecord(text=text, session_id=s, speaker=who, timestamp=when + timedelta(minutes=i),
                     external_id=f"T{i}")
        for i, (s, who, text, when) in enumerate(DIALOG)
    ]


@pytest.fixture(params=["files", "postgres"])
def home(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A home whose recall lives in its recall.db, or (postgres) in a fresh database on the test server."""
    if request.param == "postgres":
        dsn = request.getfixturevalue("pg_dsn")
        config = f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n'
        (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    return tmp_path


@pytest.fixture()
def provider(home: Path, embedder: Embedder) -> Iterator[LocalProvider]:
    p = LocalProvider(home, embedder=embedder)
    p.initialize("test-session")
    assert p.ingest(_records()) == len(DIALOG)
    yield p
    p.shutdown()


def _top_ids(p: LocalProvider, query: str, k: int, mode: str = "hybrid") -> list[str | None]:
    return [h.external_id for h in p.search(query, k, mode=mode).hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did Ben make at the pottery workshop?", "T3"),  # answer shares no content word
        ("What is the name of Ana's dog?", "T4"),
        ("What breed is Pixel?", "T6"),
        ("How far does Ben run per week?", "T9"),
        ("Where did Clara move?", "T10"),
    ],
)
def test_recall_of_an_ingested_conversation(provider: LocalProvider, query: str, expected: str) -> None:
    assert expected in _top_ids(provider, query, 3), provider.search(query, 5).hits


def test_hits_carry_the_turn_fields(provider: LocalProvider) -> None:
    hit = provider.search("Clara moved to Lisbon", 1).hits[0]
    assert hit.external_id == "T10" and hit.speaker == "Ana" and hit.session_id == "s2"
    assert hit.kind == "turn" and hit.text == DIALOG[10][2]
    assert hit.timestamp == DAY2 + timedelta(minutes=10)


def test_exact_duplicates_are_not_stored_twice(provider: LocalProvider) -> None:
    assert provider.ingest(_records()) == 0
    assert provider.stats()["memories"] == len(DIALOG)
    # Same words said again later is a new memory; the same fact twice is not.
    again = RecallRecord(text=DIALOG[0][2], session_id="s3", speaker="Ana", timestamp=DAY2)
    assert provider.ingest([again, again]) == 1
    twin = RecallRecord(text="Twice in one batch", session_id="s3", speaker="Ben", timestamp=DAY2)
    added, ids = provider.store.ingest([twin, twin], (None, None))
    assert added == 1 and ids[0] == ids[1] > 0
    assert provider.store.ingest([twin], (None, None)) == (0, ids[:1])
    first = provider.add_fact("Ana's favourite colour is green.")
    assert provider.add_fact("Ana's  favourite colour is GREEN.") == first
    assert provider.stats()["by_kind"] == {"turn": len(DIALOG) + 2, "fact": 1, "summary": 0}


def test_undated_records_from_a_source_are_not_stored_twice(tmp_path: Path) -> None:
    p = LocalProvider(tmp_path, embedder="none")
    p.initialize("s")
    records = [RecallRecord(text="hello", session_id="f", speaker="user", external_id=f"L{i}")
               for i in (1, 2)]
    assert p.ingest(records) == 2  # same words on two lines of the file: two messages
    assert p.ingest(records) == 0
    assert p.stats()["memories"] == 2
    p.shutdown()


def test_live_turns_without_a_time_are_stored_every_time(tmp_path: Path) -> None:
    p = LocalProvider(tmp_path, embedder="none")
    p.initialize("chat")
    p.sync_turn("ok", "ok")
    p.sync_turn("ok", "ok")  # said twice in one session: two exchanges, four memories
    assert p.stats()["memories"] == 4
    p.shutdown()


def test_forget_by_id_and_by_text(provider: LocalProvider) -> None:
    hit = provider.search("puppy named Pixel", 1).hits[0]
    assert provider.forget(hit.id).removed == 1
    assert "T4" not in _top_ids(provider, "puppy named Pixel", 12)
    assert provider.forget(hit.id).removed == 0  # already gone
    assert provider.forget("lisbon").removed == 2  # case-insensitive, every memory containing it
    assert all("Lisbon" not in h.text for h in provider.search("Lisbon", 12).hits)
    with pytest.raises(RecallError, match="at least 3 characters"):
        provider.forget("a")
    assert provider.stats()["memories"] == len(DIALOG) - 3


def test_tools_search_add_forget(provider: LocalProvider) -> None:
    names = [t["function"]["name"] for t in provider.get_tool_schemas()]
    assert names == ["recall_search", "recall_add", "recall_forget"]
    added = json.loads(provider.handle_tool_call("recall_add", {"fact": "Ben's mum lives in Porto."}))
    assert added["success"] is True and isinstance(added["id"], int)
    args = {"query": "Where does Ben's mother live?", "k": 3}
    found = json.loads(provider.handle_tool_call("recall_search", args))
    assert found["success"] is True and len(found["results"]) == 3
    assert found["results"][0]["id"] == added["id"] and found["results"][0]["kind"] == "fact"
    gone = json.loads(provider.handle_tool_call("recall_forget", {"id": added["id"]}))
    assert gone == {"success": True, "removed": 1}
    bad = json.loads(provider.handle_tool_call("recall_search", {"query": "  "}))
    assert bad["success"] is False and "query" in bad["error"]
    too_broad = json.loads(provider.handle_tool_call("recall_forget", {"query": "a"}))
    assert too_broad["success"] is False and "at least 3 characters" in too_broad["error"]
    provider.ingest([RecallRecord(text=f"Weekly chore number {i}", session_id="c") for i in range(25)])
    too_broad = json.loads(provider.handle_tool_call("recall_forget", {"query": "weekly chore"}))
    assert too_broad["success"] is False and "matches 25 memories" in too_broad["error"]
    assert provider.stats()["memories"] == len(DIALOG) + 25  # nothing deleted
    one = json.loads(provider.handle_tool_call("recall_forget", {"query": "chore number 7"}))
    assert one == {"success": True, "removed": 1}
    bad = json.loads(provider.handle_tool_call("recall_forget", {}))
    assert bad["success"] is False and "'id'" in bad["error"]
    bad = json.loads(provider.handle_tool_call("recall_nope", {}))
    assert bad["success"] is False and "recall_search" in bad["error"]


@pytest.mark.parametrize("bad_id", ["abc", "Lisbon", True, 2.5, [3], {"id": 3}])
def test_recall_forget_refuses_an_id_that_is_not_a_memory_id(provider: LocalProvider, bad_id: Any) -> None:
    result = json.loads(provider.handle_tool_call("recall_forget", {"id": bad_id}))
    assert result["success"] is False and "'id' must be a memory id" in result["error"], result
    assert provider.stats()["memories"] == len(DIALOG)  # never taken as text to delete


def test_recall_forget_takes_an_id_sent_as_digits(provider: LocalProvider) -> None:
    hit = provider.search("Clara moved to Lisbon", 1).hits[0]
    assert json.loads(provider.handle_tool_call("recall_forget", {"id": str(hit.id)}))["removed"] == 1
    bad = json.loads(provider.handle_tool_call("recall_forget", {"query": 42.5}))
    assert bad["success"] is False and "'query' must be text" in bad["error"]


def test_prefetch_is_compact_and_dated(provider: LocalProvider) -> None:
    text = provider.prefetch("What is Ana's sister called and where did she move?")
    lines = text.splitlines()
    assert 1 <= len(lines) <= 6 and len(text) <= 1800
    assert all(re.match(r"^\[\d{4}-\d{2}-\d{2}\] (Ana|Ben): ", line) for line in lines), lines
    assert "[2023-06-12] Ana: My sister Clara just moved to Lisbon for a new job." in lines
    dates = [line[1:11] for line in lines]
    assert dates == sorted(dates)  # shown as a timeline
    assert provider.prefetch("   ") == ""


def test_prefetch_leaves_out_what_the_conversation_still_shows(home: Path, embedder: Embedder) -> None:
    p = LocalProvider(home, embedder=embedder)
    p.initialize("s2")  # the current session: its turns are in the model's context
    p.ingest(_records())
    text = p.prefetch("Where did Ana's sister Clara move for her job?")
    assert "Clara" not in text and "Lisbon" not in text  # s2's own turns are not repeated
    p.add_fact("Ana's sister Clara works as an architect.")  # saved by a tool call of this session
    assert "architect" not in p.prefetch("What does Clara work as?")
    assert "Clara" in p.prefetch("Where did Ana's sister Clara move?", session_id="other")
    p.on_pre_compress([{"role": "user", "content": "Tell me about Clara"}])
    # once compression folded them into a summary, this session's memories come back
    after = p.prefetch("Where did Ana's sister Clara move for her job?")
    assert "My sister Clara just moved to Lisbon for a new job." in after
    p.shutdown()


def test_prefetch_leaves_out_memories_unrelated_to_the_message(provider: LocalProvider) -> None:
    assert provider.prefetch("How do I configure TLS on the Kubernetes ingress controller?") == ""
    assert "Pixel" in provider.prefetch("What is the name of Ana's puppy?")
    # search (the model's recall_search tool) still ranks everything it was asked to
    assert len(provider.search("How do I configure TLS on the Kubernetes ingress controller?", 3).hits) == 3


def test_tenant_scope_filters_search(home: Path, embedder: Embedder) -> None:
    alice = LocalProvider(home, embedder=embedder)
    alice.initialize("s", user_id="alice")
    bob = LocalProvider(home, embedder=embedder)
    bob.initialize("s", user_id="bob")
    alice.add_fact("My locker code is 4417.")
    bob.add_fact("I keep my bike in the garage.")
    assert [h.text for h in alice.search("locker code", 5).hits] == ["My locker code is 4417."]
    assert all("4417" not in h.text for h in bob.search("locker code", 5).hits)
    assert bob.forget("locker").removed == 0  # cannot delete another tenant's memories
    assert alice.stats()["memories"] == 1 and alice.stats()["all_scopes_memories"] == 2
    alice.shutdown()
    bob.shutdown()


def test_sync_turn_and_curated_mirror(home: Path, embedder: Embedder) -> None:
    p = LocalProvider(home, embedder=embedder)
    p.initialize("chat-1")
    p.sync_turn("I started learning the cello.", "How exciting! How long have you played?")
    hits = p.search("What instrument is the user learning?", 2).hits
    assert hits[0].speaker == "user" and hits[0].session_id == "chat-1" and "cello" in hits[0].text
    p.on_memory_write("add", "user", "Prefers tea over coffee")
    assert p.search("tea or coffee", 1).hits[0].kind == "fact"
    p.on_memory_write("remove", "user", "tea over")
    assert all(h.kind != "fact" for h in p.search("tea or coffee", 5).hits)
    assert "cello" in p.on_pre_compress([{"role": "user", "content": "remind me about the cello"}])
    p.shutdown()


def test_lexical_only_mode(home: Path, embedder: Embedder) -> None:
    p = LocalProvider(home, embedder="none")
    p.initialize("s")
    p.ingest(_records())
    assert p.stats()["embedded"] == 0
    assert _top_ids(p, "pottery workshop", 1) == ["T1"]
    assert p.search("zzz qqq", 5).hits == ()
    p.shutdown()
    # Reopened with the model, the store embeds what it lacks and dense search works.
    dense = LocalProvider(home, embedder=embedder)
    dense.initialize("s")
    assert dense.stats()["embedded"] == len(DIALOG)
    assert "T4" in _top_ids(dense, "a young dog", 3, mode="dense")
    dense.shutdown()


def test_migrations_are_recorded_in_the_database(tmp_path: Path, embedder: Embedder) -> None:
    provider = LocalProvider(tmp_path, embedder=embedder)
    provider.initialize("s")
    conn = sqlite3.connect(tmp_path / "recall.db")
    rows = conn.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert rows == [(v, n) for v, n, _ in recall_db_module.MIGRATIONS]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    assert provider.stats()["schema_version"] == recall_db_module.SCHEMA_VERSION


def test_newer_schema_is_refused(tmp_path: Path, embedder: Embedder) -> None:
    LocalProvider(tmp_path, embedder="none").initialize("s")
    conn = sqlite3.connect(tmp_path / "recall.db")
    conn.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', 0)")
    conn.commit()
    conn.close()
    with pytest.raises(RecallError, match="newer than this silcrow knows"):
        LocalProvider(tmp_path, embedder="none").initialize("s")


def test_not_a_database_is_explained(tmp_path: Path) -> None:
    (tmp_path / "recall.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(RecallError, match="move it aside"):
        LocalProvider(tmp_path, embedder="none").initialize("s")


def test_odd_records_are_clipped_repaired_or_skipped_and_the_rest_stored(provider: LocalProvider) -> None:
    """Every odd record of a batch is handled alone and counted; the others are stored (both backends)."""
    from collections import Counter

    from silcrow.recall import MAX_RECORD_CHARS

    long = "The harbour pilot's log. " * (MAX_RECORD_CHARS // 20)
    given = [
        RecallRecord(text="Dunmore harbour has a new pilot boat.", session_id="odd"),
        RecallRecord(text=long, session_id="odd"),
        RecallRecord(text="  ", session_id="odd"),
        RecallRecord(text="a NUL\x00 byte from a binary paste about quinces", session_id="odd"),
        RecallRecord(text="half an emoji \ud83d about medlars", session_id="odd", speaker="\udc00bob"),
        RecallRecord(text="From 7000 years ago to about 4000 years ago, farming spread.", session_id="odd",
                     timestamp=datetime(2024, 1, 2, tzinfo=UTC)),
    ]
    skipped: Counter[str] = Counter()
    assert provider.ingest(given, skipped=skipped) == 5
    assert skipped == {
        f"ends of long messages (kept their first {MAX_RECORD_CHARS} characters)": 1,
        "messages without text": 1,
        "messages holding NUL characters (removed)": 1,
        "messages holding lone surrogates (replaced with U+FFFD)": 1,
    }
    assert given[1].text == long and given[3].text.count("\x00") == 1  # the caller's records are untouched
    texts = {h.text for h in provider.search("quinces medlars farming pilot log", 20).hits}
    assert "a NUL byte from a binary paste about quinces" in texts
    assert "half an emoji \ufffd about medlars" in texts
    assert any(t.startswith("The harbour pilot") and len(t) == MAX_RECORD_CHARS for t in texts)
    assert any("7000 years ago" in t for t in texts)
    with pytest.raises(RecallError, match="kind 'note'"):  # a programming error still raises
        provider.ingest([RecallRecord(text="x", kind="note")])


def test_fts_syntax_in_queries_is_plain_text(provider: LocalProvider) -> None:
    for query in ['"unbalanced', "NEAR(pottery", "body:vase OR", "*", "AND OR NOT", "pottery^"]:
        provider.search(query, 3)  # must not raise an FTS5 syntax error


def test_provider_contract(tmp_path: Path, embedder: Embedder) -> None:
    check_provider_contract(LocalProvider(embedder=embedder), tmp_path)


def test_common_terms_are_skipped_on_large_stores(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Scaled down: a term in more than 20% of >= 10 rows counts as too common to score.
    monkeypatch.setattr(retrieval, "DF_FLOOR", 10)
    monkeypatch.setattr(retrieval, "DF_FRACTION", 0.2)
    p = LocalProvider(home, embedder="none")
    p.initialize("s")
    p.ingest([RecallRecord(text=f"the weather report number {i} says rain") for i in range(40)]
             + [RecallRecord(text="the weather report mentions a rainbow over Lyon")])
    hits = p.search("weather report about Lyon", 5).hits
    assert [h.text for h in hits] == ["the weather report mentions a rainbow over Lyon"]
    store = p.store
    if isinstance(store, RecallStore):  # learnt by probing the index, kept until the store grows
        assert store.lexical.common == {"weather": (True, 41), "report": (True, 41), "lyon": (False, 41)}
    else:  # PostgreSQL reads the exact count of each word, kept by a trigger, on every search
        with psycopg.connect(store.db.dsn) as conn:
            counted = dict(conn.execute("SELECT lexeme, memories FROM silcrow.recall_terms"
                                        " WHERE lexeme = ANY(%s)", (["weather", "report", "lyon"],)))
        assert counted == {"weather": 41, "report": 41, "lyon": 1}
    assert len(p.search("weather report", 5).hits) == 5  # only common words: lexical-only still answers
    p.shutdown()


def test_initialize_with_another_home_reopens(tmp_path: Path) -> None:
    p = LocalProvider(tmp_path / "one", embedder="none")
    p.initialize("s")
    p.add_fact("Fact kept in home one.")
    p.initialize("s", home=tmp_path / "two")
    assert p.search("fact kept", 5).hits == () and p.stats()["db_path"] == str(tmp_path / "two" / "recall.db")
    p.initialize("s", home=tmp_path / "one")
    assert len(p.search("fact kept", 5).hits) == 1
    p.shutdown()


def test_queue_prefetch_warms_the_query_cache(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "what did Ben make at the workshop"
    embedder = provider.store.embedder
    calls: list[list[str]] = []
    real = embedder._embed_batch

    def counting(texts: list[str]) -> Any:
        calls.append(texts)
        return real(texts)

    monkeypatch.setattr(embedder, "_embed_batch", counting)
    embedder._query_cache.pop(query, None)  # the embedder is shared by the module's tests
    provider.queue_prefetch(query)
    assert calls == [[query]]
    assert "blue bowl" in provider.prefetch(query)
    assert calls == [[query]]  # prefetch found the query vector ready


class _LetterCounts(Embedder):
    """A tiny deterministic embedder (letter histogram), standing in for "another model"."""

    name = "letter-counts"
    dim = 26

    def _embed_batch(self, texts: list[str]) -> Any:
        import numpy as np

        out = np.zeros((len(texts), 26), dtype=np.float32)
        for row, text in enumerate(texts):
            for ch in text.lower():
                if "a" <= ch <= "z":
                    out[row, ord(ch) - 97] += 1.0
        out[:, 0] += 1e-3  # no all-zero rows
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def test_changing_the_embedder_re_embeds(tmp_path: Path, embedder: Embedder) -> None:
    p = LocalProvider(tmp_path, embedder=embedder)
    p.initialize("s")
    p.ingest(_records())
    p.shutdown()
    other = LocalProvider(tmp_path, embedder=_LetterCounts())
    other.initialize("s")
    stats = other.stats()
    assert stats["embedded"] == len(DIALOG) and stats["dim"] == 26 and stats["index_rows"] == len(DIALOG)
    conn = sqlite3.connect(tmp_path / "recall.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()[0] == "letter-counts/26"
    assert {len(v) for (v,) in conn.execute("SELECT vector FROM embeddings")} == {26 * 4}
    conn.close()
    other.shutdown()
    back = LocalProvider(tmp_path, embedder=embedder)
    back.initialize("s")
    assert back.stats()["embedded"] == len(DIALOG)
    assert "T4" in _top_ids(back, "a young dog", 3, mode="dense")  # MiniLM vectors again
    back.shutdown()


def test_fusion_is_a_search_parameter(provider: LocalProvider) -> None:
    provider.ingest([
        RecallRecord(text="Zebulon keeps a tortoise called Quasar.", kind="fact"),
        RecallRecord(text="The team ships releases on Fridays.", kind="fact"),
    ])
    for fusion in ("score", "rrf"):
        hits = provider.search("Zebulon tortoise Quasar", 2, fusion=fusion).hits
        assert hits[0].text.startswith("Zebulon keeps"), fusion
    score = [h.score for h in provider.search("Zebulon tortoise Quasar", 2).hits]
    rrf = [h.score for h in provider.search("Zebulon tortoise Quasar", 2, fusion="rrf").hits]
    assert score != rrf and max(rrf) < 0.05  # reciprocal ranks are small: the choice took effect
    with pytest.raises(RecallError, match="unknown fusion 'mean'"):
        provider.search("cat", 2, fusion="mean")


def test_both_backends_rank_the_same_data_the_same_way(
    tmp_path: Path, embedder: Embedder, pg_dsn: str
) -> None:
    """One scoring for both: SQLite and PostgreSQL return the same turns in the same order."""
    _assert_same_ranking(tmp_path, embedder, pg_dsn, _records(), 6, (
        "What did Ben make at the pottery workshop?", "Where did Clara move?",
        "How many kilometres does Ben run?", "Ana's puppy breed",
    ))


def _assert_same_ranking(tmp_path: Path, embedder: Embedder, pg_dsn: str, records: list[RecallRecord],
                         k: int, queries: tuple[str, ...]) -> None:
    """``records`` in a recall.db and in PostgreSQL: each query's top ``k`` (ids and scores) match."""
    pg_home = tmp_path / "pg"
    pg_home.mkdir()
    (pg_home / "config.toml").write_text(
        f'[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n', encoding="utf-8"
    )
    stores = [LocalProvider(tmp_path / "files", embedder=embedder), LocalProvider(pg_home, embedder=embedder)]
    for p in stores:
        p.initialize("parity")
        p.ingest(records)
    try:
        for query in queries:
            sqlite_hits, pg_hits = (p.search(query, k).hits for p in stores)
            assert len(sqlite_hits) == min(k, len(records)), query
            assert [h.external_id for h in sqlite_hits] == [h.external_id for h in pg_hits], query
            assert [round(h.score, 3) for h in sqlite_hits] == [round(h.score, 3) for h in pg_hits], query
    finally:
        for p in stores:
            p.shutdown()


def test_both_backends_rank_the_same_when_more_memories_match_than_are_ranked(
    tmp_path: Path, embedder: Embedder, pg_dsn: str
) -> None:
    """More matches than the search's candidate pool: each side still hands fusion the same
    candidates (a longer lexical list on one side would normalise its scores differently)."""
    crops = ["tomatoes", "beans", "squash", "garlic", "basil", "carrots", "onions", "kale"]
    records = [
        RecallRecord(text=f"Note {i}: in the garden the {crops[i % 8]} bed got {i % 7 + 1} cans of water"
                          + (" and the tomatoes were staked" if i % 9 == 0 else ""),
                     session_id=f"s{i // 10}", speaker="Ana" if i % 2 else "Ben",
                     timestamp=datetime(2026, 5, 1, 9) + timedelta(hours=i), external_id=f"G{i}")
        for i in range(retrieval.POOL * 3)
    ]
    _assert_same_ranking(tmp_path, embedder, pg_dsn, records, 10, (
        "garden water tomatoes staked", "how much water did the garlic bed get?",
        "what did Ana water in the garden?",
    ))


def test_a_bulk_postgres_import_builds_the_vector_index_once_afterwards(
    pg_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above BULK_ROWS (into a table holding fewer rows) the HNSW and word indexes are dropped for
    the import and built after it, also when the import fails; the rows are searchable by meaning
    and by words either way."""
    from silcrow.schema import database

    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    store = _postgres.PostgresRecall(pg_dsn, embedder)
    indexes = [f"recall_memories_hnsw_{embedder.dim}", "recall_memories_search"]

    def has_index() -> bool:
        with database(pg_dsn).connect() as conn:
            rows = conn.execute("SELECT indexname FROM pg_indexes WHERE indexname = ANY(%s)",
                                (indexes,)).fetchall()
            assert len(rows) in (0, 2), rows  # both dropped, or both there
            return bool(rows)

    seen: list[bool] = []
    records = [RecallRecord(text=f"note {i}: the allotment's runner beans, row {i}", session_id="bulk")
               for i in range(30)] + _records()
    added, ids = store.ingest(records, (None, None), progress=lambda done: seen.append(has_index()))
    assert added == len(records) and len(set(ids)) == len(records)
    assert seen and not any(seen)  # built after the rows, not row by row
    assert has_index()
    top = store.search("which pottery class did she sign up for", 3, (None, None), mode="dense")
    assert top and top[0].text == next(t for _, _, t, _ in DIALOG if "pottery" in t.lower())
    words = store.search("pottery", 3, (None, None), mode="lexical")
    assert words and words[0].text == top[0].text

    def broken(fresh: list[dict[str, Any]], vectors: Any, turn: Any) -> int:
        raise RecallError("disk full")

    monkeypatch.setattr(_postgres, "BULK_ROWS", 5)
    bigger = [RecallRecord(text=f"reminder {i} about the shed key", session_id="bulk2") for i in range(80)]
    monkeypatch.setattr(store, "_write", broken)
    with pytest.raises(RecallError, match="disk full"):
        store.ingest(bigger, (None, None))
    assert has_index()  # back, though the import failed
    store.close()



def test_a_bulk_postgres_reimport_that_adds_nothing_keeps_the_vector_index(
    pg_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-reading an import already stored writes no row, so it neither drops the HNSW index
    (searches meanwhile would scan every vector) nor spends a build on the same rows."""
    from silcrow.schema import database

    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    store = _postgres.PostgresRecall(pg_dsn, embedder)
    index = f"recall_memories_hnsw_{embedder.dim}"

    def index_oid() -> int | None:
        with database(pg_dsn).connect() as conn:
            row = conn.execute("SELECT to_regclass(%s)::oid", (f"silcrow.{index}",)).fetchone()
            return row[0] if row else None

    records = [RecallRecord(text=f"entry {i}: the kiln reached cone {i % 10}", session_id="kiln",
                            external_id=f"K{i}") for i in range(40)]
    assert store.ingest(records, (None, None))[0] == 40
    built = index_oid()
    assert built is not None
    seen: list[int | None] = []
    added, _ = store.ingest(records, (None, None), progress=lambda done: seen.append(index_oid()))
    assert added == 0
    assert seen and all(oid == built for oid in seen) and index_oid() == built
    more = [*records, *(RecallRecord(text=f"entry {i}: glaze test tile {i}", session_id="kiln",
                                     external_id=f"K{i}") for i in range(40, 80))]
    assert store.ingest(more, (None, None))[0] == 40  # new rows: built again, once
    assert index_oid() not in (None, built)
    store.close()



def test_a_bulk_postgres_import_is_on_disk_when_it_returns(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batches of a bulk import commit without waiting for the disk; the import's return
    must still mean durable: the server's WAL is flushed past the last batch's rows."""
    from silcrow.schema import database

    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    monkeypatch.setattr(_postgres, "BATCH", 16)
    store = _postgres.PostgresRecall(pg_dsn, get_embedder("none"))
    written: list[str] = []

    def lsn(sql: str) -> str:
        with database(pg_dsn).connect() as conn:
            return str(conn.execute(sql).fetchone()[0])

    # Into a table holding more than it adds, an import rebuilds no index at the end, whose
    # commit would flush the WAL anyway.
    store.ingest([RecallRecord(text=f"note {i} on the orchard", session_id="orchard") for i in range(100)],
                 (None, None))
    with database(pg_dsn).connect() as conn:
        conn.execute("ANALYZE silcrow.recall_memories")
    records = [RecallRecord(text=f"log {i}: the bees swarmed near hive {i % 4}", session_id="hives")
               for i in range(70)]
    store.ingest(records, (None, None), progress=lambda done: written.append(lsn(
        "SELECT pg_current_wal_insert_lsn()")))
    flushed = lsn("SELECT pg_current_wal_flush_lsn()")
    assert len(written) == 5  # 70 rows in batches of 16
    with database(pg_dsn).connect() as conn:
        assert conn.execute("SELECT %s::pg_lsn >= %s::pg_lsn", (flushed, written[-1])).fetchone()[0]
    store.close()



def test_a_bulk_postgres_import_cut_by_a_server_crash_is_completed_by_running_it_again(
    pg_server: Any, pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash may take the latest batches of an import that commits them asynchronously; the
    same import run again stores exactly what is missing, and a third run adds nothing."""
    import contextlib

    from silcrow.schema import database

    monkeypatch.setattr(_postgres, "BULK_ROWS", 20)
    monkeypatch.setattr(_postgres, "BATCH", 16)
    store = _postgres.PostgresRecall(pg_dsn, get_embedder("none"))
    records = [RecallRecord(text=f"day {i}: the sourdough starter rose {i % 5} cm",
                            session_id=f"bake{i // 25}", external_id=f"B{i}") for i in range(90)]
    crashed: list[int] = []

    def crash_midway(done: int) -> None:
        if not crashed and done >= 32:
            crashed.append(done)
            pg_server.crash()

    with contextlib.suppress(RecallError):  # the write after the crash may or may not get through
        store.ingest(records, (None, None), progress=crash_midway)
    assert crashed

    def stored() -> int:
        with database(pg_dsn).connect() as conn:
            return int(conn.execute("SELECT count(*) FROM silcrow.recall_memories").fetchone()[0])

    before = stored()
    added, ids = store.ingest(records, (None, None))
    assert before + added == len(records) == stored() and len(set(ids)) == len(records)
    assert store.ingest(records, (None, None))[0] == 0
    store.close()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.builds(
    RecallRecord,
    text=st.text(st.characters(codec=None, exclude_categories=()), max_size=60)
    | st.text(max_size=5).map(lambda t: t * 4000),
    session_id=st.sampled_from(["", "s1", "s\x002", "\ud800"]),
    speaker=st.sampled_from(["", "user", "assistant", "bo\udfffb"]),
    timestamp=st.none() | st.datetimes(timezones=st.just(UTC)),
), min_size=1, max_size=8))
def test_ingest_fuzzed_stores_every_record_with_text(records: list[RecallRecord]) -> None:
    """Whatever the records hold, ingest stores those with text and reports the rest; never raises."""
    import tempfile
    from collections import Counter

    with tempfile.TemporaryDirectory() as home:
        provider = LocalProvider(home, embedder="none")
        provider.initialize("fuzz")
        skipped: Counter[str] = Counter()
        added = provider.ingest(records, skipped=skipped)
        with_text = [r for r in records if r.text.replace("\x00", "").strip()]
        assert skipped["messages without text"] == len(records) - len(with_text)
        assert added <= len(with_text) and provider.stats()["memories"] == added
        provider.shutdown()
