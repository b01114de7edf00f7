"""MemoryManager: runs the long-term recall provider without letting it break a turn.

Several providers selected at once are one provider to the manager: a
:class:`~silcrow.recall._multi.ProviderSet`, which runs each member under the manager's
deadlines on threads of its own, so the manager calls it directly (see ``_timed``).

Isolation rules, in one place:

* ``prefetch`` (and ``on_turn_start`` just before it, ``on_pre_compress``)
  runs the provider on a daemon thread and waits at most
  ``prefetch_timeout`` seconds. A provider that raises, hangs or returns
  something other than ``str`` is logged and skipped: the turn goes on
  with no recalled context. Daemon threads (not a pool) so a provider
  stuck forever cannot keep the interpreter from exiting; at most
  ``max_stuck_calls`` such threads may linger before calls are refused.
* ``sync_turn``, ``queue_prefetch``, ``on_memory_write`` and
  ``on_session_end`` are queued to ONE background worker thread, so turns
  reach the provider in the order they were queued and the caller never
  waits. Fence tags are stripped from stored text first, so recalled
  context the model echoed is never written back into memory.
* ``shutdown(timeout)`` drains that queue with a bound, then calls the
  provider's own ``shutdown`` on the worker (same thread as its writes).
* Tool calls are answered with a typed answer whatever happens (the JSON a
  model reads is made from it at the edge, :mod:`silcrow.recall._edge`); they
  never raise. Strings in a tool result are screened like prefetched text (a
  threat is replaced by a ``[BLOCKED: ...]`` placeholder), as they reach the
  model outside the fence.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

from silcrow._toolcall import parse_arguments
from silcrow.errors import ProviderConflictError, RecallError, SilcrowError, ToolCallError
from silcrow.recall import _edge, policy
from silcrow.recall._api import Answer, Forgotten, Found, Remembered
from silcrow.recall._limits import MAX_QUERY_CHARS, MAX_RESULTS
from silcrow.recall._multi import ProviderSet
from silcrow.recall._provider import MemoryProvider, answered_recall_tools
from silcrow.recall._spec import ToolResult, ToolSpec
from silcrow.recall._tools import TOOL_NAMES, call_recall_tool

log = logging.getLogger(__name__)

_T = TypeVar("_T")
_V = TypeVar("_V")

# Defined by the recall policy; importable from here as before.
is_trivial_prompt = policy.is_trivial_prompt
screen_tool_result = policy.screen_tool_result


class MemoryManager:
    """Orchestrates one :class:`MemoryProvider`, which may be a set of several (see module doc)."""

    def __init__(
        self,
        prefetch_timeout: float = 8.0,
        *,
        tool_timeout: float = 30.0,
        max_queued: int = 10_000,
        max_stuck_calls: int = 4,
    ) -> None:
        self.prefetch_timeout = prefetch_timeout
        self.tool_timeout = tool_timeout
        self._max_stuck = max_stuck_calls
        self._provider: MemoryProvider | None = None
        self._tool_names: set[str] = set()
        self._lock = threading.Lock()
        self._queue: queue.Queue[tuple[str, Callable[[], object]] | None] = queue.Queue(max_queued)
        self._idle = threading.Condition()
        self._pending = 0
        self._inflight = 0
        self._worker: threading.Thread | None = None
        self._closed = False
        self._count_lock = threading.Lock()
        self.counters: dict[str, int] = {
            "prefetch_calls": 0, "prefetch_trivial_skips": 0, "provider_failures": 0,
            "provider_timeouts": 0, "queued_jobs": 0, "dropped_jobs": 0,
        }

    @classmethod
    def of(cls, provider: MemoryProvider | None, session_id: str = "", *,
           context: Mapping[str, Any] | None = None, initialize: bool = True,
           available_only: bool = True, **options: Any) -> MemoryManager:
        """A manager running ``provider`` (None: no recall), checked and initialised: what
        ``Profile.recall`` hands out. ``options`` are the manager's (timeouts, bounds);
        ``context`` goes to the provider's ``initialize`` with ``session_id``. A provider that is
        not available is left out, loudly (``available_only``; a status report keeps it to say
        why); ``initialize`` False leaves it to the caller."""
        manager = cls(**options)
        if provider is None:
            return manager
        if available_only and not provider.is_available():
            # Curated notes never depend on the provider: carry on without recall, loudly.
            log.warning("recall provider %r is not available (%s); continuing without long-term recall",
                        provider.name, provider.unavailable_reason() or "no reason given")
            return manager
        manager.add_provider(provider)
        if initialize:
            manager.initialize(session_id, **dict(context or {}))
        return manager

    # --- provider --------------------------------------------------------------

    @property
    def provider(self) -> MemoryProvider | None:
        return self._provider

    def add_provider(self, provider: MemoryProvider) -> None:
        """Make ``provider`` the active one; a second, different provider is refused."""
        if not isinstance(provider, MemoryProvider):
            raise RecallError(
                f"{provider!r} is not a silcrow MemoryProvider; subclass "
                "silcrow.recall.MemoryProvider"
            )
        with self._lock:
            if self._provider is provider:
                return
            if self._provider is not None:
                raise ProviderConflictError(
                    f"recall provider {self._provider.name!r} is already active; a manager runs one "
                    f"provider, so {provider.name!r} was refused. Choose the one you want with the "
                    "`provider` key in <home>/config.toml (or --provider), or run several at once with "
                    '`providers = ["local", ...]`, which the manager runs as one set.'
                )
            if self._closed:
                raise RecallError("this MemoryManager was shut down; create a new one")
            if isinstance(provider, ProviderSet):  # its members run under this manager's bounds
                provider.bind(prefetch_timeout=self.prefetch_timeout, tool_timeout=self.tool_timeout,
                              max_stuck_calls=self._max_stuck, max_queued=self._queue.maxsize)
            self._provider = provider

    def _name(self) -> str:
        return self._provider.name if self._provider is not None else "<none>"

    def initialize(self, session_id: str, **context: Any) -> bool:
        """Call the provider's ``initialize``; on failure the provider is dropped (logged)."""
        provider = self._provider
        if provider is None:
            return False
        try:
            provider.initialize(session_id, **context)
        except Exception as exc:
            self._failed("initialize", exc)
            log.error("recall provider %r disabled: initialize failed; the agent continues without "
                      "long-term recall until the error above is fixed and it is restarted", provider.name)
            with self._lock:
                self._provider = None
            return False
        return True

    def _out(self, provider: MemoryProvider, value: _V) -> _V:
        """``value`` as it may be handed to ``provider`` (see :func:`policy.outgoing`)."""
        return policy.outgoing(provider, value)

    def on_session_switch(self, old_session_id: str, new_session_id: str, **context: Any) -> None:
        """Tell the provider the agent moved to another session (bounded, never raises)."""
        provider = self._provider
        if provider is None or self._closed or old_session_id == new_session_id:
            return
        if type(provider).on_session_switch is MemoryProvider.on_session_switch:
            return
        self._timed("on_session_switch",
                    lambda: provider.on_session_switch(old_session_id, new_session_id, **context),
                    self.prefetch_timeout)

    def recall_status(self) -> dict[str, Any]:
        """The provider's own status (``recall_status()``) and this manager's counters."""
        provider = self._provider
        if provider is None:
            return {"provider": None, "available": False, "reason": "no recall provider is active",
                    "counters": dict(self.counters)}
        ok, value = self._timed("recall_status", provider.recall_status, self.tool_timeout)
        status = dict(value) if ok and isinstance(value, dict) else {
            "provider": provider.name, "available": False, "reason": "its status could not be read"}
        if isinstance(provider, ProviderSet):  # any member's (the set's own attribute is False)
            status.setdefault("external", True)
        else:
            status["external"] = bool(getattr(provider, "external", True))
        status["counters"] = dict(self.counters)
        return status

    def _count(self, key: str) -> None:
        with self._count_lock:  # bumped from the worker and timed-call threads too
            self.counters[key] += 1

    def _failed(self, hook: str, exc: BaseException) -> None:
        self._count("provider_failures")
        log.warning("recall provider %r failed in %s: %s: %s; skipped", self._name(), hook,
                    type(exc).__name__, exc)

    # --- timed calls on the caller's behalf ------------------------------------

    def _timed(self, hook: str, fn: Callable[[], object], timeout: float) -> tuple[bool, object]:
        """Run ``fn`` on a daemon thread; ``(True, value)`` or ``(False, None)`` after logging."""
        if isinstance(self._provider, ProviderSet):
            # The set bounds each member itself, on threads of its own, within these deadlines: one
            # member stuck must not count against the others, nor its lateness hide their answers.
            try:
                return True, fn()
            except Exception as exc:
                self._failed(hook, exc)
                return False, None
        with self._lock:
            if self._inflight >= self._max_stuck:
                self._count("provider_timeouts")
                log.warning("recall provider %r: %d earlier calls are still stuck; %s skipped",
                            self._name(), self._inflight, hook)
                return False, None
            self._inflight += 1
        done = threading.Event()
        box: dict[str, object] = {}

        def run() -> None:
            try:
                box["value"] = fn()
            except BaseException as exc:  # reported on the caller's thread
                box["error"] = exc
            finally:
                with self._lock:
                    self._inflight -= 1
                done.set()

        threading.Thread(target=run, name=f"silcrow-recall-{hook}", daemon=True).start()
        if not done.wait(timeout):
            self._count("provider_timeouts")
            log.warning("recall provider %r did not finish %s within %.1fs; skipped",
                        self._name(), hook, timeout)
            return False, None
        error = box.get("error")
        if isinstance(error, BaseException):
            self._failed(hook, error)
            return False, None
        return True, box.get("value")

    def on_turn_start(self, turn_number: int, message: str) -> None:
        """Tell the provider a user turn begins; returns when it did (bounded, never raises).

        Synchronous so that the provider sees it before this turn's prefetch.
        Providers that keep the no-op default cost nothing (no thread).
        """
        provider = self._provider
        if provider is None or self._closed:
            return
        if type(provider).on_turn_start is MemoryProvider.on_turn_start:
            return
        message = self._out(provider, message)
        self._timed("on_turn_start", lambda: provider.on_turn_start(turn_number, message),
                    self.prefetch_timeout)

    def prefetch(self, query: str, session_id: str = "", *, exclude_lines: Collection[str] = ()) -> str:
        """The fenced ``<memory-context>`` block recalled for ``query``, or ``""``.

        Lines of the provider's text equal (after stripping) to one of
        ``exclude_lines`` are dropped first: the caller passes what the model can
        still see from earlier blocks, so a memory is not sent twice. A query over
        ``MAX_PREFETCH_QUERY_CHARS`` is searched by its last that many characters.
        """
        provider = self._provider
        if provider is None or self._closed:
            return ""
        query = policy.prefetch_query(query)
        if not policy.worth_recalling(query):
            self._count("prefetch_trivial_skips")
            return ""
        self._count("prefetch_calls")
        asked = self._out(provider, query)
        ok, value = self._timed(
            "prefetch", lambda: provider.prefetch(asked, session_id=session_id), self.prefetch_timeout
        )
        if not ok:
            return ""
        if not isinstance(value, str):
            self._count("provider_failures")
            log.warning("recall provider %r returned %s from prefetch instead of str; skipped",
                        provider.name, type(value).__name__)
            return ""
        return policy.context_block(value, exclude_lines=exclude_lines)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        """Provider text for the compression prompt ("" on any failure)."""
        provider = self._provider
        if provider is None:
            return ""
        messages = self._out(provider, messages)
        ok, value = self._timed(
            "on_pre_compress", lambda: provider.on_pre_compress(messages), self.prefetch_timeout
        )
        if ok and isinstance(value, str):
            return policy.recalled(value)  # recalled text, so the same threat filter as prefetch
        if ok:
            log.warning("recall provider %r returned %s from on_pre_compress; ignored",
                        provider.name, type(value).__name__)
        return ""

    def system_prompt_block(self) -> str:
        provider = self._provider
        if provider is None:
            return ""
        try:
            value = provider.system_prompt_block()
        except Exception as exc:
            self._failed("system_prompt_block", exc)
            return ""
        return value if isinstance(value, str) else ""

    # --- tools -----------------------------------------------------------------------------
    # Typed end to end: the provider's specs and answers; tool JSON is made once, by the edge,
    # in tool_schemas and handle_tool_call.

    def tool_specs(self) -> list[ToolSpec]:
        """The provider's tools, typed (names unique); a provider that fails gives none."""
        provider = self._provider
        if provider is None:
            return []
        try:
            specs = provider.tool_specs()
        except Exception as exc:
            self._failed("tool_specs", exc)
            return []
        if not isinstance(specs, list | tuple) or not all(isinstance(s, ToolSpec) for s in specs):
            log.warning("recall provider %r: tool_specs() returned %s, not a list of ToolSpec; no tools "
                        "offered", provider.name, type(specs).__name__)
            return []
        unique: dict[str, ToolSpec] = {}
        for spec in specs:
            if spec.name in unique:
                log.warning("recall provider %r declares tool %r twice; the first is kept",
                            provider.name, spec.name)
            unique.setdefault(spec.name, spec)
        self._tool_names = set(unique)
        return list(unique.values())

    def typed_recall_tools(self) -> list[str]:
        """The ``recall_*`` tools answered through the typed API (:meth:`search`, :meth:`remember`,
        :meth:`forget`): those the provider lists with their own specs; besides, unless it has a
        tool of that name of its own, ``recall_search`` (its recalled context by default) and
        ``recall_add`` / ``recall_forget`` when it writes ``remember`` / ``forget`` itself."""
        provider = self._provider
        return [] if provider is None else answered_recall_tools(provider, self.tool_specs())

    def tool_schemas(self) -> list[dict[str, Any]]:
        """:meth:`tool_specs` in OpenAI function format (the model's edge)."""
        return [_edge.openai_tool(spec) for spec in self.tool_specs()]

    def call_tool(self, name: str, args: Mapping[str, Any] | str) -> Answer:
        """Route a tool call to the provider; a typed answer whatever happens, never raises.

        ``args`` may be the model's JSON text. Every string the model reads of it is screened
        like recalled text (typed hits were screened as they were found).
        """
        provider = self._provider
        if provider is None:
            return ToolResult.failed(f"no recall provider is active, so tool {name!r} is unavailable")
        if not self._tool_names:
            self.tool_specs()
        if name not in self._tool_names:
            return ToolResult.failed(f"unknown recall tool {name!r}; available: {sorted(self._tool_names)}")
        try:
            call_args = self._out(provider, parse_arguments(args, tool=name))
        except ToolCallError as exc:
            return ToolResult.failed(str(exc))
        if name in TOOL_NAMES and name in self.typed_recall_tools():
            # The same typed path as the servers: one set of checks, fence tags stripped before a
            # fact is stored, hits screened as they are recalled.
            answer = call_recall_tool(self, name, call_args)
            # Hits were screened by self.search; a refusal may quote what was sent.
            return policy.screened(answer) if isinstance(answer, ToolResult) else answer
        ok, value = self._timed(f"tool:{name}", lambda: provider.call_tool(name, call_args),
                                self.tool_timeout)
        if not ok:
            return ToolResult.failed(f"recall tool {name!r} failed or timed out; answer without it")
        if not isinstance(value, Answer):
            self._count("provider_failures")
            log.warning("recall provider %r answered tool %r with %s, not a ToolResult", provider.name,
                        name, type(value).__name__)
            return ToolResult.failed(f"recall tool {name!r} gave an answer of the wrong type; answer "
                                     "without it")
        return policy.screened(value)

    def handle_tool_call(self, name: str, args: dict[str, Any] | str) -> str:
        """:meth:`call_tool` as the JSON text the model reads (the edge); never raises."""
        return _edge.answer_json(self.call_tool(name, args))

    # --- the typed recall API (silcrow.recall._api) ------------------------------
    # Every provider has it (MemoryProvider's defaults serve one without a store of its own);
    # the manager adds the checks, the secret redaction, the time bound and the screening.

    def search(self, query: str, k: int = 8) -> Found:
        """The memories recalled for ``query`` (at most ``k``), screened like any recalled text.
        Raises RecallError when there is no provider or it fails (the caller reports it)."""
        provider = self._active("search")
        text = query.strip() if isinstance(query, str) else ""
        if not text:
            raise RecallError("a recall search needs a non-empty query")
        if len(text) > MAX_QUERY_CHARS:
            raise RecallError(f"the query is {len(text)} characters, over the cap of {MAX_QUERY_CHARS}; "
                              "search with a few words")
        text = self._out(provider, text)
        found = self._typed("search", lambda: provider.search(text, max(1, min(int(k), MAX_RESULTS))), Found)
        return policy.screened(found)  # hits reach a model too; recalled context is fenced here

    def remember(self, text: str, *, source: str = "api") -> Remembered:
        """Keep one fact in recall; returns its id. ``source`` is kept with it (who saved it)."""
        provider = self._active("recall_add")
        fact = text.strip() if isinstance(text, str) else ""
        if not fact:
            raise RecallError("a fact to remember must be non-empty text")
        fact = policy.stored(fact).strip()
        if not fact:
            raise RecallError("the fact is only recalled context (<memory-context> text), which is never "
                              "stored again; save the new fact itself")
        fact = self._out(provider, fact)
        return self._typed("remember", lambda: provider.remember(fact, source=source), Remembered)

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten:
        """Delete the memory with id ``target``, or (text) every memory containing it, refused when
        that is more than ``max_matches``; ``removed`` is 0 when there was none."""
        provider = self._active("recall_forget")
        if isinstance(target, bool) or not isinstance(target, int | str):
            raise RecallError(f"forget takes a memory id or text, not {type(target).__name__}")
        target = self._out(provider, target)
        return self._typed("forget", lambda: provider.forget(target, max_matches=max_matches), Forgotten)

    def _active(self, what: str) -> MemoryProvider:
        provider = self._provider
        if provider is None or self._closed:
            raise RecallError(f"no recall provider is active, so {what!r} is unavailable; "
                              "set `provider` in the home's config.toml")
        return provider

    def _typed(self, hook: str, call: Callable[[], object], kind: type[_T]) -> _T:
        """``call`` bounded by the tool timeout, answering a ``kind``; the provider's own error
        is raised as it is."""

        def run() -> object:
            try:
                return call()
            except SilcrowError as exc:  # says what was wrong: hand it to the caller's thread
                return exc

        ok, value = self._timed(hook, run, self.tool_timeout)
        if not ok:
            raise RecallError(f"recall {hook} failed or timed out; try again")
        if isinstance(value, SilcrowError):
            raise value
        if not isinstance(value, kind):
            self._count("provider_failures")
            raise RecallError(f"recall provider {self._name()!r} answered {hook}() with "
                              f"{type(value).__name__}, not {kind.__name__}; its {hook}() is broken")
        return value

    # --- the background worker -------------------------------------------------

    def _enqueue(self, label: str, job: Callable[[], object]) -> bool:
        if self._provider is None:
            return False
        with self._idle:
            if self._closed:
                log.warning("MemoryManager is shut down; %s dropped", label)
                self._count("dropped_jobs")
                return False
            try:
                self._queue.put_nowait((label, job))
            except queue.Full:
                self._count("dropped_jobs")
                log.error("recall provider %r is %d jobs behind; %s dropped", self._name(),
                          self._queue.qsize(), label)
                return False
            self._pending += 1
            self._count("queued_jobs")
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="silcrow-recall-sync", daemon=True)
                self._worker.start()
        return True

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            label, job = item
            try:
                job()
            except Exception as exc:
                self._failed(label, exc)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def sync_turn(self, user: str, assistant: str, session_id: str = "") -> None:
        """Queue one completed turn for the provider; returns at once."""
        provider = self._provider
        if provider is None:
            return
        user, assistant = self._out(provider, (policy.stored(user), policy.stored(assistant)))
        self._enqueue("sync_turn", lambda: provider.sync_turn(user, assistant, session_id=session_id))

    def queue_prefetch(self, query: str, session_id: str = "") -> None:
        provider = self._provider
        query = policy.prefetch_query(query)
        if provider is None or not policy.worth_recalling(query):
            return
        query = self._out(provider, query)
        self._enqueue("queue_prefetch", lambda: provider.queue_prefetch(query, session_id=session_id))

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        provider = self._provider
        if provider is not None:
            content = self._out(provider, policy.written_note(action, content))
            self._enqueue("on_memory_write", lambda: provider.on_memory_write(action, target, content))

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        """Queued behind the session's own turns, so the provider sees them first."""
        provider = self._provider
        if provider is not None:
            # A copy: the caller keeps its own.
            snapshot = self._out(provider, policy.stored_messages(messages))
            self._enqueue("on_session_end", lambda: provider.on_session_end(snapshot))

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued job ran; False if ``timeout`` passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            while self._pending:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._idle.wait(remaining)
        return True

    def shutdown(self, timeout: float = 10.0) -> bool:
        """Drain pending work (at most ``timeout`` s), then shut the provider down.

        Returns True when everything finished in time. Safe to call twice.
        """
        provider = self._provider
        with self._idle:
            if self._closed:
                return self._pending == 0
        if provider is not None:

            def close() -> None:
                provider.shutdown()

            self._enqueue("shutdown", close)
        with self._idle:
            self._closed = True
        drained = self.flush(timeout)
        if self._worker is not None:
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                pass  # the worker is stuck; it is a daemon and dies with the process
        if not drained:
            log.warning("recall provider %r: %d queued jobs still pending after %.1fs; abandoned",
                        self._name(), self._pending, timeout)
        return drained

