"""SessionStore on a real SQLite file: transcripts, branches, compaction, search."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_support import session_backends

from silcrow.errors import SessionError
from silcrow.sessions import SCHEMA_VERSION, SUMMARY_MARKER, SessionBackend, SessionStore, fts_query


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionBackend]:
    yield from session_backends(request, tmp_path)


def _turns(store: SessionBackend, sid: str, *pairs: tuple[str, str]) -> list[int]:
    ids = []
    for user, assistant in pairs:
        ids.append(store.append(sid, {"role": "user", "content": user}))
        ids.append(store.append(sid, {"role": "assistant", "content": assistant}))
    return ids


def test_file_is_wal_with_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "home" / "sessions.db"
    SessionStore(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    assert row[0] == str(SCHEMA_VERSION)
    conn.close()
    SessionStore(path).close()  # reopening an existing file is fine


def test_newer_schema_and_garbage_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SessionError, match="upgrade silcrow"):
        SessionStore(path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(SessionError, match="move it aside"):
        SessionStore(junk)


def test_create_append_messages_roundtrip(store: SessionBackend) -> None:
    sid = store.create(system_prompt="SYSTEM v1")
    calls = [{"id": "call_1", "type": "function", "function": {"name": "memory", "arguments": '{"a": 1}'}}]
    m1 = store.append(sid, {"role": "user", "content": "Remember: I like green tea §",
                            "recall_block": "<memory-context>x</memory-context>"})
    m2 = store.append(sid, {"role": "assistant", "content": None, "tool_calls": calls})
    m3 = store.append(sid, {"role": "tool", "content": '{"ok": true}', "tool_call_id": "call_1",
                            "name": "memory"})
    msgs = store.messages(sid)
    assert [m["id"] for m in msgs] == [m1, m2, m3]
    assert msgs[0]["content"] == "Remember: I like green tea §"
    assert msgs[0]["recall_block"] == "<memory-context>x</memory-context>"
    assert "content" not in msgs[1] and msgs[1]["tool_calls"] == calls  # None fields omitted
    assert msgs[2]["tool_call_id"] == "call_1" and msgs[2]["name"] == "memory"
    assert all("created_at" in m for m in msgs)
    info = store.get(sid)
    assert info.system_prompt == "SYSTEM v1" and info.message_count == 3 and info.parent_id is None
    assert info.title == "Remember: I like green tea §"  # named by the first user message
    store.set_system_prompt(sid, None)
    assert store.get(sid).system_prompt is None


def test_persists_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SessionStore(path) as s:
        sid = s.create(title="kept")
        s.append(sid, {"role": "user", "content": "durable words"})
    with SessionStore(path) as s:
        assert s.latest() == sid
        assert s.messages(sid)[0]["content"] == "durable words"
        assert s.search("durable")[0]["session_id"] == sid


def test_unknown_ids_and_bad_messages_explain_themselves(store: SessionBackend) -> None:
    for call in (lambda: store.get("nope"), lambda: store.messages("nope"),
                 lambda: store.append("nope", {"role": "user", "content": "x"}),
                 lambda: store.branch("nope"), lambda: store.create(parent_id="nope")):
        with pytest.raises(SessionError, match="silcrow sessions list"):
            call()
    sid = store.create()
    with pytest.raises(SessionError, match="role must be one of"):
        store.append(sid, {"role": "wizard", "content": "x"})
    with pytest.raises(SessionError, match="unknown message fields"):
        store.append(sid, {"role": "user", "contents": "typo"})
    with pytest.raises(SessionError, match="content must be a string"):
        store.append(sid, {"role": "user", "content": 42})
    with pytest.raises(SessionError, match="tool_calls must be a list"):
        store.append(sid, {"role": "assistant", "tool_calls": "memory()"})
    with pytest.raises(SessionError, match="cannot be stored as JSON"):
        store.append(sid, {"role": "assistant", "tool_calls": [{"f": object()}]})
    with pytest.raises(SessionError, match="has no message"):
        store.around(sid, 999)
    assert store.messages(sid) == []  # nothing half-stored


def test_resolve_prefix(store: SessionBackend) -> None:
    a = store.create()
    assert store.resolve(a) == a
    assert store.resolve(a[:-2]) == a
    with pytest.raises(SessionError, match="no session"):
        store.resolve("zzz")
    b = store.create()
    common = a[: next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), len(a))]
    if common and a != b:
        with pytest.raises(SessionError, match="ambiguous"):
            store.resolve(common)


def test_list_and_latest_order_by_activity(store: SessionBackend) -> None:
    assert store.latest() is None and store.list() == []
    a = store.create(title="A")
    b = store.create(title="B")
    store.append(a, {"role": "user", "content": "newest activity"})
    assert store.latest() == a
    listed = store.list()
    assert [i.id for i in listed] == [a, b]
    assert listed[0].message_count == 1 and listed[1].message_count == 0
    assert len(store.list(limit=1)) == 1


def test_branch_copies_active_history_and_diverges(store: SessionBackend) -> None:
    a = store.create(title="root", system_prompt="cached")
    _turns(store, a, ("first question", "first answer"), ("second question", "second answer"))
    b = store.branch(a)
    info = store.get(b)
    assert info.parent_id == a and info.root_id == store.get(a).root_id == a
    assert info.system_prompt is None  # a branch rebuilds its prompt
    strip = [{k: v for k, v in m.items() if k != "id"} for m in store.messages(a)]
    assert [{k: v for k, v in m.items() if k != "id"} for m in store.messages(b)] == strip
    store.append(b, {"role": "user", "content": "only in the branch"})
    store.append(a, {"role": "user", "content": "only in the parent"})
    assert store.messages(b)[-1]["content"] == "only in the branch"
    assert store.messages(a)[-1]["content"] == "only in the parent"
    assert store.get(a).message_count == store.get(b).message_count == 5
    c = store.branch(b)
    assert store.get(c).root_id == a  # lineage is transitive


def test_compact_marks_middle_and_keeps_it_searchable(store: SessionBackend) -> None:
    sid = store.create()
    ids = _turns(store, sid, ("alpha opening", "a1"), ("bravo middle xylophone", "b1"),
                 ("charlie middle", "c1"), ("delta recent", "d1"))
    n = store.compact(sid, keep_head=2, keep_tail=2, summary="They talked about bravo and charlie.")
    assert n == 4
    active = store.messages(sid)
    assert [m["id"] for m in active[:2]] == ids[:2] and [m["id"] for m in active[-2:]] == ids[-2:]
    summary = active[2]
    assert summary["summary"] is True
    assert summary["content"].startswith(SUMMARY_MARKER.format(n=4))
    assert summary["content"].endswith("They talked about bravo and charlie.")
    assert store.get(sid).message_count == 5
    hit = store.search("xylophone")[0]
    assert hit["message_id"] == ids[2]
    around = store.around(sid, ids[2], window=1)
    assert [m["id"] for m in around] == [ids[1], ids[2], ids[3]]
    assert around[1]["compacted"] is True and "compacted" not in around[0]
    # New messages go after the tail, and a second compaction folds the first summary in.
    store.append(sid, {"role": "user", "content": "echo newest"})
    assert store.messages(sid)[-1]["content"] == "echo newest"
    assert store.compact(sid, keep_head=1, keep_tail=1, summary="second") == 4
    contents = [m.get("content") for m in store.messages(sid)]
    assert contents[0] == "alpha opening" and contents[-1] == "echo newest" and len(contents) == 3
    assert store.compact(sid, keep_head=1, keep_tail=5, summary="nothing") == 0


def test_compact_never_splits_tool_call_from_results(store: SessionBackend) -> None:
    sid = store.create()
    call = [{"id": "c1", "type": "function", "function": {"name": "memory", "arguments": "{}"}}]
    store.append(sid, {"role": "user", "content": "u1"})
    store.append(sid, {"role": "assistant", "content": None, "tool_calls": call})
    store.append(sid, {"role": "tool", "content": "r1", "tool_call_id": "c1"})
    store.append(sid, {"role": "assistant", "content": "a1"})
    store.append(sid, {"role": "user", "content": "u2"})
    store.append(sid, {"role": "assistant", "content": None, "tool_calls": call})
    store.append(sid, {"role": "tool", "content": "r2", "tool_call_id": "c1"})
    store.append(sid, {"role": "assistant", "content": "a2"})
    # head=2 would end on a tool call and tail=2 would start with a tool result.
    store.compact(sid, keep_head=2, keep_tail=2, summary="s")
    roles = [m["role"] for m in store.messages(sid)]
    for i, role in enumerate(roles):
        if role == "tool":
            assert roles[i - 1] in ("assistant", "tool")
    msgs = store.messages(sid)
    assert msgs[1].get("tool_calls") and msgs[2]["role"] == "tool"  # head kept its results
    assert msgs[-3].get("tool_calls") and msgs[-2]["role"] == "tool"  # tail kept its call


def test_search_ranks_and_dedups_by_lineage(store: SessionBackend) -> None:
    a = store.create(title="gardening")
    _turns(store, a, ("my tomato plants need more sun", "move them south"))
    b = store.branch(a)
    store.append(b, {"role": "user", "content": "tomato tomato blight on the tomato leaves"})
    c = store.branch(b)
    d = store.create(title="cooking")
    _turns(store, d, ("a tomato soup recipe", "use ripe ones"))
    other = store.create()
    _turns(store, other, ("nothing relevant here", "indeed"))

    hits = store.search("tomato")
    by_session = [h["session_id"] for h in hits]
    assert len(hits) == 2  # one per lineage: {a, b, c} and {d}
    assert len({store.get(s).root_id for s in by_session}) == 2
    best = hits[0]
    assert best["session_id"] in (b, c) and "blight" in best["snippet"]
    assert "**tomato**" in best["snippet"]
    assert best["role"] == "user" and best["date"] == best["created_at"][:10]
    assert set(best) >= {"session_id", "title", "date", "snippet", "message_id", "role"}
    assert hits[0]["score"] >= hits[1]["score"]
    assert store.search("recipe")[0]["session_id"] == d
    assert store.search("tomato", limit=1) == hits[:1]
    assert [h["session_id"] for h in store.search("tomato", exclude=[d])] == [by_session[0]]
    assert store.search("unfindableword") == []


def test_search_skips_tool_output(store: SessionBackend) -> None:
    sid = store.create()
    store.append(sid, {"role": "tool", "content": "zeppelin in a tool result", "tool_call_id": "x"})
    assert store.search("zeppelin") == []


@pytest.mark.parametrize(("query", "found"), [
    ('"', None), ("AND", 1), ("OR NOT", 0), ("NEAR(a b)", 1), ("tea*", 1), ("col:tea", 0), ("-tea", 1),
    ("(tea", 1), ("tea)", 1), ("^tea", 1), ("tea + coffee", 1), ("'; DROP TABLE messages; --", 0),
    ("unicode", 1), ("C++", 1), ('a"b', 1), ("{x}", 1), ("tea AND", 1), ("*", None), ("", None),
])
def test_fts_special_characters_never_break_search(
    store: SessionBackend, query: str, found: int | None
) -> None:
    sid = store.create()
    store.append(sid, {"role": "user", "content": 'tea and coffee, NEAR the C++ code; ünïcode a"b {x}'})
    if found is None:
        with pytest.raises(SessionError, match="no words"):
            store.search(query)
    else:
        assert len(store.search(query)) == found
    assert len(store.messages(sid)) == 1  # and the table is still there


def test_search_special_queries_still_find_words(store: SessionBackend) -> None:
    sid = store.create()
    store.append(sid, {"role": "user", "content": "the deploy uses kubernetes"})
    assert store.search('kubernetes"')[0]["session_id"] == sid
    assert store.search("kubernetes*")[0]["session_id"] == sid
    assert store.search("(kubernetes) OR")[0]["session_id"] == sid
    with pytest.raises(SessionError, match="no words"):
        store.search("*** --- ")
    assert fts_query('tell "hi" AND') == '"tell" OR """hi"""'  # "and" is a stopword


def test_stopwords_and_repeats_are_dropped_unless_nothing_is_left() -> None:
    assert fts_query("When did Caroline go to the LGBTQ support group?") == (
        '"Caroline" OR "go" OR "LGBTQ" OR "support" OR "group?"'
    )
    assert fts_query("what is it") == '"what" OR "is" OR "it"'
    assert fts_query("Tomato tomato TOMATO!") == '"Tomato"'


def test_search_stays_exact_when_one_lineage_floods_the_matches(store: SessionBackend) -> None:
    flood = store.create(title="flood")
    for i in range(450):  # more matches than the first candidate cut (200)
        store.append(flood, {"role": "user", "content": f"apple apple apple note {i}"})
    for _ in range(450):  # tool output is not searched, but it still matches in FTS
        store.append(flood, {"role": "tool", "content": "pear pear pear", "tool_call_id": "t"})
    quiet = store.create(title="quiet")
    store.append(quiet, {"role": "user", "content": "a long message that mentions an apple only once, among "
                                                     "many other words that dilute it quite a lot"})
    store.append(quiet, {"role": "user", "content": "and a pear, once"})
    assert [h["session_id"] for h in store.search("apple", limit=2)] == [flood, quiet]
    assert [h["session_id"] for h in store.search("pear", limit=2)] == [quiet]


def test_concurrent_appends_from_threads(store: SessionBackend) -> None:
    sid = store.create()
    errors: list[BaseException] = []

    def worker(t: int) -> None:
        try:
            for i in range(25):
                store.append(sid, {"role": "user", "content": f"thread{t} message{i}"})
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors
    msgs = store.messages(sid)
    assert len(msgs) == 150
    assert len({m["id"] for m in msgs}) == 150
    for t in range(6):  # each thread's own order is preserved
        mine = [m["content"] for m in msgs if m["content"].startswith(f"thread{t} ")]
        assert mine == [f"thread{t} message{i}" for i in range(25)]


_CHILD = """
import sys
from silcrow.sessions import SessionStore
store = SessionStore(sys.argv[1])
for i in range(30):
    store.append(sys.argv[2], {"role": "user", "content": f"proc{sys.argv[3]} item{i}"})
store.close()
"""


def test_concurrent_appends_from_processes(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SessionStore(path) as s:
        sid = s.create()
    procs = [subprocess.Popen([sys.executable, "-c", _CHILD, str(path), sid, str(p)]) for p in range(4)]
    for p in procs:
        assert p.wait(timeout=120) == 0
    with SessionStore(path) as s:
        msgs = s.messages(sid)
        assert len(msgs) == 120
        for p in range(4):
            mine = [m["content"] for m in msgs if m["content"].startswith(f"proc{p} ")]
            assert mine == [f"proc{p} item{i}" for i in range(30)]
        assert len(s.search("item7")) == 1  # all in one lineage


_OPEN_CHILD = """
import sys
from silcrow.sessions import SessionStore
store = SessionStore(sys.argv[1])
sid = store.create(title="proc" + sys.argv[2])
store.append(sid, {"role": "user", "content": "hello from " + sys.argv[2]})
store.close()
"""


def test_processes_creating_a_fresh_database_at_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "sessions.db"
    procs = [subprocess.Popen([sys.executable, "-c", _OPEN_CHILD, str(path), str(p)],
                              stderr=subprocess.PIPE, text=True, encoding="utf-8") for p in range(8)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with SessionStore(path) as s:
        assert sorted(i.title or "" for i in s.list()) == [f"proc{p}" for p in range(8)]
        assert len(s.search("hello", limit=10)) == 8  # eight separate lineages


def test_a_held_write_lock_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SessionStore(path) as s:
        sid = s.create()
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with SessionStore(path, timeout=0.2) as s:
            assert s.get(sid).id == sid  # WAL readers are not blocked by a writer
            with pytest.raises(SessionError, match="locked by another process"):
                s.append(sid, {"role": "user", "content": "x"})
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_closed_store_says_so(tmp_path: Path) -> None:
    s = SessionStore(tmp_path / "sessions.db")
    sid = s.create()
    s.close()
    with pytest.raises(SessionError, match="is closed"):
        s.messages(sid)
