"""Shared helpers of the agent tests: a real Agent on a temporary home against the stand-in.

The ScriptedModelServer is the only fake; the store, sessions, recall
provider and manager are the real ones (the lexical "none" embedder keeps
most tests fast; one test uses the real ONNX model).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from silcrow.agent import Agent
from silcrow.testing import ScriptedModelServer

OK: dict[str, Any] = {"content": "ok"}


def remember(content: str, target: str = "user") -> dict[str, Any]:
    """A scripted response in which the model saves one curated entry."""
    return {"tool_calls": [{"name": "memory",
                            "arguments": {"action": "add", "target": target, "content": content}}]}


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def system_of(request: dict[str, Any]) -> str:
    first = request["messages"][0]
    assert first["role"] == "system"
    return str(first["content"])


def last_user(request: dict[str, Any]) -> str:
    users = [m for m in request["messages"] if m["role"] == "user"]
    return str(users[-1]["content"])


@contextmanager
def running_agent(
    home: Path, script: list[Any] | None = None, *, default: Any = OK, **kwargs: Any
) -> Iterator[tuple[Agent, ScriptedModelServer]]:
    """An Agent on ``home`` talking to a fresh stand-in; closed (and the server stopped) after."""
    kwargs.setdefault("embedder", "none")
    with ScriptedModelServer(script or [], default=default) as server:
        agent = Agent("stand-in", base_url=server.base_url, home=home, **kwargs)
        try:
            yield agent, server
        finally:
            agent.close()
