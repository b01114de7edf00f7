"""The agent loop (:class:`Agent`) and its parts: prompt, model client, sessions, compression.

``Agent`` is imported on first use so that ``silcrow.agent.sessions`` and
friends can be imported without pulling in the model client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from silcrow.agent.loop import Agent

__all__ = ["Agent"]


def __getattr__(name: str) -> Any:
    if name == "Agent":
        from silcrow.agent.loop import Agent

        return Agent
    raise AttributeError(f"module 'silcrow.agent' has no attribute {name!r}")
