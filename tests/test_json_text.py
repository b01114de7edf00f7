"""JSON from outside silcrow (``_json.loads``) and the odd values a fuzzed import found: an
integer of thousands of digits, nesting thousands deep, a ``"type"`` that is a list, a session
dated in the last minute of 9999, a time that rounds past the end of what a datetime holds.
Each ended an import (or a hook, or a tool call) with a raw Python exception; each is now read,
or refused by name, and the rest stored."""

from __future__ import annotations

import json
import math
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from silcrow._json import MAX_DEPTH, TooDeep, loads, position
from silcrow._toolcall import parse_arguments
from silcrow.errors import RecallError, ToolCallError
from silcrow.integrations.coding import _hooks
from silcrow.models import NullEmbedder
from silcrow.recall._formats import read_records
from silcrow.recall.local import LocalProvider, RecallRecord
from silcrow.recall.local._records import from_epoch, to_epoch
from silcrow.recall.local._retrieval import dated_text

HUGE = "9" * 5000


def test_an_integer_too_long_for_int_reads_as_javascript_reads_it() -> None:
    assert loads('{"id": ' + HUGE + ', "n": 7}') == {"id": math.inf, "n": 7}
    assert loads("[-" + HUGE + "]") == [-math.inf]
    assert loads('{"n": 12}') == {"n": 12}
    assert isinstance(loads("12"), int)


@pytest.mark.parametrize("text", [
    "[" * 3000 + "]" * 3000,
    '{"a": ' + HUGE + ', "b": ' + "[" * 3000 + "]" * 3000 + "}",  # deep only after the long integer
])
def test_nesting_past_the_limit_is_a_decode_error_naming_where(text: str) -> None:
    with pytest.raises(TooDeep) as info:
        loads(text)
    assert isinstance(info.value, json.JSONDecodeError)
    assert info.value.msg == f"nested more than {MAX_DEPTH} levels deep"
    opened = text[: info.value.pos]
    assert opened.count("[") + opened.count("{") == MAX_DEPTH  # pos: the bracket that passes it


def test_brackets_inside_strings_do_not_count_and_positions_are_editors() -> None:
    text = '{"a": "' + "[" * 900 + '",\n "b": ' + "[" * 3000 + "]" * 3000 + "}"
    with pytest.raises(TooDeep) as info:
        loads(text)
    assert (info.value.lineno, info.value.colno) == (2, 7 + MAX_DEPTH - 1)
    assert position("ab\ncd", 4) == (2, 2)


def test_a_broken_text_after_a_long_integer_is_still_a_decode_error() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads('{"a": ' + HUGE + ', "b": }')


@pytest.mark.parametrize("raw", [
    '{"role": "user", "content": "first"}\n{"role": "user", "content": "second", "id": ' + HUGE + "}",
    '[{"role": "user", "content": "first"}, {"role": "user", "content": "second", "n": ' + HUGE + "}]",
])
def test_messages_with_a_long_integer_are_read(raw: str) -> None:
    records = read_records(raw, source="chat.jsonl", skipped=Counter())
    assert [r.text for r in records] == ["first", "second"]


def test_a_transcript_line_with_a_list_for_its_type_is_no_crash() -> None:
    raw = ('{"type": [], "sessionId": "a", "uuid": "a", "message": {"content": "x"}}\n'
           '{"role": "user", "content": "still read"}\n')
    skipped: Counter[str] = Counter()
    assert [r.text for r in read_records(raw, source="t.jsonl", skipped=skipped)] == ["still read"]
    assert sum(skipped.values()) == 1  # the odd line is counted, not fatal


def test_a_codex_line_nested_too_deep_costs_that_line() -> None:
    meta = {"timestamp": "2025-01-01T00:00:00Z", "type": "session_meta",
            "payload": {"id": "s1", "cwd": "/tmp", "timestamp": "2025-01-01T00:00:00Z"}}
    said = {"timestamp": "2025-01-01T00:00:01Z", "type": "response_item",
            "payload": {"type": "message", "role": "user",
                        "content": [{"type": "input_text", "text": "hi there"}]}}
    # First, so that telling the format apart reads it too.
    raw = "\n".join(['{"type": "event_msg", "x": ' + "[" * 3000 + "]" * 3000 + "}", json.dumps(meta),
                     json.dumps(said)])
    skipped: Counter[str] = Counter()
    records = read_records(raw, source="rollout-1.jsonl", skipped=skipped)
    assert [r.text for r in records] == ["hi there"]
    assert any("line 1" in reason for reason in skipped), skipped


def _locomo(date: str, turns: int, extra: dict[str, object] | None = None) -> str:
    body: dict[str, object] = {
        "speaker_a": "Ana", "speaker_b": "Ben", "session_1_date_time": date,
        "session_1": [{"speaker": "Ana", "dia_id": f"D1:{i}", "text": f"turn {i}"} for i in range(turns)],
        **(extra or {})}
    return json.dumps({"sample_id": "c", "conversation": body})


def test_a_session_in_the_last_minute_of_9999_keeps_every_turn() -> None:
    records = read_records(_locomo("11:59 pm on 31 December, 9999", 70), source="l.json", skipped=Counter())
    assert len(records) == 70
    assert records[0].timestamp == datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
    assert records[59].timestamp == datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def test_a_session_key_of_thousands_of_digits_is_not_a_session() -> None:
    raw = _locomo("1:56 pm on 8 May, 2023", 2, {"session_" + HUGE: [{"speaker": "Ana", "text": "no"}]})
    assert [r.text for r in read_records(raw, source="l.json", skipped=Counter())] == ["turn 0", "turn 1"]


@pytest.mark.parametrize("when", [
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # its epoch rounds up into year 10000
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5))),  # before year 1 in UTC
])
def test_times_at_the_ends_of_the_calendar_are_stored_and_found(tmp_path: Path, when: datetime) -> None:
    ts = to_epoch(when)
    assert ts is not None
    back = from_epoch(ts)
    assert back is not None and abs((back - when).total_seconds()) < 5 * 3600 + 1
    assert dated_text(ts, "yesterday and tomorrow")  # relative dates at the edge: no crash
    provider = LocalProvider(tmp_path, embedder=NullEmbedder())
    provider.initialize("edges")
    provider.ingest([RecallRecord(text="the lighthouse keeper's logbook", session_id="s", timestamp=when),
                     RecallRecord(text="an ordinary turn about lighthouses", session_id="s")])
    hits = provider.search("lighthouse logbook", k=5).hits
    assert {h.text for h in hits} == {"the lighthouse keeper's logbook", "an ordinary turn about lighthouses"}
    provider.shutdown()


def test_a_claude_export_dated_at_the_end_of_9999_is_imported(tmp_path: Path) -> None:
    raw = json.dumps([{"uuid": "c1", "name": "n", "created_at": "9999-12-31T23:59:59.999999Z",
                       "chat_messages": [{"uuid": "m1", "sender": "human", "text": "plant the tulips",
                                          "created_at": "9999-12-31T23:59:59.999999Z"}]}])
    records = read_records(raw, source="conversations.json", skipped=Counter())
    provider = LocalProvider(tmp_path, embedder=NullEmbedder())
    provider.initialize("edges")
    assert provider.ingest(records) == 1
    assert [h.text for h in provider.search("tulips", k=3).hits] == ["plant the tulips"]
    provider.shutdown()


def test_tool_arguments_nested_too_deep_are_a_tool_call_error() -> None:
    with pytest.raises(ToolCallError, match="nested more than 500 levels deep"):
        parse_arguments('{"q": ' + "[" * 3000 + "]" * 3000 + "}", tool="memory")
    assert parse_arguments('{"n": ' + HUGE + "}", tool="memory") == {"n": math.inf}


@pytest.mark.parametrize("payload", ['{"session_id": ' + "[" * 3000 + "]" * 3000 + "}",
                                     '{"session_id": "s", "n": ' + HUGE + ', "prompt": []}'])
def test_hook_input_that_json_cannot_hold_ends_in_a_message(tmp_path: Path, payload: str) -> None:
    result = _hooks.run_hook("session-start", payload, tmp_path)
    assert isinstance(result, _hooks.HookResult)
    assert "unknown hook event" not in result.message


def test_a_refusal_names_the_file_and_never_leaks_a_recursion_error() -> None:
    with pytest.raises(RecallError, match=r"deep.json: JSON nested more than 500 levels deep \(line 1"):
        read_records('{"a": ' + "[" * 3000 + "]" * 3000 + "}", source="deep.json", skipped=Counter())


@pytest.mark.parametrize(("parts", "text"), [
    (5, None), (1.5, None), (True, None), ("hello there", "hello there"), (["one", 7, "two"], "one\ntwo"),
])
def test_chatgpt_parts_that_are_not_a_list(parts: object, text: str | None) -> None:
    raw = json.dumps([{"mapping": {
        "a": {"message": {"author": {"role": "user"}, "content": {"content_type": "text", "parts": parts}}},
    }}, {"mapping": {"b": {"message": {"author": {"role": "user"},
                                       "content": {"content_type": "text", "parts": ["still read"]}}}}}])
    skipped: Counter[str] = Counter()
    records = read_records(raw, source="conversations.json", skipped=skipped)
    assert [r.text for r in records] == ([text] if text else []) + ["still read"]
    assert sum(skipped.values()) == (0 if text else 1)
