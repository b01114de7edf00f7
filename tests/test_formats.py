"""Reading LoCoMo JSON and JSONL message files into RecallRecords."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from silcrow.errors import RecallError
from silcrow.recall import load_records, parse_locomo, read_records
from silcrow.recall._formats import parse_locomo_datetime


def _conversation(sample_id: str | None = None) -> dict[str, object]:
    conv: dict[str, object] = {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben!"},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Look at this.",
             "blip_caption": "a photo of a bowl"},
        ],
        "session_2_date_time": "10:05 am on 12 June, 2023",
        "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Back again."}],
        "session_3_date_time": "9:00 am on 1 July, 2023",  # dated but never held: ignored
    }
    if sample_id:
        conv["sample_id"] = sample_id
    return conv


def test_locomo_datetime_parses_12_hour_clock() -> None:
    assert parse_locomo_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_datetime("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9, tzinfo=UTC)
    assert parse_locomo_datetime("12:30 pm on 1 Jan 2024").hour == 12
    with pytest.raises(ValueError, match="1:56 pm on 8 May, 2023"):
        parse_locomo_datetime("yesterday")


def test_locomo_single_conversation(tmp_path: Path) -> None:
    path = tmp_path / "conv.json"
    path.write_text(json.dumps(_conversation("conv-9")), encoding="utf-8")
    records = load_records(path)
    assert [r.external_id for r in records] == ["D1:1", "D1:2", "D2:1"]
    assert [r.speaker for r in records] == ["Ana", "Ben", "Ben"]
    assert records[0].session_id == "conv-9/session_1" and records[2].session_id == "conv-9/session_2"
    assert records[0].timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert records[1].timestamp is not None and records[1].timestamp > records[0].timestamp  # order kept
    assert records[1].text == "Look at this. [shared a photo: a photo of a bowl]"
    assert all(r.kind == "turn" for r in records)


def test_locomo_list_and_nested_layout(tmp_path: Path) -> None:
    nested = {"sample_id": "x", "conversation": _conversation(), "qa": []}
    path = tmp_path / "many.json"
    path.write_text(json.dumps([_conversation(), nested]), encoding="utf-8")
    records = load_records(path)
    assert len(records) == 6
    assert {r.session_id.split("/")[0] for r in records} == {"conv0", "x"}


def test_jsonl_messages(tmp_path: Path) -> None:
    lines = [
        {"role": "user", "content": "I moved to Lyon.", "timestamp": "2024-03-01T10:00:00Z",
         "session_id": "s1"},
        {"role": "system", "content": "You are helpful.", "session_id": "s1"},
        {"role": "assistant", "content": "Nice!", "timestamp": 1709287260, "session_id": "s1"},
        {"role": "user", "content": "No time given"},
    ]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    records = load_records(path)
    assert [r.speaker for r in records] == ["user", "assistant", "user"]  # system prompt skipped
    assert records[0].timestamp == datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
    assert records[1].timestamp == datetime.fromtimestamp(1709287260, tz=UTC)
    assert records[2].timestamp is None and records[2].session_id == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"role": "user", "content": 5}', "line 1: field 'content'"),
        ('{"role": "user", "content": "a", "timestamp": "May 5th"}',
         "line 1: 'timestamp' 'May 5th' is not ISO"),
        ("   \n", "the file is empty"),
        ('{"speaker_b": "x"}', "not a LoCoMo conversation"),
        ('{"speaker_a": "A", "session_1": []}', "'session_1_date_time' is missing"),
        ('{"speaker_a": "A", "session_1_date_time": "soon", "session_1": []}',
         "'session_1_date_time': expected"),
        ('{"speaker_a": "A", "session_1_date_time": "1:00 pm on 1 May, 2023", "session_1": [{"text": "x"}]}',
         "session_1[0] needs string 'speaker' and 'text'"),
        ('[{"speaker_a": "A"}, 3]', "conversation 0: no session_N"),
    ],
)
def test_bad_input_names_the_problem(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RecallError) as info:
        load_records(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ('{"role": "user"', "line 2: not valid JSON"),
        ('{"content": "b"}', "line 2: field 'role'"),
        ("[1, 2]", "line 2: expected an object"),
        ('{"role": "user", "content": "b", "timestamp": "May 5th"}', "line 2: 'timestamp' 'May 5th'"),
        ("[" * 5000 + "]" * 5000, "line 2: not valid JSON (nested more than 500 levels deep at column 501)"),
    ],
)
def test_one_unreadable_message_is_counted_and_the_rest_read(
    tmp_path: Path, bad: str, message: str
) -> None:
    path = tmp_path / "chat.jsonl"
    first, third = '{"role": "user", "content": "first"}', '{"role": "assistant", "content": "third"}'
    path.write_text(f"{first}\n{bad}\n{third}\n", encoding="utf-8")
    skipped: Counter[str] = Counter()
    records = load_records(path, skipped)
    assert [r.text for r in records] == ["first", "third"]
    [(reason, count)] = skipped.items()
    assert count == 1 and reason.startswith("unreadable messages") and message in reason, reason


def test_an_unreadable_locomo_turn_is_counted_and_the_rest_read() -> None:
    conv = _conversation()
    turns = conv["session_1"]
    assert isinstance(turns, list)
    turns[1:1] = [{"speaker": "Ana", "text": None}, "not a turn"]
    skipped: Counter[str] = Counter()
    records = parse_locomo(conv, source="conv.json", skipped=skipped)
    assert len(records) == len(parse_locomo(_conversation()))
    [(reason, count)] = skipped.items()
    assert count == 2 and "session_1[1] needs string 'speaker' and 'text'" in reason, reason


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"role": "user", "content": "a\\ud800"}', "line 1 column 31"),
        ('[\n  {"role": "user", "content": "ok"},\n  {"role": "user", "content": "\\udc00 x"}\n]',
         "line 3 column 32"),
        ('{"role": "user", "content": "fine"}\n{"role": "user", "content": "\\ud83d"}', "line 2 column 30"),
    ],
)
def test_a_lone_surrogate_is_refused_naming_where(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "chat.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecallError) as info:
        load_records(path)
    message = str(info.value)
    assert str(path) in message and where in message and "lone UTF-16 surrogate" in message, message


def test_a_surrogate_pair_or_an_escaped_backslash_is_no_lone_surrogate(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text('[{"role": "user", "content": "\\ud83d\\ude00 and \\\\ud800"}]', encoding="utf-8")
    assert [r.text for r in load_records(path)] == ["\U0001f600 and \\ud800"]


def test_deeply_nested_json_is_refused_naming_where(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"a": "[[[", "b":\n' + "[" * 3000 + "]" * 3000 + "}", encoding="utf-8")
    with pytest.raises(RecallError) as info:
        load_records(path)
    message = str(info.value)
    assert str(path) in message and "nested more than 500 levels" in message
    assert "line 2 column 500" in message, message  # "{" is level 1; brackets in strings are not


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                     st.sampled_from(["role", "content", "timestamp", "session_id", "id", "speaker_a",
                                      "session_1", "session_1_date_time", "text", "speaker", "mapping",
                                      "chat_messages", "tool_calls"]), inner, max_size=5),
                 max_leaves=20).map(json.dumps),
    st.lists(st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "tool", "system", ""]),
                                    "content": st.one_of(st.text(), st.none(), st.integers()),
                                    "timestamp": st.one_of(st.none(), st.text(max_size=30), st.integers(),
                                                           st.floats())}), max_size=5)
    .map(lambda ms: "\n".join(json.dumps(m) for m in ms)),
))
def test_readers_fuzzed_give_records_or_a_recall_error(raw: str) -> None:
    try:
        records = read_records(raw, source="fuzz.json", skipped=Counter())
    except RecallError as exc:
        assert "fuzz.json" in str(exc)
        return
    for record in records:
        assert isinstance(record.text, str) and record.text.strip()
        record.text.encode("utf-8")  # storable


def test_missing_file_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(RecallError, match="no such file"):
        load_records(tmp_path / "nope.json")


def test_jsonl_messages_without_an_id_get_their_line_number(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text('{"role": "user", "content": "a"}\n\n{"role": "user", "content": "b", "id": 7}\n'
                    '{"role": "assistant", "content": "c"}\n', encoding="utf-8")
    assert [r.external_id for r in load_records(path)] == ["L1", "7", "L4"]


def test_a_broken_pretty_printed_document_names_its_real_line(tmp_path: Path) -> None:
    conv = _conversation()
    text = json.dumps(conv, indent=2)
    lines = text.splitlines()
    broken = next(n for n, line in enumerate(lines) if '"Back again."' in line)
    lines[broken] += ","  # a trailing comma deep inside the document: not JSONL
    path = tmp_path / "conv.json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecallError) as info:
        load_records(path)
    message = str(info.value)
    assert f"line {broken + 2} column" in message, message  # the "}" after the comma
    assert "line 1:" not in message and "not valid JSON" in message


def test_json_errors_do_not_say_at_at(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"role": "user", "content": "ok"}\n{"role": "user", "content": "unterminated\n',
                    encoding="utf-8")
    skipped: Counter[str] = Counter()
    load_records(path, skipped)
    [reason] = skipped
    assert "line 2: not valid JSON (Unterminated string starting at column 29)" in reason
    assert "at at" not in reason


def test_openai_tool_messages_are_skipped_and_content_parts_read(tmp_path: Path) -> None:
    from collections import Counter

    lines = [
        {"role": "user", "content": [{"type": "text", "text": "What is the weather?"},
                                     {"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"sun\": true}"},
        {"role": "assistant", "content": "It is sunny."},
    ]
    path = tmp_path / "openai.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in lines), encoding="utf-8")
    skipped: Counter[str] = Counter()
    records = load_records(path, skipped)
    assert [(r.speaker, r.text) for r in records] == [("user", "What is the weather?"),
                                                      ("assistant", "It is sunny.")]
    assert skipped == {"tool calls (not conversation)": 1, "tool messages (not conversation)": 1}


def test_a_json_array_of_messages_is_read_like_jsonl(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    records = load_records(path)
    assert [(r.speaker, r.text, r.external_id) for r in records] == [
        ("user", "hi", "L1"), ("assistant", "hello", "L2")]
    path.write_text(json.dumps([{"role": "user"}]), encoding="utf-8")
    with pytest.raises(RecallError, match="message 1: field 'content'"):
        load_records(path)
