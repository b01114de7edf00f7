"""Project notes in the framework integrations: each one made with ``project=DIR`` shows the
notes of the git work tree holding DIR (the third frozen block) and its memory tool writes to it
(target ``project``), never to another work tree's; made without, it is what it always was.

The frameworks run for real (their official SDKs, against loopback stand-ins of the model APIs);
the projects are real ``git init`` work trees."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import anthropic
import pytest
from agent_framework import Agent as FrameworkAgent
from agent_framework.openai import OpenAIChatClient
from agents import Agent as SdkAgent
from agents import Runner
from agents.models.openai_responses import OpenAIResponsesModel as SdkResponsesModel
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.memory import Memory
from llm_standins import ChatCompletionsLLM
from openai import AsyncOpenAI
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider

from silcrow.home import open_profile
from silcrow.integrations._memory import ProfileMemory
from silcrow.integrations.agent_framework import SilcrowContextProvider
from silcrow.integrations.anthropic import MemoryTool
from silcrow.integrations.llama_index import SilcrowMemoryBlock
from silcrow.integrations.openai_agents import memory_tools
from silcrow.integrations.pydantic_ai import SilcrowCapability
from silcrow.testing import ScriptedMessagesServer, ScriptedModelServer, ScriptedResponsesServer

USER_NOTE = "The user is called Sam."
APP_NOTE = "The app builds with make dist."
API_NOTE = "The api deploys with fly."
WRITTEN = "The app's tests run with make check."


def git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "src").mkdir()
    return path


@pytest.fixture
def place(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A home with the user's note and two real work trees, each with a note of its own."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('provider = "none"\n', encoding="utf-8")
    app, api = git_init(tmp_path / "app"), git_init(tmp_path / "api")
    profile = open_profile(home, None)
    profile.store().add("user", USER_NOTE)
    assert profile.notes(project=app).add("project", APP_NOTE, origin="api")["success"] is True
    assert profile.notes(project=api).add("project", API_NOTE, origin="api")["success"] is True
    return home, app, api


def _written(home: Path, app: Path, api: Path) -> None:
    """The model's write is in the app's PROJECT.md, not the api's nor the profile's notes."""
    profile = open_profile(home, None)
    assert profile.notes(project=app).entries("project") == [APP_NOTE, WRITTEN]
    assert profile.notes(project=api).entries("project") == [API_NOTE]
    assert WRITTEN not in profile.store().entries("memory") + profile.store().entries("user")


def _block(root: Path) -> str:
    return f"PROJECT (notes on the project at {root.resolve()})"


def _target_enum(tools: list[dict[str, Any]]) -> list[str]:
    memory = next(t for t in tools if t.get("name") == "memory")
    return list(memory["parameters"]["properties"]["target"]["enum"])


def _succeeded(output: str) -> bool:
    """Whether a tool's answer says the write was made (a framework that checks the arguments
    against the schema answers a target it does not offer with its own error text)."""
    try:
        return json.loads(output).get("success") is True
    except ValueError:
        return False


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


ADD = _call("memory", {"action": "add", "target": "project", "content": WRITTEN})


# -- the shared path every framework goes through ----------------------------------------------

def test_profile_memory_in_a_project_shows_and_writes_its_notes(place: tuple[Path, Path, Path]) -> None:
    home, app, api = place
    memory = ProfileMemory(open_profile(home, None), client="test", project=app / "src")
    notes = memory.notes()
    assert USER_NOTE in notes and _block(app) in notes and APP_NOTE in notes
    assert API_NOTE not in notes
    assert notes.index(USER_NOTE) < notes.index(_block(app))  # the profile's blocks, then the project's
    assert "PROJECT" in memory.instructions() and APP_NOTE in memory.instructions()
    schema = next(s for s in memory.tools() if s.name == "memory")
    assert schema.parameters["properties"]["target"]["enum"] == ["memory", "user", "project"]
    answer = json.loads(memory.call("memory", {"action": "add", "target": "project", "content": WRITTEN}))
    assert answer["success"] is True
    _written(home, app, api)
    assert WRITTEN not in memory.notes()  # frozen for the conversation
    memory.close()


def test_profile_memory_without_a_project_is_unchanged(place: tuple[Path, Path, Path],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    home, app, _ = place
    monkeypatch.chdir(app)  # the process's directory is no project of an object given none
    profile = open_profile(home, None)
    memory = ProfileMemory(profile, client="test")
    profile.store().load()
    assert memory.notes() == profile.store().system_prompt_section().strip()
    assert "PROJECT" not in memory.instructions() and APP_NOTE not in memory.instructions()
    schema = next(s for s in memory.tools() if s.name == "memory")
    assert schema.parameters["properties"]["target"]["enum"] == ["memory", "user"]
    refused = json.loads(memory.call("memory", {"action": "add", "target": "project", "content": WRITTEN}))
    assert refused["success"] is False and "needs a project" in refused["error"]
    assert open_profile(home, None).notes(project=app).entries("project") == [APP_NOTE]
    memory.close()


# -- LlamaIndex: the block's text ----------------------------------------------------------------

def _system(request: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")


@pytest.mark.parametrize("project", [True, False])
def test_llama_index_block_shows_the_projects_notes(place: tuple[Path, Path, Path], project: bool) -> None:
    home, app, _ = place
    block = SilcrowMemoryBlock(home=home, project=app if project else None)
    with ScriptedModelServer(default={"content": "ok"}) as server:
        held = Memory.from_defaults(session_id="s-1", memory_blocks=[block])
        engine = SimpleChatEngine.from_defaults(llm=ChatCompletionsLLM(base_url=server.base_url), memory=held)
        engine.chat("How do I build the app?")
        system = _system(server.requests[0])
    assert USER_NOTE in system
    assert (APP_NOTE in system and _block(app) in system) is project
    assert "PROJECT" not in system or project and API_NOTE not in system
    block.close()


# -- Pydantic AI, Agent Framework, the Agents SDK: the instructions and the tool's write ---------

def test_pydantic_ai_capability_in_a_project(place: tuple[Path, Path, Path]) -> None:
    home, app, api = place
    with SilcrowCapability(home=home, project=app) as capability, \
            ScriptedResponsesServer([ADD, {"content": "Noted."}]) as server:
        client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
        model = OpenAIResponsesModel("gpt-test", provider=OpenAIProvider(openai_client=client))
        PydanticAgent(model, capabilities=[capability]).run_sync("Tests run with make check.")
        assert server.violations == [] and server.remaining == 0
        request, outputs = server.requests[0], list(server.tool_outputs().values())
    assert _block(app) in request["instructions"] and APP_NOTE in request["instructions"]
    assert API_NOTE not in request["instructions"]
    assert _target_enum(request["tools"]) == ["memory", "user", "project"]
    assert json.loads(outputs[0])["success"] is True
    _written(home, app, api)


def test_pydantic_ai_capability_without_a_project(place: tuple[Path, Path, Path]) -> None:
    home, app, _ = place
    with SilcrowCapability(home=home) as capability, \
            ScriptedResponsesServer([ADD, {"content": "No."}]) as server:
        client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
        model = OpenAIResponsesModel("gpt-test", provider=OpenAIProvider(openai_client=client))
        PydanticAgent(model, capabilities=[capability]).run_sync("Tests run with make check.")
        request, outputs = server.requests[0], list(server.tool_outputs().values())
    assert "PROJECT" not in request["instructions"] and APP_NOTE not in request["instructions"]
    assert _target_enum(request["tools"]) == ["memory", "user"]
    assert json.loads(outputs[0])["success"] is False
    assert open_profile(home, None).notes(project=app).entries("project") == [APP_NOTE]


@pytest.mark.parametrize("project", [True, False])
def test_agent_framework_provider(place: tuple[Path, Path, Path], project: bool) -> None:
    home, app, api = place
    with SilcrowContextProvider(home=home, project=app if project else None) as provider, \
            ScriptedResponsesServer([ADD, {"content": "Noted."}]) as server:
        client = OpenAIChatClient(model="gpt-test", api_key="test-key", base_url=server.base_url)
        agent = FrameworkAgent(client=client, instructions="Be brief.", context_providers=[provider])
        asyncio.run(agent.run("Tests run with make check.", session=agent.create_session(session_id="s-1")))
        assert server.violations == []
        request, outputs = server.requests[0], list(server.tool_outputs().values())
    assert (APP_NOTE in request["instructions"]) is project and API_NOTE not in request["instructions"]
    assert _target_enum(request["tools"]) == ["memory", "user", *(["project"] if project else [])]
    assert _succeeded(outputs[0]) is project
    if project:
        _written(home, app, api)
    else:
        assert open_profile(home, None).notes(project=app).entries("project") == [APP_NOTE]


@pytest.mark.parametrize("project", [True, False])
def test_openai_agents_memory_tools(place: tuple[Path, Path, Path], project: bool) -> None:
    home, app, api = place
    with memory_tools(home=home, project=app / "src" if project else None) as tools, \
            ScriptedResponsesServer([ADD, {"content": "Noted."}]) as server:
        client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
        agent = SdkAgent(name="assistant", instructions=tools.instructions, tools=tools.tools,
                         model=SdkResponsesModel(model="gpt-test", openai_client=client))
        Runner.run_sync(agent, "Tests run with make check.")
        assert server.violations == []
        request, outputs = server.requests[0], list(server.tool_outputs().values())
    assert (_block(app) in tools.instructions and APP_NOTE in request["instructions"]) is project
    assert USER_NOTE in request["instructions"] and API_NOTE not in request["instructions"]
    assert _target_enum(request["tools"]) == ["memory", "user", *(["project"] if project else [])]
    assert _succeeded(outputs[0]) is project
    if project:
        _written(home, app, api)


# -- Claude's memory tool: /memories/PROJECT.md ------------------------------------------------

MEMORY_BETA = "context-management-2025-06-27"


def _claude(tool: MemoryTool, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    with ScriptedMessagesServer([{"tool_calls": calls}, {"content": "Done."}]) as server:
        client = anthropic.Anthropic(api_key="test-key", base_url=server.base_url, max_retries=0)
        client.beta.messages.tool_runner(
            model="claude-test", max_tokens=1024, tools=[tool], betas=[MEMORY_BETA],
            system=tool.system_prompt_section(),
            messages=[{"role": "user", "content": "Remember what matters."}]).until_done()
        assert server.violations == [] and server.remaining == 0
        return server.tool_results()


def _use(command: str, **fields: Any) -> dict[str, Any]:
    return {"name": "memory", "arguments": {"command": command, **fields}}


def test_claude_memory_tool_in_a_project(place: tuple[Path, Path, Path]) -> None:
    home, app, api = place
    with MemoryTool(home=home, project=app / "src") as tool:
        assert _block(app) in tool.system_prompt_section() and APP_NOTE in tool.system_prompt_section()
        results = _claude(tool, [_use("view", path="/memories"),
                                 _use("view", path="/memories/PROJECT.md"),
                                 _use("insert", path="/memories/PROJECT.md", insert_line=1,
                                      insert_text=WRITTEN),
                                 _use("view", path="/memories/project.md")])
    listing, shown, inserted, lookalike = (r["text"] for r in results)
    assert [r["is_error"] for r in results] == [False, False, False, True]
    assert "/memories/PROJECT.md" in listing and "/memories/MEMORY.md" in listing
    assert APP_NOTE in shown and API_NOTE not in shown
    assert "/memories/PROJECT.md" in inserted and "/memories/PROJECT.md" in lookalike
    _written(home, app, api)
    assert not (home / "memory-tool" / "PROJECT.md").exists()  # the notes, not a file of the model's


def test_claude_memory_tool_without_a_project(place: tuple[Path, Path, Path]) -> None:
    home, app, _ = place
    with MemoryTool(home=home) as tool:
        assert "PROJECT" not in tool.system_prompt_section()
        results = _claude(tool, [_use("view", path="/memories"),
                                 _use("create", path="/memories/PROJECT.md", file_text=WRITTEN)])
    assert not any(r["is_error"] for r in results)
    assert "PROJECT.md" not in results[0]["text"]
    # No project: PROJECT.md is a file of the model's own, as it always was.
    assert (home / "memory-tool" / "PROJECT.md").read_text(encoding="utf-8") == WRITTEN
    assert open_profile(home, None).notes(project=app).entries("project") == [APP_NOTE]
