"""The README's library examples run as written (the Agent one against the loopback stand-in)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from silcrow import Agent
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.DOTALL)


def test_the_readme_has_the_store_and_agent_examples() -> None:
    assert len(BLOCKS) == 2 and "MemoryStore()" in BLOCKS[0] and "Agent(" in BLOCKS[1]


def test_the_store_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path))
    namespace: dict[str, object] = {}
    exec(compile(BLOCKS[0], "README.md", "exec"), namespace)  # noqa: S102 - our own documentation
    result = namespace["result"]
    assert isinstance(result, dict) and result["success"] is False
    assert result["error"].startswith("No entry in MEMORY.md contains 'staging'")
    store = MemoryStore(tmp_path)
    assert store.entries("user") == ["Prefers concise answers; writes Python 3.13."]
    assert store.entries("memory") == ["CI runs make test"]
    assert '"success": true' in capsys.readouterr().out


def test_the_agent_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    save = {"tool_calls": [{"name": "memory", "arguments": {
        "action": "add", "target": "user", "content": "User moved to Lisbon in November 2026."}}]}
    with ScriptedModelServer([save, {"content": "Noted: you live in Lisbon now."}],
                             default={"content": "nothing to save"}) as server:
        monkeypatch.setenv("SILCROW_HOME", str(tmp_path))
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        namespace: dict[str, object] = {}
        exec(compile(BLOCKS[1], "README.md", "exec"), namespace)  # noqa: S102 - our own documentation
    assert "Noted: you live in Lisbon now." in capsys.readouterr().out
    assert MemoryStore(tmp_path).entries("user") == ["User moved to Lisbon in November 2026."]
    agent = namespace["agent"]
    assert isinstance(agent, Agent)
    assert "User moved to Lisbon in November 2026." in agent.system_prompt  # the new session's prompt
