"""Hermes-style provider hooks: on_turn_start, bare tool schemas, hooks on the manager's threads."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from agent_support import running_agent

from silcrow.recall import MemoryManager, MemoryProvider
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


class BareTools(TurnWatcher):
    name = "bare-tools"

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return [
            {"name": "bare_search", "description": "Search stored turns.",
             "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                            "required": ["query"]}},
            {"type": "function", "function": {"name": "wrapped_search", "description": "Search again.",
                                              "parameters": {"type": "object", "properties": {}}}},
        ]

    def handle_tool_call(self, name: str, args: dict[str, Any]) -> str:
        if name not in ("bare_search", "wrapped_search"):
            return json.dumps({"success": False, "error": f"unknown tool {name!r}"})
        return json.dumps({"success": True, "tool": name, "args": args})


class WithNameless(BareTools):
    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return [*super().get_tool_schemas(), {"description": "nameless"}]


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


def test_bare_schemas_are_wrapped_and_nameless_ones_reported(caplog: pytest.LogCaptureFixture) -> None:
    m = MemoryManager()
    m.add_provider(WithNameless())
    with caplog.at_level(logging.WARNING, logger="silcrow.recall"):
        schemas = m.tool_schemas()
    assert [s["type"] for s in schemas] == ["function", "function"]
    assert [s["function"]["name"] for s in schemas] == ["bare_search", "wrapped_search"]
    assert schemas[0]["function"]["parameters"]["required"] == ["query"]
    assert "tool schema without a name dropped" in caplog.text and "nameless" in caplog.text
    out = json.loads(m.handle_tool_call("bare_search", {"query": "car"}))
    assert out == {"success": True, "tool": "bare_search", "args": {"query": "car"}}


def test_an_agent_offers_and_calls_a_bare_schema_tool(tmp_path: Path) -> None:
    script = [{"tool_calls": [{"name": "bare_search", "arguments": {"query": "car"}}]}, {"content": "done"}]
    with running_agent(tmp_path, script, provider=BareTools()) as (agent, server):
        assert agent.run_turn("Search for my car please.") == "done"
        offered = [t["function"]["name"] for t in server.requests[0]["tools"]]
        tool_reply = [m for m in server.requests[1]["messages"] if m["role"] == "tool"][0]
    assert "bare_search" in offered and "wrapped_search" in offered
    assert json.loads(tool_reply["content"])["tool"] == "bare_search"


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


def test_the_contract_accepts_bare_schemas_and_calls_on_turn_start(tmp_path: Path) -> None:
    provider = BareTools()
    check_provider_contract(provider, tmp_path)
    starts = [e[1][0] for e in provider.events if e[0] == "turn_start"]
    assert starts == [1, 2, 3]
    with pytest.raises(AssertionError, match="tool schema needs a name"):
        check_provider_contract(WithNameless(), tmp_path)


def test_the_memory_tool_points_to_session_search() -> None:
    assert "session_search" in DESCRIPTION
