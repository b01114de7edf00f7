"""One end-to-end scenario for every recall provider: the real Agent, the stand-in model.

Session 1 states a fact (the script may make the model store it with the
provider's own tool); session 2, in a new Agent with a new provider instance
on the same home, must get it recalled inside the ``<memory-context>`` fence,
must be offered the provider's tools and be able to call one; then the
provider breaks mid-session and the turn must still complete and be kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_support import call, last_user
from testing_services.base import StandInService

from silcrow.agent import Agent
from silcrow.recall import MemoryProvider
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN
from silcrow.testing import ScriptedModelServer

FACT_TURN = "Please remember this: my sister Ana lives in Lyon and keeps bees."
QUESTION = "Where does my sister Ana live?"
OUTAGE_TURN = "My brother Rui moved to Porto last winter."


@dataclass
class Scenario:
    make: Callable[[], MemoryProvider]
    tool: str                                   # a provider tool the model calls in session 2
    tool_args: dict[str, Any]
    expect_in_tool: str                         # text the tool result must contain
    store_fact: list[dict[str, Any]] = field(default_factory=list)  # session-1 tool calls, if needed
    fenced: str = "Lyon"                        # text the fenced block of session 2 must contain
    settle: Callable[[MemoryProvider], None] = lambda _p: None  # e.g. wait for async indexing
    outage: Callable[[MemoryProvider], AbstractContextManager[None]] | None = None


def service_down(service: StandInService) -> Callable[[MemoryProvider], AbstractContextManager[None]]:
    """An ``outage`` for a Scenario: the stand-in drops every connection while it lasts."""

    @contextmanager
    def outage(_provider: MemoryProvider) -> Iterator[None]:
        service.down = True
        try:
            yield
        finally:
            service.down = False

    return outage


def _tool_names(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools") or []}


def _agent(home: Path, server: ScriptedModelServer, provider: MemoryProvider) -> Agent:
    return Agent("stand-in", base_url=server.base_url, home=home, provider=provider, flush_min_turns=100)


def run(home: Path, scenario: Scenario) -> dict[str, Any]:
    """Run the scenario; returns what a test may check further (the second provider, requests)."""
    first = scenario.make()
    with ScriptedModelServer([*scenario.store_fact, {"content": "Noted."}], default={"content": "ok"}) as srv:
        agent = _agent(home, srv, first)
        assert agent.provider is first, "the provider must be available for the scenario"
        assert agent.run_turn(FACT_TURN) == "Noted."
        agent.close()  # drains the provider's queue (sync_turn, on_session_end) and shuts it down
        tools_seen = _tool_names(srv.requests[0])
    provider_tools = {s["function"]["name"] for s in first.get_tool_schemas()}
    assert provider_tools <= tools_seen, f"provider tools not offered: {provider_tools - tools_seen}"

    second = scenario.make()
    scenario.settle(second)
    script = [call(scenario.tool, **scenario.tool_args), {"content": "She lives in Lyon."}]
    with ScriptedModelServer(script, default={"content": "ok"}) as srv:
        agent = _agent(home, srv, second)
        try:
            assert agent.run_turn(QUESTION) == "She lives in Lyon."
            sent = last_user(srv.requests[0])
            assert sent.startswith(QUESTION + "\n\n" + FENCE_OPEN), sent[:200]
            block = sent[sent.index(FENCE_OPEN):]
            assert block.rstrip().endswith(FENCE_CLOSE)
            assert scenario.fenced in block, block
            tool_msgs = [m for m in srv.requests[1]["messages"] if m["role"] == "tool"]
            assert tool_msgs and scenario.expect_in_tool in tool_msgs[-1]["content"], tool_msgs
            assert '"success": false' not in tool_msgs[-1]["content"].lower(), tool_msgs[-1]

            if scenario.outage is not None:
                with scenario.outage(second):
                    assert agent.run_turn(OUTAGE_TURN) == "ok"
                    agent.manager.flush(timeout=30)
                stored = agent.sessions.messages(agent.session_id)
                users = [m["content"] for m in stored if m["role"] == "user"]
                assert users[-1] == OUTAGE_TURN  # the turn is kept whatever the provider did
        finally:
            agent.close()
        return {"provider": second, "requests": srv.requests}

