"""The long-term recall provider contract: one typed interface.

Exactly one provider is active at a time, orchestrated by
:class:`silcrow.recall.MemoryManager`. Only ``name``,
``is_available`` and ``initialize`` are required; every other hook has a
no-op default so a provider implements just what it supports.

The hooks are the ones Hermes plugins implement (same names, same
arguments), so a provider written for one ports to the other with little
change. Tools are typed: a provider lists them as :class:`ToolSpec` values
(:meth:`MemoryProvider.tool_specs`) and answers a call with a typed value
(:meth:`MemoryProvider.call_tool`: a :class:`ToolResult`, or the typed API's
``Found`` / ``Remembered`` / ``Forgotten``). Tool JSON is made from those in one
module at the model's edge (:mod:`silcrow.recall._edge`); ``get_tool_schemas`` and
``handle_tool_call`` are that edge, for hosts that speak tool JSON.

A provider written against the earlier contract (it overrides ``get_tool_schemas``
and ``handle_tool_call``, returning schemas and JSON text) keeps working: the
manager, the contract check and the Hermes bridge reach every provider's tools
through :func:`tool_specs_of` and :func:`call_tool_of`, which read such a
provider's JSON into the typed values at this boundary.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

from silcrow._toolcall import contained
from silcrow.recall import _edge
from silcrow.recall._api import Answer
from silcrow.recall._spec import ToolResult, ToolSpec


def _newest(provider: object, legacy: str, typed: str) -> str:
    """Which of two methods ``provider``'s class defines closest to itself (its own class first):
    the earlier contract's ``legacy`` one or the ``typed`` one; the typed one on a tie."""
    for klass in type(provider).__mro__:
        if typed in vars(klass):
            return typed
        if legacy in vars(klass):
            return legacy
    return typed


def speaks_tool_json(provider: MemoryProvider) -> bool:
    """Whether ``provider``'s tools are written against the earlier contract (JSON text)."""
    return (_newest(provider, "get_tool_schemas", "tool_specs") == "get_tool_schemas"
            or _newest(provider, "handle_tool_call", "call_tool") == "handle_tool_call")


def tool_specs_of(provider: MemoryProvider, *, dropped: list[Any] | None = None) -> list[ToolSpec]:
    """``provider``'s tools, typed: its :meth:`~MemoryProvider.tool_specs`, or the schemas of a
    provider written against the earlier contract read as specs (one that names no tool, or
    whose arguments are not an object schema, is left out, and added to ``dropped`` when given).
    Raises what the provider raised; a result of the wrong type is a TypeError."""
    if _newest(provider, "get_tool_schemas", "tool_specs") == "tool_specs":
        specs = provider.tool_specs()
        if not isinstance(specs, list | tuple):
            raise TypeError(f"tool_specs returned {type(specs).__name__}, not a list of ToolSpec")
        wrong = [s for s in specs if not isinstance(s, ToolSpec)]
        if wrong:
            raise TypeError(f"tool_specs returned {type(wrong[0]).__name__} among its specs, not ToolSpec")
        return list(specs)
    schemas = provider.get_tool_schemas()
    if not isinstance(schemas, list):
        raise TypeError(f"get_tool_schemas returned {type(schemas).__name__}, not a list")
    read = [(schema, _edge.spec_from_schema(schema)) for schema in schemas]
    if dropped is not None:
        dropped.extend(schema for schema, spec in read if spec is None)
    return [spec for _, spec in read if spec is not None]


def call_tool_of(provider: MemoryProvider, name: str, args: Mapping[str, Any]) -> Answer:
    """The typed answer of ``provider``'s tool ``name``: its :meth:`~MemoryProvider.call_tool`,
    or the JSON text an earlier-contract provider's ``handle_tool_call`` returned, read as a
    :class:`ToolResult`. Raises what the provider raised; an answer of the wrong type is a
    TypeError."""
    if _newest(provider, "handle_tool_call", "call_tool") == "handle_tool_call":
        return _edge.answer_from_json(provider.handle_tool_call(name, dict(args)))
    answer = provider.call_tool(name, args)
    if not isinstance(answer, Answer):
        raise TypeError(f"call_tool returned {type(answer).__name__}, not a ToolResult")
    return answer


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

    def tool_specs(self) -> Sequence[ToolSpec]:
        """The tools the model may call (names unique), as typed specs."""
        return ()

    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        """Run one of :meth:`tool_specs` with the model's arguments (a dict, not yet checked).

        Returns a :class:`ToolResult` (``ToolResult.done(results=...)``, or
        ``ToolResult.failed("what was wrong and what to do")``), or for the ``recall_*`` tools
        the typed API's results. Never JSON: the edge makes it. An exception is answered for the
        model by the manager, as a failure.
        """
        return ToolResult.failed(f"provider {self.name!r} has no tool {name!r}")

    # The tool JSON of the two methods above, made at the edge, for hosts that speak it (Hermes,
    # scripts). A provider implements the typed ones; one written against the earlier contract
    # overrides these two instead, and is read through tool_specs_of / call_tool_of.

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        """:meth:`tool_specs` in OpenAI function format (``{"type": "function", "function": {...}}``)."""
        return [_edge.openai_tool(spec) for spec in self.tool_specs()]

    def handle_tool_call(self, name: str, args: dict[str, Any]) -> str:
        """:meth:`call_tool` answered as the JSON text a model reads; never raises (an exception is
        a failed result, as the manager makes it)."""
        return contained(f"tool {name!r}", lambda: _edge.answer_json(self.call_tool(name, args)),
                         lambda refused: _edge.answer_json(ToolResult.failed(refused["error"])))

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
