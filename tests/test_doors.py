"""One profile, every door: each documented way of opening the notes applies every setting of the
profile's ``config.toml``. With ``[memory] write_policy = "approve"`` a model's write is held as a
proposal whichever door it came in by; on_full, the limits and the review threshold follow the
profile the same way."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from agent_support import remember, running_agent
from serve_support import CONFIG, http_client, make_home

from silcrow.home import open_profile
from silcrow.recall import MemoryProvider
from silcrow.serve import ServerProcess, create_token
from silcrow.store import MemoryStore
from silcrow.tool import handle_memory_call

APPROVE = '[memory]\nwrite_policy = "approve"\n'
WRITE = {"action": "add", "target": "user", "content": "Prefers tea over coffee"}


def _home(root: Path, memory: str = APPROVE, top: str = 'embedder = "none"\n') -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.toml").write_text(top + memory, encoding="utf-8")
    return root


def _held(result: dict[str, Any], home: Path) -> None:
    """``result`` is a held write: pending, with a proposal, and nothing in the notes yet."""
    assert result["success"] is True and result.get("pending") is True, result
    store = open_profile(home).store()
    assert [p.id for p in store.pending()] == [result["proposal_id"]]
    assert store.entries("user") == []
    assert all(r.get("origin") != "tool" for r in store.history())


# -- the library's doors ---------------------------------------------------------------------------

def test_memory_store_of_the_default_home_holds_a_models_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path / "home")
    monkeypatch.setenv("SILCROW_HOME", str(home))
    _held(json.loads(handle_memory_call(MemoryStore(), WRITE)), home)  # the README's first example


def test_memory_store_of_a_home_holds_a_models_write(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _held(json.loads(handle_memory_call(MemoryStore(home), WRITE)), home)


def test_an_opened_profiles_store_holds_a_models_write(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _held(json.loads(handle_memory_call(open_profile(home).store(), WRITE)), home)


def test_an_opened_profiles_notes_hold_a_models_write(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _held(dict(open_profile(home).notes().add("user", WRITE["content"], origin="tool")), home)


def test_a_named_profile_holds_by_its_own_and_its_homes_settings(tmp_path: Path) -> None:
    _home(tmp_path)
    work = tmp_path / "profiles" / "work"
    work.mkdir(parents=True)
    _held(json.loads(handle_memory_call(MemoryStore(work), WRITE)), work)


# -- every [memory] setting, through every library door ---------------------------------------------

Door = Callable[[Path], MemoryStore]
DOORS: dict[str, Door] = {
    "MemoryStore(home)": MemoryStore,
    "open_profile(home).store()": lambda home: open_profile(home).store(),
    "open_profile(home).notes().store": lambda home: open_profile(home).notes().store,
}


@pytest.mark.parametrize("door", list(DOORS))
def test_every_memory_setting_reaches_the_store(tmp_path: Path, door: str) -> None:
    home = _home(tmp_path, '[memory]\nwrite_policy = "approve"\non_full = "archive_oldest"\n'
                           'review_threshold = 0.5\n', top="memory_char_limit = 321\nuser_char_limit = 123\n")
    store = DOORS[door](home)
    assert (store.write_policy, store.on_full, store.review_threshold) == ("approve", "archive_oldest", 0.5)
    assert (store.char_limit("memory"), store.char_limit("user")) == (321, 123)


def test_an_argument_overrides_its_setting_and_a_backend_takes_the_defaults(tmp_path: Path) -> None:
    home = _home(tmp_path)
    assert MemoryStore(home, write_policy="auto").write_policy == "auto"
    on_its_backend = MemoryStore(backend=open_profile(home).notes_backend())
    assert (on_its_backend.write_policy, on_its_backend.on_full) == ("auto", "refuse")


def test_a_file_past_the_review_threshold_is_due_for_review(tmp_path: Path) -> None:
    home = _home(tmp_path, "[memory]\nreview_threshold = 0.5\n", top="user_char_limit = 100\n")
    store = MemoryStore(home)
    store.add("user", "x" * 40)
    assert store.due_for_review() == []
    store.add("user", "y" * 20)
    assert store.due_for_review() == ["user"]


# -- the agent ---------------------------------------------------------------------------------------

def test_an_agent_of_a_home_holds_its_models_write(tmp_path: Path) -> None:
    home = _home(tmp_path)
    with running_agent(home, [remember(WRITE["content"])], provider="none") as (agent, _server):
        agent.run_turn("I prefer tea")
        results = [json.loads(m["content"]) for m in agent.messages if m["role"] == "tool"]
    assert len(results) == 1
    _held(results[0], home)


# -- the servers: MCP and REST over a running `silcrow serve` ------------------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, str, Path]]:
    home = make_home(tmp_path_factory.mktemp("doors") / "home")
    (home / "config.toml").write_text(CONFIG + APPROVE, encoding="utf-8")
    token = create_token(home, profile="default", scope="write", name="doors")[0]
    with ServerProcess(home) as server:
        yield server, token, home


def test_a_rest_write_is_held(served: tuple[ServerProcess, str, Path]) -> None:
    server, token, home = served
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as api:
        added = api.post("/v1/memory/user", json={"content": WRITE["content"]})
    assert added.status_code == 200
    result = added.json()
    assert result["pending"] is True and open_profile(home).store().entries("user") == []
    assert result["proposal_id"] in {p.id for p in open_profile(home).store().pending()}


def test_an_mcp_write_is_held(served: tuple[ServerProcess, str, Path]) -> None:
    server, token, home = served

    async def via_mcp() -> str:
        async with http_client(server.url, token) as client:
            answer = await client.call_tool("memory", WRITE)
            return str(answer.content[0].text)  # type: ignore[union-attr]

    result = json.loads(anyio.run(via_mcp))
    assert result["pending"] is True and open_profile(home).store().entries("user") == []
    assert result["proposal_id"] in {p.id for p in open_profile(home).store().pending()}


# -- a project's notes: the same gate at every door ------------------------------------------------

PROJECT_WRITE = {"action": "add", "target": "project", "content": "Releases go out on Fridays"}


def _git_tree(path: Path) -> Path:
    import subprocess

    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, timeout=60)
    return path.resolve()


def _held_in_project(result: dict[str, Any], home: Path, root: Path) -> None:
    """``result`` is a held write to the project's notes: pending, and not in them yet."""
    assert result["success"] is True and result.get("pending") is True, result
    notes = open_profile(home).notes(project=root)
    assert result["proposal_id"] in {p.id for p in notes.pending()}
    assert notes.entries("project") == []
    assert all(r.get("origin") != "tool" for r in notes.history("project"))


def test_an_agent_in_a_project_holds_its_models_project_write(tmp_path: Path) -> None:
    home, root = _home(tmp_path / "home"), _git_tree(tmp_path / "repo")
    with running_agent(home, [remember(PROJECT_WRITE["content"], target="project")], provider="none",
                       project=root) as (agent, _server):
        agent.run_turn("we release on Fridays")
        results = [json.loads(m["content"]) for m in agent.messages if m["role"] == "tool"]
    assert len(results) == 1
    _held_in_project(results[0], home, root)


def test_a_rest_write_to_a_project_is_held(served: tuple[ServerProcess, str, Path], tmp_path: Path) -> None:
    server, token, home = served
    root = _git_tree(tmp_path / "repo")
    headers = {"Authorization": f"Bearer {token}", "X-Silcrow-Project": str(root)}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as api:
        added = api.post("/v1/memory/project", json={"content": PROJECT_WRITE["content"]})
    assert added.status_code == 200, added.text
    _held_in_project(added.json(), home, root)


def test_an_mcp_write_to_a_project_is_held(served: tuple[ServerProcess, str, Path], tmp_path: Path) -> None:
    server, token, home = served
    root = _git_tree(tmp_path / "repo")

    async def via_mcp() -> str:
        async with http_client(server.url, token, {"X-Silcrow-Project": str(root)}) as client:
            answer = await client.call_tool("memory", PROJECT_WRITE)
            return str(answer.content[0].text)  # type: ignore[union-attr]

    _held_in_project(json.loads(anyio.run(via_mcp)), home, root)


# -- the integrations ------------------------------------------------------------------------------------

def test_the_openai_agents_memory_tools_hold_a_models_write(tmp_path: Path) -> None:
    pytest.importorskip("agents")
    from silcrow.agent import ToolCall

    home = _home(tmp_path)
    (home / "config.toml").write_text('embedder = "none"\nprovider = "none"\n' + APPROVE, encoding="utf-8")
    from silcrow.integrations.openai_agents import memory_tools

    with memory_tools(home=home) as tools:
        outcome = tools.router.dispatch(ToolCall(id="c1", name="memory", arguments=json.dumps(WRITE)),
                                        session_id="s1")
    _held(json.loads(outcome.content), home)



def test_an_agent_of_a_home_takes_every_setting_of_its_profile(tmp_path: Path) -> None:
    from silcrow import Agent

    home = _home(tmp_path, APPROVE + '[agent]\nnudge_interval = 4\nflush_min_turns = 7\n',
                 top='model = "from-config"\nprovider = "none"\nuser_char_limit = 222\n')
    agent = Agent(home=home, api_key="unused", base_url="http://127.0.0.1:9")
    try:
        assert agent.llm.model == "from-config" and agent.provider is None
        assert (agent.nudge_interval, agent.flush_min_turns) == (4, 7)
        assert (agent.notes.store.write_policy, agent.notes.char_limit("user")) == ("approve", 222)
    finally:
        agent.close()
    # An argument given overrides its setting, on a profile opened by the caller too.
    given = Agent("chosen", profile=open_profile(home), api_key="unused", base_url="http://127.0.0.1:9",
                  nudge_interval=0, write_policy="auto")
    try:
        policy = given.notes.store.write_policy
        assert (given.llm.model, given.nudge_interval, policy) == ("chosen", 0, "auto")
    finally:
        given.close()


def test_a_profiles_recall_is_a_started_manager_or_none(tmp_path: Path) -> None:
    home = _home(tmp_path)
    manager = open_profile(home).recall("s1", provider="none")
    try:
        assert manager.provider is None and manager.prefetch("where does the user live?") == ""
    finally:
        manager.shutdown()
    local = open_profile(home).recall("s1", provider="local", embedder="none")
    try:
        assert local.provider is not None and local.provider.name == "local"
        local.remember("The user lives in Lisbon", source="test")
        assert "Lisbon" in local.prefetch("where does the user live?", session_id="s2")
    finally:
        local.shutdown()


class _Heard(MemoryProvider):
    """A provider that only records the note writes it is told of."""

    name = "heard"

    def __init__(self) -> None:
        self.writes: list[tuple[str, str, str]] = []

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        pass

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        self.writes.append((action, target, content))


def test_an_approval_in_chat_reaches_recall_as_one_over_rest_does(tmp_path: Path) -> None:
    from silcrow.cli._chat import _gate

    home = _home(tmp_path)
    heard = _Heard()
    with running_agent(home, [remember(WRITE["content"])], provider=heard) as (agent, _server):
        agent.run_turn("I prefer tea")
        [proposal] = agent.notes.pending()
        assert heard.writes == []  # held: not in the notes, so not in recall either
        _gate(agent, "/approve", proposal.id)
        assert agent.notes.entries("user") == [WRITE["content"]]
        assert agent.manager.flush(timeout=30)  # recall hears of writes on the manager's worker
        assert heard.writes == [("add", "user", WRITE["content"])]
