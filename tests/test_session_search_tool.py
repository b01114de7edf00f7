"""The session_search tool over a real SessionStore."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_support import session_backends

from silcrow.agent import handle_session_search, session_search_schema
from silcrow.agent._search_tool import MAX_MESSAGE_CHARS
from silcrow.sessions import SessionBackend, SessionStore


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionBackend]:
    yield from session_backends(request, tmp_path)


def _call(store: SessionBackend, args: Any, **kw: Any) -> dict[str, Any]:
    out = handle_session_search(store, args, **kw)
    assert isinstance(out, str)
    result = json.loads(out)
    assert isinstance(result, dict)
    return result


def _fill(store: SessionBackend) -> tuple[str, list[int]]:
    sid = store.create()
    ids = [
        store.append(sid, {"role": "user", "content": "the nightly backup job fails with ENOSPC on /var"}),
        store.append(sid, {"role": "assistant", "content": "Prune old snapshots in /var/backups first."}),
        store.append(sid, {"role": "user", "content": "that worked, thanks"}),
        store.append(sid, {"role": "assistant", "content": "Glad it helped."}),
    ]
    return sid, ids


def test_schema_is_openai_function_format() -> None:
    schema = session_search_schema()
    assert schema["type"] == "function"
    fn = schema["function"]
    assert fn["name"] == "session_search"
    assert set(fn["parameters"]["properties"]) == {"query", "session_id", "message_id", "limit"}
    assert fn["description"]
    json.dumps(schema)  # serialisable as sent to the API


def test_query_returns_dated_snippets(store: SessionBackend) -> None:
    sid, ids = _fill(store)
    other = store.create()
    store.append(other, {"role": "user", "content": "let us plan the garden"})
    result = _call(store, {"query": "backup ENOSPC"})
    assert result["success"] is True and result["count"] == 1
    hit = result["results"][0]
    assert hit["session_id"] == sid and hit["message_id"] == ids[0]
    assert "**ENOSPC**" in hit["snippet"] and hit["date"] == store.get(sid).created_at[:10]
    assert "hint" in result
    # JSON-string arguments, as they come from the model, work too.
    assert _call(store, '{"query": "garden"}')["results"][0]["session_id"] == other


def test_no_match_says_so(store: SessionBackend) -> None:
    _fill(store)
    result = _call(store, {"query": "quantum"})
    assert result["success"] is True and result["results"] == [] and "no earlier session" in result["message"]


def test_around_mode_reads_context(store: SessionBackend) -> None:
    sid, ids = _fill(store)
    result = _call(store, {"session_id": sid, "message_id": ids[1], "limit": 1})
    assert result["success"] is True and result["session_id"] == sid
    assert [m["message_id"] for m in result["messages"]] == ids[0:3]
    assert result["messages"][1]["content"].startswith("Prune old snapshots")
    # A unique prefix of the id and a numeric string id are accepted.
    again = _call(store, {"session_id": sid[:-1], "message_id": str(ids[1])})
    assert [m["message_id"] for m in again["messages"]] == ids


def test_around_hides_recall_blocks_and_shortens_long_text(store: SessionBackend) -> None:
    sid = store.create()
    long_id = store.append(sid, {"role": "user", "content": "x" * (MAX_MESSAGE_CHARS + 500),
                                 "recall_block": "<memory-context>secret recall</memory-context>"})
    store.append(sid, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "memory", "arguments": '{"action": "add"}'}}]})
    msgs = _call(store, {"session_id": sid, "message_id": long_id})["messages"]
    assert "recall_block" not in msgs[0] and "secret recall" not in json.dumps(msgs)
    assert msgs[0]["content"].endswith("[500 more characters]")
    assert msgs[1]["tool_calls"] == [{"name": "memory", "arguments": '{"action": "add"}'}]


def test_current_session_is_not_returned_but_its_compacted_part_is(store: SessionBackend) -> None:
    old, _ = _fill(store)
    current = store.branch(old)  # shares the backup talk as active history
    store.append(current, {"role": "user", "content": "another backup question"})
    result = _call(store, {"query": "ENOSPC"}, current_session_id=current)
    assert result["results"] == []  # already in the model's context
    store.compact(current, keep_head=0, keep_tail=1, summary="talked about disks")
    result = _call(store, {"query": "ENOSPC"}, current_session_id=current)
    # On a tie the earliest copy wins: the parent, where it was first said.
    assert [h["session_id"] for h in result["results"]] == [old]


@pytest.mark.parametrize(("args", "fragment"), [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ({}, "nothing to do"),
    ({"query": ""}, "non-empty"),
    ({"query": 42}, "non-empty"),
    ({"query": "*** ---"}, "no words"),
    ({"query": "x", "limit": "many"}, "must be an integer"),
    ({"query": "x", "session_id": "a", "message_id": 1}, "not both"),
    ({"session_id": "20990101-000000-abcdef", "message_id": 1}, "search result"),
    ({"session_id": "s"}, "message_id"),
    ({"message_id": 3}, "session_id"),
    ({"qeury": "typo"}, "unknown argument"),
])
def test_bad_calls_return_clear_errors(store: SessionBackend, args: Any, fragment: str) -> None:
    _fill(store)
    result = _call(store, args)
    assert result["success"] is False
    assert fragment in result["error"]


def test_unknown_message_in_known_session(store: SessionBackend) -> None:
    sid, _ = _fill(store)
    result = _call(store, {"session_id": sid, "message_id": 10_000})
    assert result["success"] is False and "has no message" in result["error"]


def test_never_raises_even_when_store_is_closed(tmp_path: Path) -> None:
    s = SessionStore(tmp_path / "s.db")
    s.close()
    result = _call(s, {"query": "anything"})
    assert result["success"] is False and "is closed" in result["error"]
