"""`silcrow chat` as a user runs it: a real subprocess, stdin piped, the stand-in on loopback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from silcrow.errors import ConfigError
from silcrow.sessions import SessionStore
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _chat(home: Path, stdin: str, *args: str, env_extra: dict[str, str] | None = None,
          base_url: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"OPENAI_API_KEY", "OPENAI_BASE_URL", "SILCROW_MODEL", "SILCROW_PROVIDER"}}
    env.update({"SILCROW_HOME": str(home), "HOME": str(home / "user-home"), "COLUMNS": "200"})
    if base_url:
        env["OPENAI_BASE_URL"] = base_url
    env.update(env_extra or {})
    proc = subprocess.run(
        [sys.executable, "-c", "from silcrow.cli.main import main; main()", "chat", *args],
        input=stdin, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120,
    )
    proc.stdout = ANSI.sub("", proc.stdout)
    return proc


def _home(tmp_path: Path, config: str = "") -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "none"\n' + config, encoding="utf-8")
    return home


def test_repl_session_with_commands(tmp_path: Path) -> None:
    home = _home(tmp_path)
    script = [
        {"tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                          "content": "User's dog is called Bolacha."}}]},
        {"content": "Saved that Bolacha is your dog."},
        # a model echoing recalled context: the scrubber must keep it off the screen
        {"content": "Sure. <memory-context>SECRET-RECALLED-TEXT</memory-context>Bolacha is a good name."},
    ]
    stdin = "\n".join([
        "My dog is called Bolacha.", "Do you like the name?", "/memory", "/sessions", "/branch",
        "/compress", "/new", "/resume", "/bogus", "/quit",
    ]) + "\n"
    with ScriptedModelServer(script, default={"content": "ok"}) as server:
        proc = _chat(home, stdin, base_url=server.base_url)
        requests = server.requests
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "silcrow chat" in out and "model gpt-4o-mini" in out  # the default model name
    assert "Saved that Bolacha is your dog." in out
    assert "[memory add user User's dog is called Bolacha.] ok" in out  # tool activity is shown
    assert "Bolacha is a good name." in out and "SECRET-RECALLED-TEXT" not in out
    assert "User's dog is called Bolacha." in out  # /memory shows what is on disk
    assert "branched" in out and "nothing to compress yet" in out
    assert "new session" in out and "resumed session" in out
    assert "unknown command /bogus" in proc.stderr
    assert requests[0]["stream"] is True  # the REPL streams
    assert MemoryStore(home).entries("user") == ["User's dog is called Bolacha."]
    with SessionStore(home / "sessions.db") as sessions:
        # the first and its branch; the new one, left without a message for /resume, is not kept
        assert len(sessions.list()) == 2


def _invoke(home: Path, stdin: str, *args: str, **env: str | None) -> Any:
    """Run `silcrow chat` in-process with Typer's runner (no interpreter start-up to wait for)."""
    from typer.testing import CliRunner

    from silcrow.cli.main import _register, app

    _register()
    clean: dict[str, str | None] = {"SILCROW_HOME": str(home), "OPENAI_API_KEY": None,
                                    "OPENAI_BASE_URL": None, "SILCROW_MODEL": None, "SILCROW_PROVIDER": None}
    return CliRunner().invoke(app, ["chat", *args], input=stdin, env={**clean, **env})


def test_settings_precedence_flag_env_config(tmp_path: Path) -> None:
    home = _home(tmp_path, 'model = "model-from-config"\n')
    with ScriptedModelServer(default={"content": "ok"}) as server:
        for args, env_model in (((), None), ((), "model-from-env"),
                                (("--model", "model-from-flag"), "model-from-env")):
            result = _invoke(home, "hi there\n", *args, OPENAI_BASE_URL=server.base_url,
                             SILCROW_MODEL=env_model)
            assert result.exit_code == 0, result.output
        models = [r["model"] for r in server.requests]
    assert models == ["model-from-config", "model-from-env", "model-from-flag"]


def test_base_url_flag_beats_env(tmp_path: Path) -> None:
    home = _home(tmp_path)
    with ScriptedModelServer(default={"content": "from the flag server"}) as server:
        result = _invoke(home, "hello\n", "--base-url", server.base_url,
                         OPENAI_BASE_URL="http://127.0.0.1:9/v1")  # env points nowhere
    assert "from the flag server" in result.output


def test_missing_key_is_one_clear_line(tmp_path: Path) -> None:
    home = _home(tmp_path)
    proc = _chat(home, "", "--base-url", "https://api.example.com/v1")
    assert proc.returncode == 1
    assert "no API key for https://api.example.com/v1" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unreachable_model_keeps_the_repl_alive(tmp_path: Path) -> None:
    home = _home(tmp_path, "")
    proc = _chat(home, "hello\n/sessions\n", base_url="http://127.0.0.1:9/v1")
    assert proc.returncode == 0
    assert "model error" in proc.stderr and "cannot reach" in proc.stderr
    assert "messages" in proc.stdout  # the /sessions table still printed after the error


def test_loop_settings_from_config_toml(tmp_path: Path) -> None:
    home = _home(tmp_path, "[agent]\nnudge_interval = 1\nreplay_recall = false\n")
    with ScriptedModelServer(default={"content": "ok"}) as server:
        result = _invoke(home, "first message here\nsecond message here\n", OPENAI_BASE_URL=server.base_url)
        requests = server.requests
    assert result.exit_code == 0, result.output
    assert "[silcrow reminder" in requests[1]["messages"][-1]["content"]  # nudged after one turn
    (tmp_path / "bad").mkdir()
    bad = _home(tmp_path / "bad", "[agent]\nnudge_interval = \"often\"\n")
    result = _invoke(bad, "")
    assert isinstance(result.exception, ConfigError)
    assert "nudge_interval must be a whole number" in str(result.exception)


def test_tool_call_lines_report_failures_and_survive_odd_results(capsys: Any) -> None:
    from silcrow.cli._chat import _show_tool_call

    _show_tool_call("recall_search", '{"query": "dogs"}', '["hit one", "hit two"]')  # a list result
    _show_tool_call("memory", "{not json", '{"success": false, "error": "bad arguments"}')
    _show_tool_call("memory", '{"action": "add", "content": "x"}', '{"success": true}')
    lines = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert lines == ["[recall_search dogs] ok",
                     "[memory (arguments were not valid JSON)] refused: bad arguments",
                     "[memory add x] ok"]


def test_chat_reviews_a_nearly_full_file_and_says_what_it_recalled(tmp_path: Path) -> None:
    home = _home(tmp_path, "[memory]\nuser_char_limit = 120\nreview_threshold = 0.5\n")
    store = MemoryStore(home)
    for text in ("User lives in Lisbon", "User moved to Porto in March", "Drinks tea"):
        assert store.add("user", text, origin="cli")["success"]
    # A past conversation the local provider recalls for the next prompt.
    from silcrow.recall.local import LocalProvider

    provider = LocalProvider(home, embedder="none")
    provider.initialize("old")
    provider.sync_turn("My sister Ana plays the cello in Porto", "How lovely!", session_id="old")
    provider.shutdown()
    with ScriptedModelServer(default={"content": "ok"}) as server:
        proc = _chat(home, "Who plays the cello?\n/quit\n", base_url=server.base_url)
    assert proc.returncode == 0, proc.stderr
    assert "memory review: a note file is nearly full; 1 proposal" in proc.stdout
    assert any(p.why and "Lisbon" in p.why for p in MemoryStore(home).pending())
    assert store.entries("user") == ["User lives in Lisbon", "User moved to Porto in March", "Drinks tea"]
    assert "recalled 1 memory" in proc.stdout or "recalled 2 memories" in proc.stdout
