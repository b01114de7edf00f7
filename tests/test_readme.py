"""The library examples of the README's tour and of docs/usage.md run as written (the Agent one against
the loopback stand-in), and the README stays a five-minute read whose links all lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from silcrow import Agent
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# Both pages carry the same two examples: the README's tour and the docs site's library page.
PAGES = [README, ROOT / "docs" / "usage.md"]


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)


def _block(page: Path, holding: str) -> str:
    return next(block for block in _blocks(page) if holding in block)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_the_page_has_the_store_and_agent_examples(page: Path) -> None:
    blocks = _blocks(page)
    assert "MemoryStore()" in blocks[0] and any("Agent(" in block for block in blocks[1:])


def test_the_readme_is_a_short_read() -> None:
    assert README.stat().st_size <= 20_000  # the rest belongs in docs/


def test_every_relative_link_of_the_readme_leads_to_a_file() -> None:
    # mkdocs --strict checks the links inside docs/; the README is outside the site.
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert local and all((ROOT / link).is_file() for link in local), local


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_the_store_example_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path))
    namespace: dict[str, object] = {}
    exec(compile(_blocks(page)[0], page.name, "exec"), namespace)  # noqa: S102 - our own documentation
    result = namespace["result"]
    assert isinstance(result, dict) and result["success"] is False
    assert result["error"].startswith("No entry in MEMORY.md contains 'staging'")
    store = MemoryStore(tmp_path)
    assert store.entries("user") == ["Prefers concise answers; writes Python 3.13."]
    assert store.entries("memory") == ["CI runs make test"]
    assert '"success": true' in capsys.readouterr().out


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_the_agent_example_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    save = {"tool_calls": [{"name": "memory", "arguments": {
        "action": "add", "target": "user", "content": "User moved to Lisbon in November 2026."}}]}
    with ScriptedModelServer([save, {"content": "Noted: you live in Lisbon now."}],
                             default={"content": "nothing to save"}) as server:
        monkeypatch.setenv("SILCROW_HOME", str(tmp_path))
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        namespace: dict[str, object] = {}
        exec(compile(_block(page, "Agent("), page.name, "exec"), namespace)  # noqa: S102 - our own documentation
    assert "Noted: you live in Lisbon now." in capsys.readouterr().out
    assert MemoryStore(tmp_path).entries("user") == ["User moved to Lisbon in November 2026."]
    agent = namespace["agent"]
    assert isinstance(agent, Agent)
    assert "User moved to Lisbon in November 2026." in agent.system_prompt  # the new session's prompt


def test_the_usage_page_shows_both_memories_through_open_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    page = ROOT / "docs" / "usage.md"
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path))
    namespace: dict[str, object] = {}
    exec(compile(_block(page, "profile.recall("), page.name, "exec"), namespace)  # noqa: S102 - our own documentation
    out = capsys.readouterr().out
    assert "('Prefers metric units.',)" in out
    assert "Ada went hiking in the Alps in May." in out
    assert "<memory-context>" in out and "</memory-context>" in out  # fenced, as an agent gets it
    assert MemoryStore(tmp_path).entries("user") == ["Prefers metric units."]
    from silcrow import open_profile

    recall = open_profile(tmp_path).recall("check")
    try:
        assert recall.search("hiking in the Alps", k=3).hits == ()  # forgotten
    finally:
        recall.shutdown()
