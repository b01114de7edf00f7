"""`silcrow recall ingest` (and the Claude Code hooks that ingest a transcript) of malformed
input: JSON nested thousands deep, or holding a lone surrogate escape ("\\ud800"), is refused
with the problem named, never an internal error; a transcript line nested that deep is a
malformed line, skipped with its number, and the turns after it are still stored (the hook,
reading past a lone surrogate, stores it as U+FFFD)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_memory import cli
from test_coding_hooks import SESSION, base, hook

from silcrow.recall.local import LocalProvider

DEEP = "[" * 100_000 + "]" * 100_000


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    return home


def _texts(home: Path, query: str) -> list[str]:
    provider = LocalProvider(home, embedder="none")
    provider.initialize("check", home=home)
    try:
        return [h.text for h in provider.search(query, k=20, mode="lexical").hits]
    finally:
        provider.shutdown()


def _turn(kind: str, text: str, n: int) -> str:
    return json.dumps({"type": kind, "sessionId": SESSION, "cwd": "/p", "uuid": f"u-{n}",
                       "timestamp": "2026-02-12T16:00:00Z",
                       "message": {"role": kind, "content": [{"type": "text", "text": text}]}},
                      ensure_ascii=True)


def test_deeply_nested_json_is_refused_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = _home(tmp_path)
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    code, out, err = cli(capsys, "--home", str(home), "recall", "ingest", str(path))
    assert code == 1 and "internal error" not in out + err
    assert "nested" in err and "deep" in err
    path.write_text('{"role": "user", "content": "zebras are striped"}\n' + DEEP + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "--home", str(home), "recall", "ingest", str(path))
    assert code == 0 and "internal error" not in out + err
    assert "line 2" in " ".join((out + err).split())  # a JSONL line that deep is left out, by number


def test_a_lone_surrogate_escape_is_refused_with_where_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = _home(tmp_path)
    path = tmp_path / "chat.jsonl"
    path.write_text('{"role": "user", "content": "zebras \\ud800 are striped"}\n'
                    '{"role": "assistant", "content": "they are"}\n', encoding="utf-8")
    code, out, err = cli(capsys, "--home", str(home), "recall", "ingest", str(path))
    assert code == 1 and "internal error" not in out + err
    assert "surrogate" in err and "line 1" in err


def test_a_transcript_with_such_lines_imports_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = _home(tmp_path)
    transcript = tmp_path / "claude" / "session.jsonl"
    transcript.parent.mkdir()
    transcript.write_text("\n".join([
        _turn("user", "why do the zebra backups fail?", 1), DEEP,
        _turn("assistant", "the zebra upload times out", 2)]) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "--home", str(home), "recall", "ingest", str(transcript))
    assert code == 0 and "internal error" not in out + err, out + err
    assert "line 2" in " ".join((out + err).split())  # the malformed line, by number
    assert len(_texts(home, "zebra")) == 2


def test_the_session_end_hook_reads_past_such_lines(tmp_path: Path) -> None:
    home = _home(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("\n".join([
        _turn("user", "why do the zebra backups \ud800 fail?", 1), DEEP,
        _turn("assistant", "the zebra upload times out", 2)]) + "\n", encoding="utf-8")
    done = hook(home, "session-end", base("SessionEnd", transcript_path=str(transcript), reason="other"))
    assert done.returncode == 0 and "failed" not in done.stderr, done.stderr
    assert len(_texts(home, "zebra")) == 2
    offsets = json.loads((home / "hooks" / "claude-code" / "offsets.json").read_text(encoding="utf-8"))
    assert offsets[str(transcript)]["line"] == 4  # read to the end: the next run starts after it
