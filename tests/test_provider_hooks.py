"""Hermes-style provider hooks: on_turn_start, typed tools, hooks on the manager's threads."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from agent_support import running_agent

from silcrow.recall import Answer, MemoryManager, MemoryProvider, ToolResult, ToolSpec
from silcrow.recall.contract import check_provider_contract
from silcrow.tool import DESCRIPTION


class TurnWatcher(MemoryProvider):
    """Records hook calls in order, with the thread each ran on."""

    name = "turn-watcher"

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.threads: dict[str, int] = {}
        self.lock = threading.Lock()

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **context: Any) -> None:
        self.events.append(("init", session_id))

    def on_turn_start(self, turn_number: int, message: str) -> None:
        with self.lock:
            self.threads["on_turn_start"] = threading.get_ident()
            self.events.append(("turn_start", (turn_number, message)))

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        with self.lock:
            self.events.append(("prefetch", query))
        return ""


class TypedTools(TurnWatcher):
    name = "typed-tools"

    def tool_specs(self) -> list[ToolSpec]:
        return [ToolSpec.of("typed_search", "Search stored turns.", {"query": {"type": "string"}}, ["query"]),
                ToolSpec.of("other_search", "Search again.")]

    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        if name not in ("typed_search", "other_search"):
            return ToolResult.failed(f"unknown tool {name!r}")
        return ToolResult.done(tool=name, args=dict(args))


class WithSchemaDict(TypedTools):
    def tool_specs(self) -> Any:
        return [*super().tool_specs(), {"name": "a_schema_dict", "description": "not a ToolSpec"}]


def test_the_agent_calls_on_turn_start_before_prefetch_with_the_turn_number(tmp_path: Path) -> None:
    provider = TurnWatcher()
    with running_agent(tmp_path, provider=provider) as (agent, _server):
        agent.run_turn("Where did I park the blue car?")
        agent.run_turn("And where is the red bicycle?")
        session = agent.session_id
        agent.new_session()
        agent.run_turn("What about the green scooter?")
        agent.resume(session)
        agent.run_turn("Back to the blue car then.")
    steps = [e for e in provider.events if e[0] in ("turn_start", "prefetch")]
    assert steps == [
        ("turn_start", (1, "Where did I park the blue car?")), ("prefetch", "Where did I park the blue car?"),
        ("turn_start", (2, "And where is the red bicycle?")), ("prefetch", "And where is the red bicycle?"),
        ("turn_start", (1, "What about the green scooter?")), ("prefetch", "What about the green scooter?"),
        ("turn_start", (3, "Back to the blue car then.")), ("prefetch", "Back to the blue car then."),
    ]
    assert provider.threads["on_turn_start"] != threading.get_ident()  # run on the manager's thread


class FailingTurnStart(TurnWatcher):
    name = "failing-turn-start"

    def on_turn_start(self, turn_number: int, message: str) -> None:
        raise RuntimeError("turn counter broke")


class HangingTurnStart(TurnWatcher):
    name = "hanging-turn-start"

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def on_turn_start(self, turn_number: int, message: str) -> None:
        self.release.wait(30)


def test_on_turn_start_failures_are_isolated(caplog: pytest.LogCaptureFixture) -> None:
    m = MemoryManager()
    m.add_provider(FailingTurnStart())
    with caplog.at_level(logging.WARNING, logger="silcrow.recall"):
        assert m.on_turn_start(1, "hello there") is None
    assert "failed in on_turn_start: RuntimeError: turn counter broke" in caplog.text
    assert m.counters["provider_failures"] == 1


def test_a_hanging_on_turn_start_is_bounded(caplog: pytest.LogCaptureFixture) -> None:
    m = MemoryManager(prefetch_timeout=0.2)
    p = HangingTurnStart()
    m.add_provider(p)
    try:
        with caplog.at_level(logging.WARNING, logger="silcrow.recall"):
            m.on_turn_start(1, "hello there")
        assert "did not finish on_turn_start within 0.2s" in caplog.text
        assert m.counters["provider_timeouts"] == 1
    finally:
        p.release.set()


def test_typed_tools_are_offered_in_openai_format(caplog: pytest.LogCaptureFixture) -> None:
    m = MemoryManager()
    m.add_provider(TypedTools())
    schemas = m.tool_schemas()
    assert [s["type"] for s in schemas] == ["function", "function"]
    assert [s["function"]["name"] for s in schemas] == ["typed_search", "other_search"]
    assert schemas[0]["function"]["parameters"]["required"] == ["query"]
    out = json.loads(m.handle_tool_call("typed_search", {"query": "car"}))
    assert out == {"success": True, "tool": "typed_search", "args": {"query": "car"}}
    with caplog.at_level(logging.WARNING, logger="silcrow.recall"):
        m2 = MemoryManager()
        m2.add_provider(WithSchemaDict())
        assert m2.tool_schemas() == []  # a listing that is not all ToolSpec offers nothing
    assert "not a list of ToolSpec" in caplog.text


def test_an_agent_offers_and_calls_a_provider_tool(tmp_path: Path) -> None:
    script = [{"tool_calls": [{"name": "typed_search", "arguments": {"query": "car"}}]}, {"content": "done"}]
    with running_agent(tmp_path, script, provider=TypedTools()) as (agent, server):
        assert agent.run_turn("Search for my car please.") == "done"
        offered = [t["function"]["name"] for t in server.requests[0]["tools"]]
        tool_reply = [m for m in server.requests[1]["messages"] if m["role"] == "tool"][0]
    assert "typed_search" in offered and "other_search" in offered
    assert json.loads(tool_reply["content"])["tool"] == "typed_search"


class SqliteInConstructor(MemoryProvider):
    """Not thread-safe: one sqlite3 connection, usable only by the thread that built it."""

    name = "sqlite-in-constructor"

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(str(path))
        self.conn.execute("CREATE TABLE IF NOT EXISTS turns (text TEXT)")

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **context: Any) -> None:
        self.conn.execute("SELECT 1")

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        self.conn.execute("INSERT INTO turns VALUES (?)", (user,))


def test_the_contract_rejects_a_provider_that_is_not_thread_safe(tmp_path: Path) -> None:
    provider = SqliteInConstructor(tmp_path / "p.db")
    with pytest.raises(AssertionError) as info:
        check_provider_contract(provider, tmp_path)
    message = str(info.value)
    assert message.startswith("sqlite-in-constructor.initialize() raised ProgrammingError")
    assert "thread other than the one that constructed the provider" in message
    assert "check_same_thread=False" in message


def test_the_contract_checks_typed_tools_and_calls_on_turn_start(tmp_path: Path) -> None:
    provider = TypedTools()
    check_provider_contract(provider, tmp_path)
    starts = [e[1][0] for e in provider.events if e[0] == "turn_start"]
    assert starts == [1, 2, 3]
    with pytest.raises(AssertionError, match="must return ToolSpec values"):
        check_provider_contract(WithSchemaDict(), tmp_path)


def test_the_memory_tool_points_to_session_search() -> None:
    assert "session_search" in DESCRIPTION
