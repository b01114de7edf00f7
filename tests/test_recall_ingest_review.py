"""`silcrow recall ingest` of odd but real input, through the real CLI and the real local provider."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_recall import run


def _lines(path: Path, messages: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("stamp", "says"),
    [
        ("1717200000000", "divide milliseconds by 1000"),  # JavaScript's Date.now()
        ("1e400", "is not a date"),  # json reads it as inf
        ('"0001-01-01T00:00:00+05:00"', "out of range"),  # year 0 in UTC
        ('"9999-12-31T23:59:59-05:00"', "out of range"),  # year 10000 in UTC
    ],
)
def test_a_timestamp_that_is_no_date_is_a_clear_error(tmp_path: Path, stamp: str, says: str) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(f'{{"role": "user", "content": "hello", "timestamp": {stamp}}}\n', encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert code == 1 and "internal error" not in err, err
    assert "line 1: 'timestamp'" in err and says in err, err
    assert not (tmp_path / "home" / "recall.db").exists()


def test_a_chatgpt_create_time_that_is_no_date_falls_back(tmp_path: Path) -> None:
    node = {"id": "a", "parent": None, "children": [], "message": {
        "id": "a", "author": {"role": "user"}, "create_time": 1e20,
        "content": {"content_type": "text", "parts": ["hello there"]}, "metadata": {}}}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([{"id": "c", "create_time": 1717200000, "mapping": {"a": node},
                                 "current_node": "a"}]), encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0 and "stored 1 of 1" in out, err
    code, out, err = run("--home", home, "recall", "search", "hello", "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)[0]["date"] == "2024-06-01T00:00:00+00:00"  # the conversation's time


def test_one_very_long_message_does_not_refuse_the_whole_export(tmp_path: Path) -> None:
    from silcrow.recall import MAX_RECORD_CHARS

    long = "a pasted server log line\n" * (MAX_RECORD_CHARS // 10)
    path = _lines(tmp_path / "chat.jsonl", [
        {"role": "user", "content": "My flat in Porto has a leaking roof.",
         "timestamp": "2024-01-02T10:00:00Z"},
        {"role": "user", "content": long, "timestamp": "2024-01-02T10:01:00Z"},
    ])
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    result = json.loads(out)
    assert result["stored"] == 2 and sum(result["skipped"].values()) == 1, result
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0 and json.loads(out)["stored"] == 0, err  # clipped the same way again
    code, out, err = run("--home", home, "recall", "search", "leaking roof", "--json", "--embedder", "none")
    assert "Porto" in json.loads(out)[0]["text"]


def test_a_newer_jsonl_export_with_lines_inserted_adds_only_the_new_messages(tmp_path: Path) -> None:
    def msg(role: str, text: str, when: str, session: str) -> dict[str, object]:
        return {"role": role, "content": text, "timestamp": when, "session_id": session}

    old = [
        msg("user", "I moved to Porto.", "2024-01-01T10:00:00Z", "s1"),
        msg("assistant", "Nice city.", "2024-01-01T10:00:05Z", "s1"),
        msg("user", "My bike was stolen.", "2024-02-01T10:00:00Z", "s2"),
        msg("assistant", "Sorry.", "2024-02-01T10:00:05Z", "s2"),
    ]
    # The newer export is grouped by session: session s1 went on, so s2's lines moved down.
    new = [*old[:2], msg("user", "Porto again.", "2024-03-01T10:00:00Z", "s1"), *old[2:]]
    home = str(tmp_path / "home")
    for name, messages, stored in (("old.jsonl", old, 4), ("new.jsonl", new, 1), ("new.jsonl", new, 0)):
        path = _lines(tmp_path / name, messages)
        code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
        assert code == 0, err
        assert json.loads(out)["stored"] == stored, (name, out)


@pytest.mark.parametrize("export", ["chatgpt-conversations.json", "claude-conversations.json", "jsonl"])
def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path: Path, export: str) -> None:
    if export == "jsonl":
        text = json.dumps({"role": "user", "content": "Saved from Notepad.", "timestamp": 1717200000}) + "\n"
    else:
        text = (Path(__file__).parent / "data" / "exports" / export).read_text(encoding="utf-8")
    path = tmp_path / "conversations.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0, err
    assert "stored" in out
