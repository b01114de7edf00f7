"""The long-term recall provider interface.

Exactly one provider is active at a time, orchestrated by
:class:`silcrow.recall.manager.MemoryManager`. Only ``name``,
``is_available`` and ``initialize`` are required; every other hook has a
no-op default so a provider implements just what it supports.
"""

from __future__ import annotations

import abc
from typing import Any

from silcrow.toolcall import error_json


class MemoryProvider(abc.ABC):
    """Base class of every long-term recall backend."""

    name: str = ""

    @abc.abstractmethod
    def is_available(self) -> bool:
        """True when config and installed packages allow it to run. Never touches the network."""

    @abc.abstractmethod
    def initialize(self, session_id: str, **context: Any) -> None:
        """Prepare for a session. ``context`` may hold home, user_id, agent_id, platform.

        The Agent also passes what the model already sees, so a provider can
        avoid recalling it: ``ancestor_session_ids`` (the sessions a branch was
        forked from, whose history it carries) with ``ancestor_forked_at``
        (ancestor id -> ISO time the branch left it: later turns of the
        ancestor are not in the branch) and, for a session whose history holds
        a compression summary, ``summarised_before`` (ISO time: what was said
        before it survives only in the summary). Unknown keys must be ignored.
        """

    def unavailable_reason(self) -> str:
        """Why :meth:`is_available` is False (shown by ``silcrow providers``)."""
        return ""

    def system_prompt_block(self) -> str:
        """Static text for the system prompt (must not change within a session)."""
        return ""

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        """Raw recalled text for this turn ("" for nothing). Must be fast."""
        return ""

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Hint that ``query`` will be prefetched soon (warm caches)."""

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        """Store one completed turn."""

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        """Tools the model may call, in OpenAI function format."""
        return []

    def handle_tool_call(self, name: str, args: dict[str, Any]) -> str:
        """Run one of :meth:`get_tool_schemas`; returns JSON."""
        return error_json(f"provider {self.name!r} has no tool {name!r}")

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        """The session ended; ``messages`` is its transcript."""

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        """Text to include in the compression summary prompt."""
        return ""

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        """Mirror of a committed curated-memory write."""

    def shutdown(self) -> None:
        """Release resources; flush what is pending."""
