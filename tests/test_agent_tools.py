"""Tool dispatch: memory tool -> MemoryStore (mirrored to the provider), provider tools via the
manager, session_search; failing tools return errors; tool iterations are bounded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_support import OK, call, remember, running_agent

from silcrow.agent import Agent


def _tool_results(agent: Agent) -> list[dict[str, Any]]:
    stored = agent.sessions.messages(agent.session_id)
    return [json.loads(m["content"]) for m in stored if m["role"] == "tool"]


def _spy_mirror(agent: Agent) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []
    original = agent.manager.on_memory_write

    def spy(action: str, target: str, content: str) -> None:
        seen.append((action, target, content))
        original(action, target, content)

    agent.manager.on_memory_write = spy  # type: ignore[method-assign]
    return seen


def test_memory_tool_writes_the_store_with_origin_tool_and_mirrors(tmp_path: Path) -> None:
    batch = {"target": "memory", "operations": [
        {"action": "add", "content": "Repo uses uv for dependencies."},
        {"action": "add", "content": "CI runs on Debian 12."}]}
    script = [remember("User prefers tabs over spaces."), {"content": "Saved."},
              call("memory", action="replace", target="user", old_text="tabs",
                   content="User prefers spaces, four wide."),
              call("memory", **batch), {"content": "Updated."}]
    with running_agent(tmp_path, script) as (agent, _):
        mirrored = _spy_mirror(agent)
        agent.run_turn("I like tabs.")
        agent.run_turn("Actually spaces, four wide. Also note the repo facts.")
        assert agent.notes.entries("user") == ["User prefers spaces, four wide."]
        assert agent.notes.entries("memory") == ["Repo uses uv for dependencies.", "CI runs on Debian 12."]
        assert {h["origin"] for h in agent.notes.history()} == {"tool"}
        assert mirrored == [
            ("add", "user", "User prefers tabs over spaces."),
            ("replace", "user", "User prefers spaces, four wide."),
            ("add", "memory", "Repo uses uv for dependencies."),
            ("add", "memory", "CI runs on Debian 12."),
        ]
        assert all(r["success"] for r in _tool_results(agent))


def test_refused_memory_write_is_not_mirrored(tmp_path: Path) -> None:
    script = [call("memory", action="remove", target="user", old_text="nothing like this"), {"content": "ok"}]
    with running_agent(tmp_path, script) as (agent, _):
        mirrored = _spy_mirror(agent)
        agent.run_turn("forget something")
        (result,) = _tool_results(agent)
        assert result["success"] is False and "current_entries" in result
        assert mirrored == []


def test_failing_tools_return_errors_and_the_turn_completes(tmp_path: Path) -> None:
    script = [
        {"tool_calls": [{"name": "memory", "arguments": "{not json"}]},
        {"tool_calls": [{"name": "no_such_tool", "arguments": {}}]},
        call("memory", action="add", target="elsewhere", content="x"),
        call("session_search"),  # missing query
        {"content": "I could not do that, sorry."},
    ]
    with running_agent(tmp_path, script) as (agent, server):
        assert agent.run_turn("do things") == "I could not do that, sorry."
        results = _tool_results(agent)
        assert [r["success"] for r in results] == [False, False, False, False]
        assert "not valid JSON" in results[0]["error"]
        assert "unknown tool 'no_such_tool'" in results[1]["error"] and "memory" in results[1]["error"]
        assert "unknown target" in results[2]["error"]
        assert results[3]["error"]
        # each error went back to the model as a tool message
        assert sum(m["role"] == "tool" for m in server.requests[-1]["messages"]) == 4


def test_tool_iterations_are_bounded(tmp_path: Path) -> None:
    looping = call("session_search", query="again")
    with running_agent(tmp_path, [looping] * 3 + [{"content": "Here is my answer."}],
                       max_tool_iterations=3) as (agent, server):
        assert agent.run_turn("loop please") == "Here is my answer."
        assert len(server.requests) == 4
        final = server.requests[-1]
        assert final["tool_choice"] == "none"
        assert final["tools"] == server.requests[0]["tools"]  # same tools: the prefix stays cacheable
    with running_agent(tmp_path, [looping] * 4, max_tool_iterations=3) as (agent, _):
        reply = agent.run_turn("loop again")
        assert "stopped after 3 rounds of tool calls" in reply


def test_session_search_tool_finds_an_old_session(tmp_path: Path) -> None:
    with running_agent(tmp_path, [{"content": "Kayaking in the Algarve sounds great."}]) as (agent, server):
        agent.run_turn("I'm planning a kayaking trip to the Algarve in May.")
        old = agent.session_id
        agent.new_session()
        server.enqueue(call("session_search", query="kayaking Algarve"), {"content": "Found it."})
        agent.run_turn("Where was that trip I mentioned?")
        (result,) = _tool_results(agent)
        assert result["success"] is True
        assert result["results"][0]["session_id"] == old
        assert "Algarve" in json.dumps(result["results"][0])


def test_provider_tools_are_offered_and_routed_through_the_manager(tmp_path: Path) -> None:
    with running_agent(tmp_path) as (agent, server):
        names = [t["function"]["name"] for t in agent.tools]
        assert names[:2] == ["memory", "session_search"]
        provider_tools = [n for n in names[2:]]
        assert "recall_add" in provider_tools and "recall_search" in provider_tools
        server.enqueue(call("recall_add", fact="The user's bike is a green Brompton."), OK,
                       call("recall_search", query="Brompton bike"), OK)
        agent.run_turn("note my bike")
        agent.run_turn("what bike?")
        added, searched = _tool_results(agent)
        assert added.get("success", True) is not False
        assert "Brompton" in json.dumps(searched)


def test_reset_turn_gives_each_turn_fresh_failure_budget(tmp_path: Path) -> None:
    # Only failed consolidation counts: an add refused for the size limit, then failures after it.
    full = call("memory", action="add", target="user", content="B" * 50)
    bad = call("memory", action="replace", target="user", old_text="absent", content="x")
    with running_agent(tmp_path, [full, bad, full, OK, full, OK], user_char_limit=120) as (agent, _):
        assert agent.notes.add("user", "A" * 100, origin="api")["success"]
        agent.run_turn("turn one")
        first = _tool_results(agent)
        assert [r.get("terminal", False) for r in first] == [False, False, True]
        agent.run_turn("turn two")
        assert _tool_results(agent)[-1].get("terminal", False) is False


def test_a_failing_tool_callback_does_not_lose_the_turn(tmp_path: Path, caplog: Any) -> None:
    def broken(name: str, arguments: str, result: str) -> None:
        raise AttributeError("display bug")

    with running_agent(tmp_path, [remember("User likes figs."), {"content": "Saved."}],
                       on_tool_call=broken, flush_min_turns=100) as (agent, _server):
        assert agent.run_turn("I like figs.") == "Saved."
        assert agent.notes.entries("user") == ["User likes figs."]
    assert "on_tool_call callback failed for memory" in caplog.text
