"""`silcrow memory pending / approve / reject` through the real root CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_cli_memory import mem

from silcrow.store import MemoryStore
from silcrow.tool import memory_call


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "env-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    monkeypatch.setenv("NO_COLOR", "1")


def _propose(home: Path, **call: Any) -> str:
    result = memory_call(MemoryStore(home, write_policy="approve"), call)
    assert result.get("pending"), result
    return str(result["proposal_id"])


def test_pending_shows_a_diff_and_approve_applies(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    assert mem(capsys, home, "add", "Editor: vim")[0] == 0  # a person's write: applied at once
    pid = _propose(home, action="replace", target="memory", old_text="vim", content="Editor: [helix]")
    code, out, _ = mem(capsys, home, "pending")
    assert code == 0 and pid in out and "- Editor: vim" in out and "+ Editor: [helix]" in out
    code, out, _ = mem(capsys, home, "pending", "--json")
    [item] = json.loads(out)
    assert item["changes"] == [{"before": "Editor: vim", "after": "Editor: [helix]"}]
    assert item["base"] and item["problem"] is None
    code, out, err = mem(capsys, home, "approve", pid)
    assert code == 0, err
    assert MemoryStore(home).entries("memory") == ["Editor: [helix]"]
    code, out, _ = mem(capsys, home, "pending")
    assert "(no pending proposals)" in out


def test_approve_all_reports_each_and_exits_1_on_a_refusal(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    home = tmp_path / "home"
    mem(capsys, home, "add", "Shell: zsh")
    good = _propose(home, action="add", target="user", content="Name: Sam")
    stale = _propose(home, action="remove", target="memory", old_text="zsh")
    mem(capsys, home, "replace", "zsh", "Shell: fish")
    code, out, err = mem(capsys, home, "approve", "--all")
    assert code == 1 and "Stale:" in err and f"memory reject {stale}" in err
    assert MemoryStore(home).entries("user") == ["Name: Sam"]
    assert [p.id for p in MemoryStore(home).pending()] == [stale]
    assert good not in mem(capsys, home, "pending")[1]


def test_approve_all_shows_each_against_the_notes_it_meets(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    home = tmp_path / "home"
    mem(capsys, home, "add", "Shell: zsh")
    _propose(home, action="replace", target="memory", old_text="zsh", content="Shell: fish")
    _propose(home, target="memory", operations=[
        {"action": "remove", "old_text": "Shell"}, {"action": "add", "content": "Shell: bash"}])
    code, out, err = mem(capsys, home, "approve", "--all")
    assert code == 0, err
    # The batch is shown against the notes the first approval leaves: it removes "fish", not "zsh".
    assert out.index("- Shell: zsh") < out.index("+ Shell: fish") < out.index("- Shell: fish")
    assert out.index("- Shell: fish") < out.index("+ Shell: bash")
    assert MemoryStore(home).entries("memory") == ["Shell: bash"]


def test_approve_with_a_base_refuses_when_the_notes_changed(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    home = tmp_path / "home"
    mem(capsys, home, "add", "Shell: zsh")
    pid = _propose(home, action="add", target="memory", content="Editor: vim")
    [item] = json.loads(mem(capsys, home, "pending", "--json")[1])
    mem(capsys, home, "add", "Pager: less")
    code, _, err = mem(capsys, home, "approve", pid, "--base", item["base"])
    assert code == 1 and "Stale:" in err and "review it again" in err
    assert [p.id for p in MemoryStore(home).pending()] == [pid]


def test_reject_and_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    pid = _propose(home, action="add", target="memory", content="maybe")
    code, out, _ = mem(capsys, home, "reject", pid, "--reason", "wrong")
    assert code == 0 and "Rejected" in out
    assert MemoryStore(home).pending() == [] and MemoryStore(home).entries("memory") == []
    code, _, err = mem(capsys, home, "reject", pid)
    assert code == 1 and "no pending proposal" in err
    code, _, err = mem(capsys, home, "approve")
    assert code == 2 and "one proposal ID or --all" in err


def test_chat_pending_approve_reject(tmp_path: Path) -> None:
    from test_cli_chat import _chat, _home

    from silcrow.testing import ScriptedModelServer

    home = _home(tmp_path, '[memory]\nwrite_policy = "approve"\nprovider = "none"\n')
    script = [
        {"tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                          "content": "Name: Sam"}}]},
        {"content": "I asked to remember your name."},
        {"tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                          "content": "Likes opera"}}]},
        {"content": "Noted."},
    ]
    with ScriptedModelServer(script, default={"content": "ok"}) as server:
        first = _chat(home, "I am Sam.\n/pending\n/quit\n", base_url=server.base_url)
        assert first.returncode == 0, first.stderr
        assert "awaiting your approval" in first.stdout and "+ Name: Sam" in first.stdout
        assert MemoryStore(home).entries("user") == []
        [name] = MemoryStore(home).pending()
        stdin = f"I like opera.\n/approve {name.id}\n/pending\n/quit\n"
        second = _chat(home, stdin, base_url=server.base_url)
        assert second.returncode == 0, second.stderr
        assert MemoryStore(home).entries("user") == ["Name: Sam"]
        [opera] = MemoryStore(home).pending()
        assert opera.content == "Likes opera"
        assert opera.who.get("client") == "agent" and opera.who.get("session")
        third = _chat(home, f"/reject {opera.id} not true\n/reject\n/quit\n", base_url=server.base_url)
    assert third.returncode == 0 and "Rejected" in third.stdout and "needs a proposal id" in third.stderr
    assert MemoryStore(home).pending() == []


def test_concurrent_approvals_apply_a_proposal_once(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    home = tmp_path / "home"
    MemoryStore(home).add("memory", "counter: 1", origin="cli")
    pid = _propose(home, action="replace", target="memory", old_text="counter", content="counter: 2")
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-c", "from silcrow.cli.main import main; main()", "--home", str(home),
               "memory", "approve", pid]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(4)]
    outcomes = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    assert sorted(code for code, _ in outcomes) == [0, 1, 1, 1], outcomes
    assert all("no pending proposal" in err for code, err in outcomes if code)
    assert MemoryStore(home).entries("memory") == ["counter: 2"]
    assert [r["action"] for r in MemoryStore(home).history("memory")] == ["add", "replace"]
