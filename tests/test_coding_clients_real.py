"""The real Claude Code and Codex CLIs (from npm, `make node-clients`) with silcrow connected.

Each runs non-interactively in a throw-away HOME, offline, its model endpoint pointed at a
loopback stand-in of the model API (tests/coding_support.py). What the client sends its model
is the evidence: silcrow's MCP tools in the request's tool definitions, and for Claude Code
the hooks' context (the notes, the fenced recall) in the request. The transcripts the clients
write are then imported back with `silcrow recall ingest`.
"""

from __future__ import annotations

import json
import os
import shutil
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
    tool_names_responses,
)
from pydantic import TypeAdapter

from silcrow.home import open_profile
from silcrow.safety import FENCE_OPEN

SILCROW = Path(sys.executable).parent / "silcrow"
DATA = Path(__file__).parent / "data" / "coding"
PROMPT = "why did the nightly database backup upload keep failing?"


def _silcrow(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(SILCROW), *args], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    """A user's HOME with Claude Code transcripts, a silcrow home with notes and those sessions in
    recall, and a project directory to run the clients in."""
    home, silcrow_home, project = tmp_path / "home", tmp_path / "silcrow", tmp_path / "work"
    project.mkdir(parents=True)
    shutil.copytree(DATA / "claude", home / ".claude")
    env = {**os.environ, "HOME": str(home), "SILCROW_HOME": str(silcrow_home), "NO_COLOR": "1"}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        env.pop(name, None)
    store = open_profile(silcrow_home, create=True).store()
    store.add("memory", "tidepool is deployed with Ansible from the ops repository.")
    _silcrow(env, "recall", "ingest", "--from", "claude-code")
    return {"home": home, "silcrow_home": silcrow_home, "project": project, "env": env}


def _wait_for_silcrow(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Claude Code starts MCP servers in the background and offers WaitForMcpServers until they
    are up: a model that wants silcrow's tools calls it once, then answers."""
    names = tool_names_anthropic(body)
    waited = any(
        isinstance(block, dict) and block.get("type") == "tool_result"
        for message in body.get("messages") or []
        for block in (message.get("content") if isinstance(message.get("content"), list) else [])
    )
    if "WaitForMcpServers" in names and not any(n.startswith("mcp__silcrow__") for n in names) and not waited:
        return "WaitForMcpServers", {"servers": ["silcrow"]}
    return None


def test_claude_code_lists_silcrow_tools_and_gets_the_hooks_context(world: dict[str, Any]) -> None:
    claude = client_binary("claude")
    home, project = world["home"], world["project"]
    _silcrow(world["env"], "connect", "claude-code")
    with FakeAnthropic(tool_call=_wait_for_silcrow) as fake:
        env = clean_env(home, ANTHROPIC_BASE_URL=fake.url, **CLAUDE_ENV)
        done = subprocess.run(
            [str(claude), "-p", PROMPT],
            capture_output=True,
            text=True,
            env=env,
            cwd=project,
            timeout=240,
            check=False,
        )
        assert done.returncode == 0, done.stderr + done.stdout
        assert REPLY in done.stdout
        bodies = [b for b in fake.bodies() if any(PROMPT in json.dumps(m) for m in b.get("messages") or [])]
        events = list(fake.events)
    assert bodies, "Claude Code never sent the prompt to the stand-in"
    # silcrow's MCP server, started by Claude Code from the config connect wrote, lists its tools
    names = set().union(*(tool_names_anthropic(b) for b in bodies))
    assert {"mcp__silcrow__memory", "mcp__silcrow__session_search"} <= names, sorted(names)
    assert any(n.startswith("mcp__silcrow__recall_") for n in names), sorted(names)
    # SessionStart: the notes; UserPromptSubmit: the fenced recall for this prompt
    request = json.dumps(bodies[0])
    assert "deployed with Ansible from the ops repository" in request
    assert FENCE_OPEN in request and "copies the Postgres dumps to object storage" in request
    # the stand-in's stream is what the Anthropic SDK's own types accept
    from anthropic.types import RawMessageStreamEvent

    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    for event in events:
        adapter.validate_python(event)
    # SessionEnd: the session Claude Code just wrote is in recall now
    found = json.loads(_silcrow(world["env"], "recall", "search", PROMPT, "-k", "20", "--json").stdout)
    assert any(hit["text"] == PROMPT for hit in found), [h["text"][:40] for h in found]
    # and the transcript the real client wrote imports like the fixtures
    again = json.loads(_silcrow(world["env"], "recall", "ingest", "--from", "claude-code", "--json").stdout)
    assert again["stored"] == 0 and again["records"] >= 8
    _silcrow(world["env"], "connect", "claude-code", "--remove")
    assert not (home / ".claude" / "settings.json").exists()


def _list_silcrow_resources(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Codex 0.171 starts MCP servers alongside the first request; a model that wants silcrow asks
    for its resources once (which waits for the server), then answers."""
    names = tool_names_responses(body)
    called = any(item.get("type") == "function_call_output" for item in body.get("input") or [])
    if not any(n.startswith("mcp__silcrow") for n in names) and not called:
        return "list_mcp_resources", {"server": "silcrow"}
    return None


def test_codex_lists_silcrow_tools(world: dict[str, Any]) -> None:
    codex = client_binary("codex")
    home, project = world["home"], world["project"]
    with FakeResponses(tool_call=_list_silcrow_resources) as fake:
        config = home / ".codex" / "config.toml"
        config.parent.mkdir(parents=True)
        config.write_text(
            '# the stand-in model\nmodel = "gpt-stand-in"\nmodel_provider = "standin"\n\n'
            f'[model_providers.standin]\nname = "stand-in"\nbase_url = "{fake.url}/v1"\n'
            'wire_api = "responses"\n',
            encoding="utf-8",
        )
        before = config.read_bytes()
        _silcrow(world["env"], "connect", "codex")
        env = clean_env(home)
        done = subprocess.run(
            [str(codex), "exec", "--skip-git-repo-check", PROMPT],
            capture_output=True,
            text=True,
            env=env,
            cwd=project,
            timeout=240,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        assert REPLY in done.stdout
        bodies, events = fake.bodies(), list(fake.events)
    names = set().union(*(tool_names_responses(b) for b in bodies))
    assert any(n.startswith("mcp__silcrow") for n in names), sorted(names)
    flat = json.dumps([b.get("tools") for b in bodies])
    assert '"session_search"' in flat and '"memory"' in flat
    from openai.types.responses import ResponseStreamEvent

    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    for event in events:
        adapter.validate_python(event)
    # the rollout Codex wrote imports with the project it ran in
    ingested = json.loads(_silcrow(world["env"], "recall", "ingest", "--from", "codex", "--json").stdout)
    assert ingested["stored"] >= 2
    found = json.loads(
        _silcrow(world["env"], "recall", "search", PROMPT, "--project", str(project), "--json").stdout
    )
    assert any(hit["text"] == PROMPT for hit in found)
    _silcrow(world["env"], "connect", "codex", "--remove")
    assert config.read_bytes() == before
