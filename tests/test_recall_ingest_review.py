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


def _chatgpt(messages: list[dict[str, object]]) -> list[dict[str, object]]:
    """One ChatGPT conversation whose branch is ``messages`` in order, under the empty root."""
    mapping: dict[str, object] = {"root": {"id": "root", "message": None, "parent": None, "children": ["m0"]}}
    for n, message in enumerate(messages):
        children = [f"m{n + 1}"] if n + 1 < len(messages) else []
        mapping[f"m{n}"] = {"id": f"m{n}", "message": {"id": f"m{n}", "metadata": {}, **message},
                            "parent": "root" if n == 0 else f"m{n - 1}", "children": children}
    return [{"id": "conv-1", "title": "Trip", "create_time": 1717200000, "mapping": mapping,
             "current_node": f"m{len(messages) - 1}"}]


def test_chatgpt_voice_messages_are_read_and_tool_calls_left_out(tmp_path: Path) -> None:
    def voice(said: str) -> dict[str, object]:
        return {"content_type": "multimodal_text", "parts": [
            {"content_type": "audio_transcription", "text": said, "direction": "in"},
            {"content_type": "audio_asset_pointer", "asset_pointer": "sediment://file_1", "size_bytes": 9}]}

    export = _chatgpt([
        {"author": {"role": "user"}, "create_time": 1717200001, "recipient": "all",
         "content": voice("We are driving to the Algarve on Saturday.")},
        {"author": {"role": "assistant"}, "create_time": 1717200002, "recipient": "all",
         "content": voice("Enjoy the beaches of the Algarve!")},
        {"author": {"role": "user"}, "create_time": 1717200003, "recipient": "all",
         "content": {"content_type": "text", "parts": ["Draw me a sunset there."]}},
        {"author": {"role": "assistant"}, "create_time": 1717200004, "recipient": "dalle.text2im",
         "content": {"content_type": "text", "parts": ['{"prompt": "a sunset over the Algarve"}']}},
        {"author": {"role": "tool", "name": "dalle.text2im"}, "create_time": 1717200005, "recipient": "all",
         "content": {"content_type": "multimodal_text", "parts": [{"content_type": "image_asset_pointer"}]}},
        {"author": {"role": "assistant"}, "create_time": 1717200006, "recipient": "all",
         "content": {"content_type": "text", "parts": ["Here is your sunset."]}},
    ])
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    result = json.loads(out)
    assert result["stored"] == 4, result  # two spoken turns, the request and the answer
    assert result["skipped"] == {"tool calls (not conversation)": 1, "tool messages (not conversation)": 1}
    code, out, err = run("--home", home, "recall", "search", "Algarve", "--json", "--embedder", "none")
    texts = [hit["text"] for hit in json.loads(out)]
    assert "We are driving to the Algarve on Saturday." in texts
    assert all("prompt" not in t for t in texts), texts


def test_a_chatgpt_message_without_a_time_is_not_dated_before_what_it_answers(tmp_path: Path) -> None:
    def said(role: str, text: str, when: float | None) -> dict[str, object]:
        return {"author": {"role": role}, "create_time": when, "recipient": "all",
                "content": {"content_type": "text", "parts": [text]}}

    june_3 = 1717372800  # 2024-06-03T00:00:00Z; the conversation started on 1 June
    export = _chatgpt([said("user", "Where should I eat in Lisbon?", 1717200000),
                       said("assistant", "Try Cervejaria Ramiro.", 1717200005),
                       said("user", "I ate at Ramiro, the prawns were great.", june_3),
                       said("assistant", "Glad you liked the prawns!", None)])
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    home = str(tmp_path / "home")
    assert run("--home", home, "recall", "ingest", str(path), "--embedder", "none")[0] == 0
    code, out, err = run("--home", home, "recall", "search", "prawns", "--json", "--embedder", "none")
    dates = {hit["text"]: hit["date"] for hit in json.loads(out)}
    assert dates["Glad you liked the prawns!"] == "2024-06-03T00:00:00+00:00", dates


_OK = {"id": "a", "author": {"role": "user"}, "create_time": 1717200000, "recipient": "all",
       "content": {"content_type": "text", "parts": ["hello there"]}, "metadata": {}}


@pytest.mark.parametrize(
    "mapping",
    [
        {"a": {"id": "a", "parent": None, "children": [], "message": {**_OK, "metadata": "hidden"}}},
        {"a": {"id": "a", "parent": None, "children": [], "message": {**_OK, "author": {"role": ["user"]}}}},
        {"a": "not a node", "b": {"id": "b", "parent": None, "children": [], "message": _OK}},
        {"a": {"id": "a", "parent": None, "children": {"b": 1}, "message": _OK}, "leaf": None},
    ],
    ids=["metadata-text", "role-list", "node-text", "children-object"],
)
def test_a_chatgpt_export_of_the_wrong_shape_is_no_internal_error(
    tmp_path: Path, mapping: dict[str, object]
) -> None:
    path = tmp_path / "conversations.json"
    leaf = mapping.pop("leaf", "a")  # None: no current_node, the export is read along first children
    path.write_text(json.dumps([{"id": "c", "mapping": mapping, "current_node": leaf}]), encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert "internal error" not in err, err
    assert (code == 0 and "stored" in out) or (code == 1 and "holds no messages" in err), out + err


def test_standard_input_that_is_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("silcrow")
    line = '{"role": "user", "content": "caf\xe9 au lait"}\n'.encode("latin-1")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run(
        [str(exe), "--home", str(tmp_path / "home"), "recall", "ingest", "-", "--embedder", "none"],
        input=line, capture_output=True, timeout=120, env=env,
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1 and "internal error" not in err, err
    assert err.startswith("error: standard input is not UTF-8 text") and "UTF-8" in err.split(";")[-1], err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ('{"a": ' + "[" * 3000 + "]" * 3000 + "}", "nested more than 500 levels deep (line 1 column 506)"),
        ('{"role": "user", "content": "fine"}\n{"role": "user", "content": "x\\ud800"}',
         "line 2 column 31 holds a lone UTF-16 surrogate"),
    ],
)
def test_malformed_json_is_a_refusal_naming_where(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "chat.json"
    path.write_text(content, encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert code == 1, (out, err)
    assert "internal error" not in err and "Traceback" not in err and says in err, err
    assert not (tmp_path / "home" / "recall.db").exists()


def test_one_odd_line_costs_that_line_and_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        json.dumps({"role": "user", "content": "We met in Lisbon in March."}) + "\n"
        + '{"role": "user", "content": "half a line\n'
        + json.dumps({"role": "assistant", "content": "Noted: Lisbon, March."}) + "\n",
        encoding="utf-8")
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["stored"] == 2
    [(reason, count)] = result["skipped"].items()
    assert count == 1 and "line 2: not valid JSON" in reason, reason


def test_a_turn_about_deep_time_is_stored_with_the_rest(tmp_path: Path) -> None:
    """"7000 years ago" said in 2024 is before year 1: it names no date, and the turn is kept."""
    path = _lines(tmp_path / "chat.jsonl", [
        {"role": "user", "content": "Tell me about the Neolithic.", "timestamp": "2024-01-02T10:00:00Z"},
        {"role": "assistant", "content": "Farming spread from 7000 years ago to about 4000 years ago, "
         "and 99999 years ago there were no farms at all.", "timestamp": "2024-01-02T10:00:05Z"},
    ])
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0 and "stored 2 of 2" in out, err
    code, out, err = run("--home", home, "recall", "search", "farming spread", "--json", "--embedder", "none")
    assert code == 0 and "4000 years ago" in json.loads(out)[0]["text"], err
