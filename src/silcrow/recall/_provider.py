"""The long-term recall provider interface.

Exactly one provider is active at a time, orchestrated by
:class:`silcrow.recall.MemoryManager`. Only ``name``,
``is_available`` and ``initialize`` are required; every other hook has a
no-op default so a provider implements just what it supports.

The hooks are the ones Hermes plugins implement (same names, same
arguments), so a provider written for one ports to the other with little
change; tool schemas may be in either of the two formats they use.
"""

from __future__ import annotations

import abc
from typing import Any

from silcrow._toolcall import convert_schema, error_json, schema_name


def as_openai_tool(schema: object) -> dict[str, Any] | None:
    """``schema`` in OpenAI function format, or None when it names no tool.

    Providers may return ``{"type": "function", "function": {...}}`` or the
    bare ``{"name", "description", "parameters"}`` that Hermes plugins use;
    the bare one is wrapped. Anything else (no usable ``name``) gives None so
    the caller can say what it dropped.
    """
    if schema_name(schema) is None:
        return None
    assert isinstance(schema, dict)
    return convert_schema(schema, "openai")


class MemoryProvider(abc.ABC):
    """Base class of every long-term recall backend.

    Threads: hooks run on the manager's threads, not on the thread that
    built the provider. ``prefetch``, ``on_turn_start``, ``on_pre_compress``
    and tool calls each run on a short-lived daemon thread (so a hung
    provider cannot hang the turn); ``sync_turn``, ``queue_prefetch``,
    ``on_memory_write``, ``on_session_end`` and ``shutdown`` run in order on
    one background worker. Two hooks may therefore run at the same time.
    A provider must be thread-safe: for example, open an ``sqlite3``
    connection with ``check_same_thread=False`` and guard it with a lock (or
    open one per thread), never keep a connection that only the
    constructor's thread may use. ``check_provider_contract`` calls every
    hook from other threads to catch this.
    """

    name: str = ""
    #: Whether what is handed to this provider leaves silcrow's own storage (a service, a library
    #: with stores of its own): every string given to an external provider has secrets redacted
    #: first (:mod:`silcrow.safety._secrets`). Only silcrow's embedded ``local`` provider is not.
    external: bool = True

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

    def on_turn_start(self, turn_number: int, message: str) -> None:
        """A user turn begins (before ``prefetch``): ``turn_number`` counts the
        session's user turns from 1, ``message`` is the user's text."""

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        """Tools the model may call: OpenAI function format
        (``{"type": "function", "function": {...}}``) or the bare
        ``{"name", "description", "parameters"}`` (wrapped by the manager)."""
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

    def on_session_switch(self, old_session_id: str, new_session_id: str, **context: Any) -> None:
        """The agent moved from one session to another (new, resume, branch); ``context`` as for
        :meth:`initialize`. Called before the new session's :meth:`initialize`."""

    def recall_status(self) -> dict[str, Any]:
        """How this provider is doing, for people (``silcrow recall status``, the inspector): at
        least ``provider`` and ``available``; never touches the network."""
        return {"provider": self.name, "available": self.is_available(),
                "reason": "" if self.is_available() else self.unavailable_reason()}

    def shutdown(self) -> None:
        """Release resources; flush what is pending."""
