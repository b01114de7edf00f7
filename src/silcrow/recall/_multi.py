"""ProviderSet: several recall providers run as one provider (``[recall] providers = [...]``).

:func:`silcrow.recall.open_provider` makes one when more than one provider is selected, so the
manager and every caller run a set as they run one provider. What a set does with its members:

* **Reads in parallel, under one deadline.** ``prefetch``, ``on_turn_start``,
  ``on_pre_compress`` and ``on_session_switch`` ask every member at once, each on a daemon
  thread of its own, and wait at most the manager's ``prefetch_timeout`` for all of them
  together; ``search``, ``remember``, ``forget``, ``recall_status`` and tool calls wait at
  most its ``tool_timeout``. A member that has not answered by then is left out of this
  answer (its thread is abandoned, as the manager abandons one provider's); one that raises is
  left out and logged. Each member counts its own calls still running, so a stuck member is
  skipped after ``max_stuck_calls`` of them without costing the others anything.
* **Merged, then fenced once.** Each member's text is filtered for threats by itself
  (:func:`policy.recalled`), then they are joined in the order they were selected, less the
  lines an earlier member gave already (:func:`policy.merged`); the manager then filters and
  fences that one text (:func:`policy.context_block`).
* **Writes and session hooks reach every member.** ``sync_turn``, ``on_memory_write``,
  ``on_session_end``, ``queue_prefetch`` and ``shutdown`` go to one ordered worker per
  member, so a slow member's writes never hold up another's; a hook waits for all of them
  at most ``tool_timeout`` (the manager's ``flush`` keeps its meaning), then leaves a slow
  member's write queued on its worker. A member found late is not waited for again until its
  worker has caught up (else every later write would cost the manager's one worker a whole
  ``tool_timeout``, and the other members would get their writes that much later), and at most
  ``max_queued`` of its writes wait (more are dropped and counted, as the manager drops its own).
* **Typed recall.** ``search`` merges every member's answer: the hits of the first member that
  searches with hits of its own (the *id owner*, usually ``local``) keep their ids; when another
  member recalled anything, ``Found.context`` holds everything as text, those hits as lines with
  their ids. ``remember`` goes to every member that keeps facts and answers the id owner's id
  (else the first); ``forget`` by text reaches every member that forgets and adds up what they
  removed; ``forget`` by id reaches the id owner only, since ids are each member's own.
* **Tools keep their names.** A member's own tools are offered as it names them; the
  ``recall_*`` tools are offered once and answered by the typed recall above. Two members
  that list another tool of the same name are refused when the set is made
  (:class:`~silcrow.errors.ProviderConflictError`).
* **Secrets.** The set hands each member what it may be handed (:func:`policy.outgoing` per
  member): an external member gets redacted text, ``local`` the text itself.

A member that is not available, or whose ``initialize`` fails, is left out of every call; its
entry in :meth:`ProviderSet.recall_status` says why, with its last error and timings.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from silcrow.errors import ProviderConflictError, RecallError, SilcrowError
from silcrow.recall import _tools as tools
from silcrow.recall import policy
from silcrow.recall._api import Answer, Forgotten, Found, Remembered
from silcrow.recall._provider import MemoryProvider, answered_recall_tools, overrides
from silcrow.recall._spec import ToolResult, ToolSpec

__all__ = ["ProviderSet", "Unloadable"]

log = logging.getLogger(__name__)

_V = TypeVar("_V")
Job = Callable[[MemoryProvider], object]


class _Call:
    """One call of one member on a daemon thread: its value or error once ``done`` is set."""

    def __init__(self, lane: _Lane, hook: str) -> None:
        self.lane, self.hook = lane, hook
        self.done = threading.Event()
        self.value: object = None
        self.error: BaseException | None = None

    def run(self, fn: Job) -> None:
        started = time.perf_counter()
        try:
            self.value = fn(self.lane.provider)
        except BaseException as exc:  # reported by the lane, on the caller's terms
            self.error = exc
        finally:
            self.lane.finished(self, (time.perf_counter() - started) * 1000)
            self.done.set()


class _Lane:
    """One member of a set: its calls on threads of its own, its ordered writes, what it last did
    and why it is left out."""

    def __init__(self, provider: MemoryProvider, max_stuck: int, max_queued: int = 10_000) -> None:
        self.provider = provider
        self.name = provider.name
        self.reason = ""  # why it takes no calls ("" while it does)
        self.started = False  # initialised (so it is shut down)
        self.last_error = ""
        self.timings: dict[str, float] = {}  # the last call of each hook, in ms
        self.counters = {"calls": 0, "failures": 0, "timeouts": 0, "skipped": 0, "dropped": 0}
        self.max_stuck = max_stuck
        self.max_queued = max_queued
        self.late = False  # a write was not done in time; its worker has not caught up since
        self._running = 0
        self._lock = threading.Lock()
        self._jobs: queue.Queue[tuple[str, Job, threading.Event] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        try:
            if not provider.is_available():
                self.reason = provider.unavailable_reason() or "is_available() returned False"
        except Exception as exc:
            self.reason = f"is_available() failed: {type(exc).__name__}: {exc}"

    @property
    def live(self) -> bool:
        return not self.reason

    def start(self, hook: str, fn: Job) -> _Call | None:
        """``fn(provider)`` on a daemon thread, or None when too many earlier calls still run."""
        with self._lock:
            if self._running >= self.max_stuck:
                self.counters["skipped"] += 1
                self.last_error = f"{self._running} earlier calls are still running; {hook} skipped"
                return None
            self._running += 1
            self.counters["calls"] += 1
        call = _Call(self, hook)
        threading.Thread(target=call.run, args=(fn,), name=f"silcrow-recall-{self.name}-{hook}",
                         daemon=True).start()
        return call

    def finished(self, call: _Call, ms: float) -> None:
        with self._lock:
            self._running -= 1
            self.timings[call.hook] = round(ms, 1)
        if call.error is not None:
            self.failed(call.hook, call.error)

    def failed(self, hook: str, error: BaseException | str) -> None:
        what = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        with self._lock:
            self.counters["failures"] += 1
            self.last_error = f"{hook}: {what}"
        log.warning("recall provider %r failed in %s: %s; the other providers go on", self.name, hook, what)

    def timed_out(self, hook: str, timeout: float, *, writing: bool = False) -> None:
        with self._lock:
            self.counters["timeouts"] += 1
            self.late = self.late or writing
            self.last_error = f"{hook}: no answer within {timeout:.2f}s; left out"
        log.warning("recall provider %r did not finish %s within %.2fs; the others' answers are used",
                    self.name, hook, timeout)

    # -- ordered writes ----------------------------------------------------------------------

    def submit(self, hook: str, fn: Job) -> threading.Event | None:
        """Queue ``fn(provider)`` on this member's worker (in order); the event is set when it ran.
        None when ``max_queued`` writes wait already: this one is dropped, and counted."""
        done = threading.Event()
        with self._lock:
            if 0 < self.max_queued <= self._jobs.qsize():  # 0: no bound, as queue.Queue(0)
                self.counters["dropped"] += 1
                self.last_error = f"{self._jobs.qsize()} writes are waiting; {hook} dropped"
                log.error("recall provider %r is %d writes behind; %s dropped", self.name,
                          self._jobs.qsize(), hook)
                return None
            self._jobs.put((hook, fn, done))
            if self._writer is None:
                self._writer = threading.Thread(target=self._write, args=(self._jobs,),
                                                name=f"silcrow-recall-{self.name}-sync", daemon=True)
                self._writer.start()
        return done

    def _write(self, jobs: queue.Queue[tuple[str, Job, threading.Event] | None]) -> None:
        while (item := jobs.get()) is not None:
            hook, fn, done = item
            started = time.perf_counter()
            try:
                fn(self.provider)
            except Exception as exc:
                self.failed(hook, exc)
            finally:
                with self._lock:
                    self.timings[hook] = round((time.perf_counter() - started) * 1000, 1)
                    if jobs.empty():
                        self.late = False
                done.set()

    def stop(self) -> None:
        """End the worker once it ran what is queued; a later write starts a new one (a member
        used again after a shutdown, as the manager allows)."""
        with self._lock:
            if self._writer is not None:
                self._jobs.put(None)
                self._jobs, self._writer = queue.Queue(), None

    def pending(self) -> int:
        return self._jobs.qsize()


class Unloadable(MemoryProvider):
    """A selected provider that could not be made (its plugin does not import, its constructor
    refused): kept in the set so that its status says why, while the others run."""

    def __init__(self, name: str, reason: str) -> None:
        self.name, self.reason = name, reason

    def is_available(self) -> bool:
        return False

    def unavailable_reason(self) -> str:
        return self.reason

    def initialize(self, session_id: str, **context: Any) -> None:
        raise RecallError(self.reason)


class ProviderSet(MemoryProvider):
    """Several recall providers run as one (see the module doc)."""

    # What each member may be handed is decided per member (policy.outgoing), not for the set.
    external = False

    def __init__(self, providers: Sequence[MemoryProvider], *, prefetch_timeout: float = 8.0,
                 tool_timeout: float = 30.0, max_stuck_calls: int = 4) -> None:
        names = [p.name for p in providers]
        if len(providers) < 2:
            raise RecallError("a ProviderSet runs two providers or more; run a single one by itself")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ProviderConflictError(f"recall provider {twice[0]!r} is selected twice; list each provider "
                                        "once in `providers`")
        self.name = "+".join(names)
        self.providers = tuple(providers)
        self.prefetch_timeout = prefetch_timeout
        self.tool_timeout = tool_timeout
        self._lanes = [_Lane(p, max_stuck_calls) for p in providers]
        self._own_tools: dict[str, _Lane] = {}
        self._check_tools()

    def bind(self, *, prefetch_timeout: float, tool_timeout: float, max_stuck_calls: int,
             max_queued: int = 10_000) -> None:
        """Take the deadlines and bounds of the manager that runs the set."""
        self.prefetch_timeout, self.tool_timeout = prefetch_timeout, tool_timeout
        for lane in self._lanes:
            lane.max_stuck, lane.max_queued = max_stuck_calls, max_queued

    def _live(self) -> list[_Lane]:
        return [lane for lane in self._lanes if lane.live]

    def _check_tools(self) -> None:
        """Each member's own tools by name; a name two members list is refused, and so is a
        member's own tool named like a ``recall_*`` tool another member answers through its
        typed recall (the set offers that name once, for the merged recall)."""
        owner: dict[str, _Lane] = {}
        typed: dict[str, _Lane] = {}
        for lane in self._live():
            try:
                specs = list(lane.provider.tool_specs())
            except Exception as exc:
                lane.failed("tool_specs", exc)
                continue
            for name in answered_recall_tools(lane.provider, specs):
                typed.setdefault(name, lane)
            listed = set(tools.typed_tools(specs))
            for name in dict.fromkeys(spec.name for spec in specs):  # in the member's own order
                if name in listed:
                    continue
                if name in owner:
                    raise ProviderConflictError(
                        f"recall providers {owner[name].name!r} and {lane.name!r} both have a tool named "
                        f"{name!r}; a model could not tell them apart. Select only one of them in "
                        "`providers`")
                owner[name] = lane
        for name, lane in owner.items():
            other = typed.get(name)
            if other is not None and other is not lane:
                raise ProviderConflictError(
                    f"recall provider {lane.name!r} has a tool of its own named {name!r}, which "
                    f"{other.name!r} answers as silcrow's recall tool; a model could not tell them apart. "
                    "Select only one of them in `providers`")
        self._own_tools = owner

    # -- availability and the session ---------------------------------------------------------

    def is_available(self) -> bool:
        return any(lane.live for lane in self._lanes)

    def unavailable_reason(self) -> str:
        return "; ".join(f"{lane.name}: {lane.reason}" for lane in self._lanes if lane.reason)

    def initialize(self, session_id: str, *, skip: Collection[str] = (), **context: Any) -> None:
        """Initialise every available member (those named in ``skip`` are left as they are); a
        member that fails is left out, the others go on. Raises RecallError when none started."""
        for lane in self._lanes:
            if not lane.live and not lane.started:  # the others run without it, loudly
                log.warning("recall provider %r is not available (%s); the other selected providers run "
                            "without it", lane.name, lane.reason)
        for lane in self._live():
            if lane.name in skip:
                continue
            try:
                lane.provider.initialize(session_id, **context)
                lane.started = True
            except Exception as exc:
                lane.failed("initialize", exc)
                lane.reason = f"initialize failed: {type(exc).__name__}: {exc}"
        if not self.is_available():
            raise RecallError(f"none of the recall providers {self.name!r} could start: "
                              f"{self.unavailable_reason()}")

    def system_prompt_block(self) -> str:
        blocks = []
        for lane in self._live():
            try:
                block = lane.provider.system_prompt_block()
            except Exception as exc:
                lane.failed("system_prompt_block", exc)
                continue
            if isinstance(block, str) and block.strip() and block not in blocks:
                blocks.append(block)
        return "\n\n".join(blocks)

    # -- reads: every member at once, one deadline ---------------------------------------------

    def _gather(self, hook: str, fn: Job, timeout: float, lanes: Sequence[_Lane] | None = None,
                ) -> list[tuple[_Lane, object]]:
        """``fn(member)`` on every live member (or ``lanes``) at once; the answers of those that
        answered within ``timeout`` of the start, in the members' order."""
        deadline = time.monotonic() + timeout
        calls = [call for lane in (self._live() if lanes is None else lanes)
                 if (call := lane.start(hook, fn)) is not None]
        answered: list[tuple[_Lane, object]] = []
        for call in calls:
            if not call.done.wait(max(0.0, deadline - time.monotonic())):
                call.lane.timed_out(hook, timeout)
            elif call.error is None:
                answered.append((call.lane, call.value))
        return answered

    def _texts(self, hook: str, answered: list[tuple[_Lane, object]]) -> list[str]:
        """The members' texts, each filtered for threats by itself (:func:`policy.recalled`)
        before they are merged: an attack spread over one member's items costs that member's
        text, not the others' (the fence's scan of the whole would drop everything)."""
        texts = []
        for lane, value in answered:
            if isinstance(value, str):
                texts.append(policy.recalled(value))
            else:
                lane.failed(hook, f"returned {type(value).__name__}, not str")
        return texts

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        answered = self._gather("prefetch",
                                lambda p: p.prefetch(policy.outgoing(p, query), session_id=session_id),
                                self.prefetch_timeout)
        return policy.merged(self._texts("prefetch", answered))

    def on_turn_start(self, turn_number: int, message: str) -> None:
        lanes = [lane for lane in self._live() if overrides(lane.provider, "on_turn_start")]
        if lanes:
            self._gather("on_turn_start", lambda p: p.on_turn_start(turn_number, policy.outgoing(p, message)),
                         self.prefetch_timeout, lanes)

    def on_session_switch(self, old_session_id: str, new_session_id: str, **context: Any) -> None:
        lanes = [lane for lane in self._live() if overrides(lane.provider, "on_session_switch")]
        if lanes:
            self._gather("on_session_switch",
                         lambda p: p.on_session_switch(old_session_id, new_session_id, **context),
                         self.prefetch_timeout, lanes)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        answered = self._gather("on_pre_compress", lambda p: p.on_pre_compress(policy.outgoing(p, messages)),
                                self.prefetch_timeout)
        return policy.merged(self._texts("on_pre_compress", answered))

    def recall_status(self) -> dict[str, Any]:
        """The set's status: available when any member is, and each member's own status with
        why it is left out, its last error, its timings (ms) and its counters."""
        answered = dict(self._gather("recall_status", lambda p: p.recall_status(), self.tool_timeout,
                                     self._lanes))
        members = []
        for lane in self._lanes:
            found = answered.get(lane)
            # A member whose own status cannot be read is still as available as its lane says;
            # last_error says what went wrong.
            status: dict[str, Any] = dict(found) if isinstance(found, dict) else {
                "status": "its own status could not be read (see last_error)"}
            status["provider"] = lane.name
            status["available"] = bool(lane.live and status.get("available", True))
            status["reason"] = lane.reason or str(status.get("reason") or "")
            status["external"] = bool(getattr(lane.provider, "external", True))
            status["last_error"] = lane.last_error or str(status.get("last_error") or "")
            status["timings_ms"] = dict(lane.timings)
            status["counters"] = dict(lane.counters)
            status["queued_jobs"] = lane.pending()
            members.append(status)
        return {"provider": self.name, "available": self.is_available(),
                "reason": "" if self.is_available() else self.unavailable_reason(),
                "external": any(m["external"] for m in members), "providers": members}

    # -- writes: every member, each in its own order -------------------------------------------

    def _write(self, hook: str, fn: Job, lanes: Sequence[_Lane] | None = None) -> bool:
        """Queue ``fn(member)`` for every live member; wait at most ``tool_timeout`` for all but
        those already late (their worker is still stuck on an earlier write)."""
        deadline = time.monotonic() + self.tool_timeout
        queued = [(lane, lane.late, lane.submit(hook, fn))
                  for lane in (self._live() if lanes is None else lanes)]
        done = True
        for lane, late, event in queued:
            if event is None or late:
                done = False
            elif not event.wait(max(0.0, deadline - time.monotonic())):
                lane.timed_out(hook, self.tool_timeout, writing=True)
                done = False
        return done

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        self._write("sync_turn", lambda p: p.sync_turn(policy.outgoing(p, user),
                                                       policy.outgoing(p, assistant), session_id=session_id))

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        for lane in self._live():  # a hint: nobody waits for it
            lane.submit("queue_prefetch",
                        lambda p: p.queue_prefetch(policy.outgoing(p, query), session_id=session_id))

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        self._write("on_memory_write",
                    lambda p: p.on_memory_write(action, target, policy.outgoing(p, content)))

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self._write("on_session_end", lambda p: p.on_session_end(policy.outgoing(p, messages)))

    def shutdown(self) -> None:
        started = [lane for lane in self._lanes if lane.started]
        self._write("shutdown", lambda p: p.shutdown(), started)
        for lane in self._lanes:
            lane.stop()

    # -- typed recall --------------------------------------------------------------------------

    def _owner(self) -> _Lane | None:
        """The member whose ids a merged search shows: the first that searches with hits."""
        return next((lane for lane in self._live() if overrides(lane.provider, "search")), None)

    def _answers(self, what: str, lanes: Sequence[_Lane], fn: Job, kind: type[_V]) -> list[tuple[_Lane, _V]]:
        """``fn`` on ``lanes`` at once; their ``kind`` answers. Raises when none answered: the
        one member's own error, or a RecallError naming each member's."""
        if not lanes:
            raise RecallError(f"none of the recall providers {self.name!r} can {what}")
        errors: dict[str, BaseException | str] = {}
        calls = [(lane, lane.start(what, fn)) for lane in lanes]
        deadline = time.monotonic() + self.tool_timeout
        answered: list[tuple[_Lane, _V]] = []
        for lane, call in calls:
            if call is None:
                errors[lane.name] = lane.last_error
            elif not call.done.wait(max(0.0, deadline - time.monotonic())):
                lane.timed_out(what, self.tool_timeout)
                errors[lane.name] = f"no answer within {self.tool_timeout:.1f}s"
            elif call.error is not None:
                errors[lane.name] = call.error
            elif not isinstance(call.value, kind):
                lane.failed(what, f"answered {type(call.value).__name__}, not {kind.__name__}")
                errors[lane.name] = f"answered {type(call.value).__name__}"
            else:
                answered.append((lane, call.value))
        if answered:
            return answered
        first = next(iter(errors.values()))
        if len(errors) == 1 and isinstance(first, SilcrowError):
            raise first
        raise RecallError(f"recall {what} failed on every provider: "
                          + "; ".join(f"{name}: {error}" for name, error in errors.items()))

    def search(self, query: str, k: int = 10) -> Found:
        answered = self._answers("search", self._live(),
                                 lambda p: p.search(policy.outgoing(p, query), k), Found)
        owner = self._owner()
        hits: tuple[Any, ...] = ()
        texts: list[str] = []
        recalled = False  # whether a member besides the id owner recalled anything
        for lane, found in answered:
            if lane is owner:
                hits = tuple(found.hits)[:k]
                rows = [hit.to_dict() for hit in hits]
            else:  # ids are the owner's only: another member's hits are shown as text
                rows = [{**hit.to_dict(), "id": None} for hit in found.hits[:k]]
            text = policy.recalled("\n".join(filter(None, (policy.hit_lines(rows), found.context or ""))))
            recalled = recalled or (lane is not owner and bool(text.strip())) or bool(found.context)
            texts.append(text)
        return Found(hits, policy.merged(texts)) if recalled else Found(hits)

    def remember(self, text: str, *, source: str = "api") -> Remembered:
        keeping = [lane for lane in self._live() if "recall_add" in self._answered(lane)]
        answered = self._answers("remember", keeping,
                                 lambda p: p.remember(policy.outgoing(p, text), source=source), Remembered)
        owner = self._owner()
        return next((kept for lane, kept in answered if lane is owner), answered[0][1])

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten:
        forgetting = [lane for lane in self._live() if "recall_forget" in self._answered(lane)]
        if isinstance(target, int):  # an id is one member's own: the id owner's
            owner = self._owner()
            forgetting = [lane for lane in forgetting if lane is owner]
        answered = self._answers("forget", forgetting,
                                 lambda p: p.forget(policy.outgoing(p, target), max_matches=max_matches),
                                 Forgotten)
        return Forgotten(sum(gone.removed for _, gone in answered))

    def _answered(self, lane: _Lane) -> list[str]:
        try:
            return answered_recall_tools(lane.provider, list(lane.provider.tool_specs()))
        except Exception as exc:
            lane.failed("tool_specs", exc)
            return []

    # -- tools -------------------------------------------------------------------------------

    def tool_specs(self) -> Sequence[ToolSpec]:
        """The ``recall_*`` tools any member answers (once), then each member's own tools."""
        typed = {name for lane in self._live() for name in self._answered(lane)}
        own: list[ToolSpec] = []
        for name, lane in self._own_tools.items():
            if not lane.live:
                continue
            try:  # a member that fails here loses its own tools, not the others'
                own.extend(spec for spec in lane.provider.tool_specs() if spec.name == name)
            except Exception as exc:
                lane.failed("tool_specs", exc)
        return [spec for spec in tools.TOOL_SPECS if spec.name in typed] + own

    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        if name in tools.TOOL_NAMES and name not in self._own_tools:
            return tools.call_recall_tool(self, name, args)  # over the merged typed recall above
        lane = self._own_tools.get(name)
        if lane is None or not lane.live:
            return ToolResult.failed(f"no selected recall provider has a tool {name!r}; the tools: "
                                     f"{', '.join(spec.name for spec in self.tool_specs()) or 'none'}")
        [(_, answer)] = self._answers(f"tool:{name}", [lane],
                                      lambda p: p.call_tool(name, policy.outgoing(p, args)), object)
        if not isinstance(answer, Found | Remembered | Forgotten | ToolResult):
            return ToolResult.failed(f"recall tool {name!r} of {lane.name!r} gave an answer of the wrong "
                                     "type; answer without it")
        return answer
