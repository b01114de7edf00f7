"""Every conversation format, fuzzed by its shape: the fields each reader looks at hold either a
plausible value or an odd one (a list for a string, a date at the end of the calendar, a number
where text goes, ſ for s). Reading gives records or a RecallError naming the file; storing the
records and searching them raise nothing at all. tests/test_formats.py fuzzes raw text and
loose JSON; this one reaches the code behind each format's own checks."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from silcrow.errors import RecallError
from silcrow.models import NullEmbedder
from silcrow.recall._formats import read_records
from silcrow.recall.local import LocalProvider

_EDGES = [
    "9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+05:00", "2024-02-30T10:00:00Z", "2024-05-01",
    "11:59 pm on 31 December, 9999", "1:56 pm on 8 May, 2023", "12:00 am on 1 Jan, 0001",
    "from 7000 years ago to 4000 years ago", "yeſterday", "laſt frıday", "in 99999 days", "next month",
    "", " ", "\x00", "\u202e", "e\u0301\u0301", "user", "assistant", "human", "text", "message",
]
_ODD = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(_EDGES), st.text(max_size=30),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def _or_odd(plausible: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly the plausible value (one field in seven odd), so most files get past their first check."""
    return st.sampled_from(range(7)).flatmap(lambda n: _ODD if n == 6 else plausible)


_TEXT = _or_odd(st.one_of(st.text(min_size=1, max_size=60), st.sampled_from(_EDGES)))
_ROLE = _or_odd(st.sampled_from(["user", "assistant"]))
_WHEN_ISO = _or_odd(st.sampled_from(["2024-03-01T09:00:00Z", "2024-03-01T09:00:00.123456+02:00",
                                     *_EDGES[:4]]))
_EPOCH = _or_odd(st.one_of(st.floats(min_value=0, max_value=4e9),
                           st.sampled_from([253402300799.9999, 1e308])))


def _parts(kind: str) -> st.SearchStrategy[Any]:
    """A list of ``{"type": kind, "text": ...}`` content blocks."""
    block = st.fixed_dictionaries({"type": _or_odd(st.just(kind)), "text": _TEXT})
    return _or_odd(st.lists(block, max_size=2))


def _tree(messages: list[Any]) -> dict[str, Any]:
    """A ChatGPT mapping: the messages as one branch, each node the child of the one before."""
    ids = [f"n{i}" for i in range(len(messages))]
    return {node: {"id": node, "message": message, "parent": ids[n - 1] if n else None,
                   "children": [ids[n + 1]] if n + 1 < len(ids) else []}
            for n, (node, message) in enumerate(zip(ids, messages, strict=True))}


def _chatgpt() -> st.SearchStrategy[Any]:
    content = st.fixed_dictionaries({
        "content_type": _or_odd(st.sampled_from(["text", "multimodal_text", "code"])),
        "parts": _or_odd(st.lists(_TEXT, min_size=1, max_size=3))})
    message = st.fixed_dictionaries({
        "id": _or_odd(st.text(max_size=8)), "author": _or_odd(st.fixed_dictionaries({"role": _ROLE})),
        "content": _or_odd(content), "create_time": _EPOCH, "recipient": _or_odd(st.just("all")),
        "metadata": _or_odd(st.fixed_dictionaries({"is_visually_hidden_from_conversation": st.just(False)})),
    })
    conv = st.builds(lambda ms, t, c: {"mapping": _tree(ms), "title": t, "create_time": c,
                                       "current_node": None},
                     st.lists(_or_odd(message), min_size=1, max_size=4), _TEXT, _EPOCH)
    return st.lists(conv, min_size=1, max_size=2)


def _claude() -> st.SearchStrategy[Any]:
    message = st.fixed_dictionaries({
        "uuid": _or_odd(st.text(max_size=8)), "sender": _or_odd(st.sampled_from(["human", "assistant"])),
        "text": _TEXT, "created_at": _WHEN_ISO, "content": _parts("text"),
    })
    conv = st.fixed_dictionaries({"uuid": _or_odd(st.text(max_size=8)), "name": _TEXT,
                                  "created_at": _WHEN_ISO,
                                  "chat_messages": st.lists(_or_odd(message), min_size=1, max_size=4)})
    return st.lists(conv, min_size=1, max_size=2)


def _locomo() -> st.SearchStrategy[Any]:
    turn = st.fixed_dictionaries({"speaker": _or_odd(st.sampled_from(["Ana", "Ben"])), "text": _TEXT,
                                  "dia_id": _or_odd(st.text(max_size=6)), "blip_caption": _TEXT})
    return st.builds(lambda date, turns: {"speaker_a": "Ana", "speaker_b": "Ben",
                                          "session_1_date_time": date, "session_1": turns},
                     st.sampled_from(["1:56 pm on 8 May, 2023", "11:59 pm on 31 December, 9999",
                                      "12:00 am on 1 January, 0001"]),
                     st.lists(_or_odd(turn), min_size=1, max_size=70))


def _jsonl_lines() -> st.SearchStrategy[list[Any]]:
    message = st.fixed_dictionaries({
        "role": _or_odd(st.sampled_from(["user", "assistant", "tool"])), "content": _TEXT,
        "timestamp": _or_odd(st.one_of(_WHEN_ISO, _EPOCH)), "session_id": _or_odd(st.text(max_size=6)),
        "id": _ODD})
    return st.lists(_or_odd(message), min_size=1, max_size=5)


def _claude_code_lines() -> st.SearchStrategy[list[Any]]:
    said = st.fixed_dictionaries({"role": _ROLE, "content": _or_odd(st.one_of(_TEXT, _parts("text")))})
    entry = st.fixed_dictionaries({
        "type": _or_odd(st.sampled_from(["user", "assistant", "summary", "system"])),
        "sessionId": _or_odd(st.just("s1")), "uuid": _or_odd(st.text(max_size=6)), "parentUuid": _ODD,
        "timestamp": _WHEN_ISO, "isSidechain": _or_odd(st.just(False)), "cwd": _TEXT,
        "message": _or_odd(said),
    })
    return st.lists(entry, min_size=1, max_size=5)


def _codex_lines() -> st.SearchStrategy[list[Any]]:
    meta = st.fixed_dictionaries({"type": st.just("session_meta"), "timestamp": _WHEN_ISO,
                                  "payload": _or_odd(st.fixed_dictionaries({
                                      "id": _TEXT, "cwd": _TEXT, "timestamp": _WHEN_ISO}))})
    item = st.fixed_dictionaries({
        "type": _or_odd(st.sampled_from(["response_item", "event_msg"])), "timestamp": _WHEN_ISO,
        "payload": _or_odd(st.fixed_dictionaries({
            "type": _or_odd(st.just("message")), "role": _ROLE, "content": _parts("input_text")})),
    })
    return st.builds(lambda m, items: [m, *items], meta, st.lists(item, min_size=1, max_size=4))


def _lines(entries: list[Any]) -> str:
    return "\n".join(json.dumps(entry) for entry in entries)


_FILES = st.one_of(
    _chatgpt().map(json.dumps), _claude().map(json.dumps), _locomo().map(json.dumps),
    _jsonl_lines().map(_lines), _claude_code_lines().map(_lines), _codex_lines().map(_lines),
)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_FILES)
def test_any_file_of_each_format_reads_stores_and_searches(raw: str) -> None:
    skipped: Counter[str] = Counter()
    try:
        records = read_records(raw, source="export.json", skipped=skipped)
    except RecallError as exc:
        assert "export.json" in str(exc)
        return
    with tempfile.TemporaryDirectory() as home:
        provider = LocalProvider(Path(home), embedder=NullEmbedder())
        provider.initialize("fuzz")
        try:
            stored = provider.ingest(records)
            assert 0 <= stored <= len(records)
            for record in records[:3]:
                words = record.text.split()
                if words:
                    provider.search(words[0], k=3)
        finally:
            provider.shutdown()
