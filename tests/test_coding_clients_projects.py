"""The real Claude Code and Codex CLIs (from npm, `make node-clients`) in one of two git work trees,
with silcrow connected in the user's config: what each sends its model (tests/coding_support.py's
loopback stand-ins record it) holds that project's notes and none of the other's.

Claude Code gets the project's PROJECT.md block from the session-start hook (the event's `cwd`)
and from silcrow's MCP server, which it starts in the directory it runs in; Codex reaches it
through the MCP server alone (silcrow installs no Codex hook). The model stand-in calls the
`memory` tool's `read` of target `project` (Codex: the resource PROJECT.md), and what it gets back
is the evidence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from coding_support import (
    CLAUDE_ENV,
    REPLY,
    FakeAnthropic,
    FakeResponses,
    clean_env,
    client_binary,
    tool_names_anthropic,
)

from silcrow.home import open_profile

SILCROW = Path(sys.executable).parent / "silcrow"
PROMPT = "how is this project released?"
ALPHA_NOTE = "alpha is released by tagging vX.Y.Z; CI publishes the crate."
BETA_NOTE = "beta must never be released on Fridays."
USER_NOTE = "Ana prefers answers in one paragraph."
READ_PROJECT = {"action": "read", "target": "project"}


def _silcrow(env: dict[str, str], *args: str) -> None:
    done = subprocess.run([str(SILCROW), *args], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr


def _git_tree(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, timeout=60)
    return path.resolve()


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    """A user's HOME, a silcrow home with the user's notes and the notes of two projects."""
    home, silcrow_home = tmp_path / "home", tmp_path / "silcrow"
    home.mkdir()
    alpha, beta = _git_tree(tmp_path / "src" / "alpha"), _git_tree(tmp_path / "src" / "beta")
    profile = open_profile(silcrow_home, create=True)
    profile.notes().add("user", USER_NOTE, origin="cli")
    profile.notes(project=alpha).add("project", ALPHA_NOTE, origin="cli")
    profile.notes(project=beta).add("project", BETA_NOTE, origin="cli")
    env = {**os.environ, "HOME": str(home), "SILCROW_HOME": str(silcrow_home), "NO_COLOR": "1"}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        env.pop(name, None)
    return {"home": home, "env": env, "alpha": alpha, "beta": beta}


def _tool_results(bodies: list[dict[str, Any]]) -> str:
    """Every tool result the client handed its model, as one text."""
    out = []
    for body in bodies:
        for message in body.get("messages") or []:
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out.append(json.dumps(block.get("content"), ensure_ascii=False))
        for item in body.get("input") or []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                out.append(json.dumps(item.get("output"), ensure_ascii=False))
    return "\n".join(out)


def _claude_reads_the_project(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Wait for silcrow's MCP server (as test_coding_clients_real does), then read the project's
    notes once, then answer."""
    names = tool_names_anthropic(body)
    called = [block.get("name") for message in body.get("messages") or []
              for block in (message.get("content") if isinstance(message.get("content"), list) else [])
              if isinstance(block, dict) and block.get("type") == "tool_use"]
    if "mcp__silcrow__memory" not in names:
        return None if called else ("WaitForMcpServers", {"servers": ["silcrow"]})
    return None if "mcp__silcrow__memory" in called else ("mcp__silcrow__memory", READ_PROJECT)


def test_claude_code_in_a_work_tree_gets_only_that_projects_notes(world: dict[str, Any]) -> None:
    claude = client_binary("claude")
    _silcrow(world["env"], "connect", "claude-code")
    with FakeAnthropic(tool_call=_claude_reads_the_project) as fake:
        env = clean_env(world["home"], ANTHROPIC_BASE_URL=fake.url, **CLAUDE_ENV)
        done = subprocess.run([str(claude), "-p", PROMPT, "--allowedTools", "mcp__silcrow__memory"],
                              capture_output=True, text=True, env=env, cwd=world["alpha"], timeout=240,
                              check=False)
        assert done.returncode == 0, done.stderr + done.stdout
        assert REPLY in done.stdout
        bodies = [b for b in fake.bodies() if any(PROMPT in json.dumps(m) for m in b.get("messages") or [])]
    assert bodies, "Claude Code never sent the prompt to the stand-in"
    sent = json.dumps(bodies, ensure_ascii=False)
    # the session-start hook: the user's notes and alpha's, never beta's
    first = json.dumps(bodies[0], ensure_ascii=False)
    assert USER_NOTE in first and ALPHA_NOTE in first and str(world["alpha"]) in first
    assert BETA_NOTE not in sent
    # silcrow's MCP server, started by Claude Code in alpha, serves alpha's notes as target project
    results = _tool_results(bodies)
    assert ALPHA_NOTE in results, results[:2000]
    _silcrow(world["env"], "connect", "claude-code", "--remove")


def _codex_reads_the_project(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Codex starts MCP servers beside the first request: wait for silcrow's (its resources, as
    test_coding_clients_real does), then read the project's notes (the resource PROJECT.md:
    Codex asks a person before any MCP tool that is not read-only, and `codex exec` has none
    to ask), then answer."""
    called = [item.get("name") for item in body.get("input") or []
              if isinstance(item, dict) and item.get("type") == "function_call"]
    if not called:
        return "list_mcp_resources", {"server": "silcrow"}
    if "read_mcp_resource" not in called:
        return "read_mcp_resource", {"server": "silcrow", "uri": "silcrow://memory/PROJECT.md"}
    return None


def test_codex_in_a_work_tree_reaches_that_projects_notes_through_mcp(world: dict[str, Any]) -> None:
    codex = client_binary("codex")
    home = world["home"]
    with FakeResponses(tool_call=_codex_reads_the_project) as fake:
        config = home / ".codex" / "config.toml"
        config.parent.mkdir(parents=True)
        config.write_text(
            '# the stand-in model\nmodel = "gpt-stand-in"\nmodel_provider = "standin"\n'
            'approval_policy = "never"\n\n'
            f'[model_providers.standin]\nname = "stand-in"\nbase_url = "{fake.url}/v1"\n'
            'wire_api = "responses"\n',
            encoding="utf-8",
        )
        _silcrow(world["env"], "connect", "codex")
        if os.environ.get("PYTHONPATH"):  # Codex hands a server only HOME, PATH, LANG and TERM
            text = config.read_text(encoding="utf-8")
            config.write_text(text + f"env = {{ PYTHONPATH = {json.dumps(os.environ['PYTHONPATH'])} }}\n",
                              encoding="utf-8")
        done = subprocess.run([str(codex), "exec", PROMPT], capture_output=True, text=True,
                              env=clean_env(home), cwd=world["beta"], timeout=240, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
        assert REPLY in done.stdout
        bodies = fake.bodies()
    results = _tool_results(bodies)
    assert "silcrow://memory/PROJECT.md" in results and BETA_NOTE in results, results[:2000]
    assert ALPHA_NOTE not in json.dumps(bodies, ensure_ascii=False)
