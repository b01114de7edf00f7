"""`silcrow sessions ...` through the real root CLI, on a real sessions.db."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from silcrow.cli.main import main
from silcrow.sessions import SessionStore

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "env-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def cli(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["--home", str(home), "sessions", *args])
    out, err = capsys.readouterr()
    out, err = ANSI.sub("", out), ANSI.sub("", err)
    assert "Traceback" not in out + err
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def _populate(home: Path) -> tuple[str, str, str]:
    with SessionStore(home / "sessions.db") as store:
        a = store.create(system_prompt="You are helpful. [frozen]")
        store.append(a, {"role": "user", "content": "My cat [Mittens] hates the vacuum cleaner"})
        store.append(a, {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "memory", "arguments": '{"content": "cat named Mittens"}'}}]})
        store.append(a, {"role": "tool", "content": '{"success": true}', "tool_call_id": "c1",
                         "name": "memory"})
        store.append(a, {"role": "assistant", "content": "Noted, Mittens it is."})
        b = store.branch(a)
        store.append(b, {"role": "user", "content": "Mittens also hates the hairdryer"})
        c = store.create(title="Taxes")
        store.append(c, {"role": "user", "content": "when is the tax deadline"})
    return a, b, c


def test_empty_home_has_no_sessions_and_creates_nothing(capsys: pytest.CaptureFixture[str],
                                                         home: Path) -> None:
    code, out, err = cli(capsys, home, "list")
    assert code == 0 and "no sessions yet" in out
    code, out, _ = cli(capsys, home, "list", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = cli(capsys, home, "search", "tea")
    assert code == 0 and "no sessions yet" in out
    code, out, err = cli(capsys, home, "show", "abc")
    assert code == 1 and "no sessions yet" in err and len(err.strip().splitlines()) == 1
    assert not (home / "sessions.db").exists()


def test_list_table_and_json(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    a, b, c = _populate(home)
    code, out, err = cli(capsys, home, "list")
    assert code == 0, err
    for sid in (a, b, c):
        assert sid in out
    assert "My cat [Mittens]" in out  # brackets survive (no markup)
    assert out.index(c) < out.index(a)  # most recent first
    code, out, _ = cli(capsys, home, "list", "--json")
    data = json.loads(out)
    assert [d["id"] for d in data] == [c, b, a]
    assert data[1]["parent_id"] == a and data[1]["message_count"] == 5
    code, out, _ = cli(capsys, home, "list", "--json", "--limit", "1")
    assert len(json.loads(out)) == 1


def test_show_by_prefix_with_tool_calls(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    a, _, _ = _populate(home)
    code, out, err = cli(capsys, home, "show", a[:-1], "--system-prompt")
    assert code == 0, err
    assert a in out and "My cat [Mittens] hates the vacuum cleaner" in out
    assert "→ memory(" in out and "Noted, Mittens it is." in out
    assert "You are helpful. [frozen]" in out
    code, out, _ = cli(capsys, home, "show", a, "--json")
    data = json.loads(out)
    assert data["id"] == a and data["system_prompt"] == "You are helpful. [frozen]"
    assert [m["role"] for m in data["messages"]] == ["user", "assistant", "tool", "assistant"]
    assert data["messages"][1]["tool_calls"][0]["function"]["name"] == "memory"


def test_show_unknown_and_ambiguous_ids_are_one_line_errors(capsys: pytest.CaptureFixture[str],
                                                             home: Path) -> None:
    _populate(home)
    code, out, err = cli(capsys, home, "show", "nope")
    assert code == 1 and out == ""
    assert "no session with id 'nope'" in err and "silcrow sessions list" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = cli(capsys, home, "show", "2")  # every id starts with the year
    assert code == 1 and "ambiguous" in err


def test_search_dedups_lineage_and_outputs_json(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    a, b, c = _populate(home)
    code, out, err = cli(capsys, home, "search", "Mittens hates")
    assert code == 0, err
    assert "Mittens" in out and (a in out) != (b in out)  # one row for the a/b lineage
    code, out, _ = cli(capsys, home, "search", "Mittens", "--json")
    hits = json.loads(out)
    assert len(hits) == 1 and hits[0]["session_id"] in (a, b)
    code, out, _ = cli(capsys, home, "search", "tax deadline", "--json")
    assert json.loads(out)[0]["session_id"] == c
    code, out, _ = cli(capsys, home, "search", 'NEAR( "unbalanced')
    assert code == 0 and "no session matched" in out
    code, out, err = cli(capsys, home, "search", "***")
    assert code == 1 and "no words" in err and len(err.strip().splitlines()) == 1


def test_corrupt_database_is_one_line_error(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    home.mkdir(parents=True)
    (home / "sessions.db").write_bytes(b"garbage" * 500)
    code, out, err = cli(capsys, home, "list")
    assert code == 1 and "move it aside" in err and len(err.strip().splitlines()) == 1


def test_real_subprocess_json(home: Path) -> None:
    a, _, _ = _populate(home)
    env = {**os.environ, "NO_COLOR": "1"}
    # The installed console script, as a user runs it.
    exe = Path(sys.executable).with_name("silcrow")
    proc = subprocess.run(
        [str(exe), "--home", str(home), "sessions", "show", a, "--json"],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["id"] == a
    proc = subprocess.run(
        [str(exe), "--home", str(home), "sessions", "show", "nope"],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=60,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "no session with id" in proc.stderr


def test_a_query_without_words_is_refused_even_before_any_session_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "empty-home"
    home.mkdir()
    with pytest.raises(SystemExit) as exit_info:
        main(["--home", str(home), "sessions", "search", "  ***  "])
    assert exit_info.value.code == 1
    assert "has no words to search for" in capsys.readouterr().err
    assert not (home / "sessions.db").exists()
