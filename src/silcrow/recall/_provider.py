"""The long-term recall provider contract: one typed interface.

One provider is run by :class:`silcrow.recall.MemoryManager`; several selected at once are
run as one (``ProviderSet``, :mod:`silcrow.recall._multi`). Only ``name``,
``is_available`` and ``initialize`` are required; every other hook has a
default so a provider implements just what it supports.

The hooks are the ones Hermes plugins implement (same names, same
arguments), so a provider written for one ports to the other with little
change. Recall is typed: :meth:`MemoryProvider.search`, :meth:`~MemoryProvider.remember`
and :meth:`~MemoryProvider.forget` answer ``Found`` / ``Remembered`` / ``Forgotten``
(:mod:`silcrow.recall._api`). Their defaults serve a provider that has only a prefetch
and tools of its own: a search is its prefetched context, a remember or forget its own
``recall_add`` / ``recall_forget`` tool. Tools are typed too: a provider lists them as
:class:`ToolSpec` values (:meth:`MemoryProvider.tool_specs`) and answers a call with a
typed value (:meth:`MemoryProvider.call_tool`). Tool JSON is made from those in one
module at the model's edge (:mod:`silcrow.recall._edge`); ``get_tool_schemas`` and
``handle_tool_call`` are that edge, for hosts that speak tool JSON.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

from silcrow._toolcall import contained
from silcrow.errors import RecallError
from silcrow.recall import _edge
from silcrow.recall import _tools as tools
from silcrow.recall._api import Answer, Forgotten, Found, Remembered
from silcrow.recall._spec import ToolResult, ToolSpec


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

    # -- typed recall: what the manager, the servers and the recall_* tools call ------------

    def search(self, query: str, k: int = 10) -> Found:
        """The memories recalled for ``query`` (at most ``k``, best first) as hits.

        By default: the provider's :meth:`prefetch` text for the query as ``Found.context``,
        which the manager threat-filters and fences. A provider with a store of its own
        returns ``Found(hits=...)`` of :class:`~silcrow.recall.RecallHit`."""
        from silcrow.recall.policy import worth_recalling  # the threat scanners: not on import

        # An acknowledgement or a slash command starts no prefetch, here as in a turn.
        return Found(context=self.prefetch(query) if worth_recalling(query) else "")

    def remember(self, text: str, *, source: str = "api") -> Remembered:
        """Keep one fact; its id (the existing one when the same fact is kept already).
        ``source`` says who saved it ("api", "tool", ...).

        By default: the provider's own ``recall_add`` tool (``{"fact": text}``, answering
        ``id``); a provider without one raises :class:`~silcrow.errors.RecallError`."""
        return Remembered(int(self._through_tool("remember", "recall_add", {"fact": text}, "id")))

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten:
        """Delete the memory with id ``target``, or (text) every memory containing it, refused
        (a RecallError) when that is more than ``max_matches``; ``removed`` is 0 when none was.

        By default: the provider's own ``recall_forget`` tool (``{"id": ...}`` or
        ``{"query": ...}``, answering ``removed``)."""
        args: dict[str, Any] = {"id": target} if isinstance(target, int) else {"query": target}
        return Forgotten(int(self._through_tool("forget", "recall_forget", args, "removed")))

    def _through_tool(self, method: str, name: str, args: dict[str, Any], field: str) -> Any:
        """Field ``field`` of what this provider's own tool ``name`` answers for ``args`` (the
        default of ``method``)."""
        specs = self.tool_specs()
        if name in tools.typed_tools(specs):  # answered by ``method`` itself: it must be written
            raise RecallError(f"recall provider {self.name!r} lists the {name!r} tool but has no "
                              f"{method}() of its own; implement {method}() (see "
                              "docs/providers/writing.md) or leave the tool out")
        own = [spec.name for spec in specs]
        if name not in own:
            raise RecallError(f"recall provider {self.name!r} has no {name!r} tool; use its own tools "
                              f"({', '.join(sorted(own)) or 'none'})")
        answer = self.call_tool(name, args)
        if isinstance(answer, ToolResult):
            if answer.error is not None or field not in answer.data:
                raise RecallError(answer.error or f"recall tool {name!r} gave no {field!r}")
            return answer.data[field]
        value = getattr(answer, field, None)
        if value is None:
            raise RecallError(f"recall tool {name!r} gave no {field!r}")
        return value

    # -- tools ----------------------------------------------------------------------------

    def tool_specs(self) -> Sequence[ToolSpec]:
        """The tools the model may call (names unique), as typed specs. A provider that answers
        the ``recall_*`` tools with its typed recall lists :data:`~silcrow.recall.TOOL_SPECS`."""
        return ()

    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        """Run one of :meth:`tool_specs` with the model's arguments (a dict, not yet checked).

        Returns a :class:`ToolResult` (``ToolResult.done(results=...)``, or
        ``ToolResult.failed("what was wrong and what to do")``), or for the ``recall_*`` tools
        the typed API's results. Never JSON: the edge makes it. An exception is answered for the
        model by the manager, as a failure. By default the ``recall_*`` tools (when listed with
        their own specs) are answered by :meth:`search`, :meth:`remember` and :meth:`forget`.
        """
        specs = self.tool_specs()
        if name in tools.typed_tools(specs):
            return tools.call_recall_tool(self, name, args)
        return ToolResult.failed(f"provider {self.name!r} has no tool {name!r}; its tools: "
                                 f"{', '.join(spec.name for spec in specs) or 'none'}")

    # The tool JSON of the two methods above, made at the edge, for hosts that speak it (Hermes,
    # scripts): a provider implements the typed ones.

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


def overrides(provider: MemoryProvider, method: str) -> bool:
    """Whether ``provider``'s class writes ``method`` itself instead of the base class's default."""
    return getattr(type(provider), method) is not getattr(MemoryProvider, method)


def answered_recall_tools(provider: MemoryProvider, specs: Sequence[ToolSpec]) -> list[str]:
    """The ``recall_*`` tools ``provider`` answers through its typed recall (``search``,
    ``remember``, ``forget``), given its tools ``specs``: those it lists with their own specs;
    besides, unless it has a tool of that name of its own, ``recall_search`` (its recalled
    context by default) and ``recall_add`` / ``recall_forget`` when it writes ``remember`` /
    ``forget`` itself."""
    listed = set(tools.typed_tools(specs))
    own = {spec.name for spec in specs} - listed
    written = {tools.SEARCH_TOOL: True, "recall_add": overrides(provider, "remember"),
               "recall_forget": overrides(provider, "forget")}
    return [name for name in tools.TOOL_NAMES if name in listed or (name not in own and written[name])]
