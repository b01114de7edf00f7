"""The agent loop (:class:`Agent`) and its parts: prompt, model client, tools, compression.

The conversations it keeps are stored through :mod:`silcrow.sessions`.

``Agent`` is imported on first use so that the prompt and compression
helpers can be imported without pulling in the model client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from silcrow._lazy import lazy_getattr

if TYPE_CHECKING:
    from silcrow.agent.loop import Agent

__all__ = ["Agent"]

__getattr__ = lazy_getattr(__name__, {"Agent": "silcrow.agent.loop"})
