"""The agent loop: one user turn at a time, with curated notes and long-term recall.

What makes it cache-friendly:

* the system prompt is built once per session from the store's frozen
  snapshot and reused byte for byte; memory writes reach disk at once but
  not the prompt;
* recalled context is appended to a *copy* of the current user message in
  the request; the transcript keeps the user's words alone (with
  ``replay_recall``, the default, the exact block is stored beside the message
  and sent again in later requests, so earlier requests stay a prefix of later
  ones, and a memory already in a replayed block is not recalled again);
* the prompt is rebuilt, and memory reloaded from disk, only where the cache
  is lost anyway: compression, new session, resume, branch, process start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import EllipsisType, TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from silcrow._private import private_dir
from silcrow._projects import find_project
from silcrow._toolcall import error_json
from silcrow.agent import _compress
from silcrow.agent._llm import Completion, LLMClient, StreamCallback
from silcrow.agent._prompt import build_system_prompt
from silcrow.agent._tools import MEMORY_TOOL, ToolRouter
from silcrow.config import Settings
from silcrow.errors import ConfigError, ModelError, SessionError, SilcrowError
from silcrow.home import Profile, open_profile
from silcrow.recall import MemoryProvider
from silcrow.safety import recalled_count, sanitize_context
from silcrow.store import Proposer

if TYPE_CHECKING:
    from silcrow.models import Embedder

log = logging.getLogger(__name__)

# Told about each tool call of a turn as it completes: (name, raw JSON arguments, JSON result).
ToolCallback = Callable[[str, str, str], None]

# Chosen by bench/prefix_cache.py (40 turns, 10 writes, recall every turn). Replayed blocks stay
# in the context, so a memory already shown is not sent again (see _replayed_lines): with that,
# replay keeps the highest cacheable share (0.971 vs 0.946 without replay), sends the fewest
# uncached characters (26k vs 45k) for 8% more prompt characters (898k vs 831k), and the model
# keeps seeing what its earlier answers were based on.
DEFAULT_REPLAY_RECALL = True

NUDGE_TEXT = (
    "[silcrow reminder: several turns have passed without a memory write. If you learned a lasting "
    "preference or fact about the user or their environment, save it with the memory tool.]"
)
FLUSH_TEXT = (
    "[silcrow: this conversation is about to be {why}. Before that happens, save anything worth "
    "keeping for future sessions with the memory tool (lasting user preferences, corrections, "
    "environment facts). If nothing is worth saving, reply 'nothing to save'.]"
)
MIN_TURNS_BETWEEN_COMPRESSIONS = 3


class Agent:
    """A chat agent with curated memory, recall (one provider or several) and persistent sessions.

    ``profile``: a profile already opened (:func:`silcrow.home.open_profile`), whose settings
    and storage are used as they are; or ``home``: the silcrow directory (default
    $SILCROW_HOME or ~/.silcrow), opened here by the same ``open_profile``. Its notes, recall
    manager and sessions come from that profile (``Profile.notes``, ``Profile.recall``,
    ``Profile.sessions``), so every setting of its ``config.toml`` applies: the model and
    endpoint, the recall provider and embedder, the ``[memory]`` table (limits, write policy,
    on_full, review threshold) and the ``[agent]`` options. An argument given here overrides its
    setting: ``model``/``base_url``/``api_key`` (any OpenAI-compatible endpoint; the key and URL
    fall back to OPENAI_API_KEY / OPENAI_BASE_URL, and local URLs need no key),
    ``memory_char_limit``/``user_char_limit``/``write_policy``, ``provider`` (a registered
    provider name, an instance, or None/"none") and ``embedder`` ("onnx", "none", ...).
    ``replay_recall``: store each recall block beside its message and send it
    again verbatim, and leave out of new blocks what replayed ones already show
    (default on, see DEFAULT_REPLAY_RECALL); off: recall only on the current
    message. ``nudge_interval``: user turns without a memory write before a
    reminder (0 disables).
    ``context_window`` x ``compress_threshold``: estimated prompt tokens that
    trigger compression. ``flush_min_turns``: turns a session needs before a
    memory flush is worth a model call. ``on_delta`` receives streamed text;
    ``on_tool_call(name, arguments, result)`` each tool call. ``session_id``
    resumes that session (id or unique prefix) instead of starting a new one.
    ``project``: a directory; the git work tree holding it is the session's project, whose
    notes (``PROJECT.md``) join the prompt as a third frozen block and the memory tool as the
    target ``project``. None (the default): no project, whatever the working directory is
    (``silcrow chat`` passes the directory it runs in).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        home: str | Path | None = None,
        profile: Profile | None = None,
        provider: str | MemoryProvider | None | EllipsisType = ...,  # ...: the profile's
        embedder: str | Embedder | None = None,
        replay_recall: bool | None = None,
        nudge_interval: int | None = None,
        max_tool_iterations: int | None = None,
        context_window: int | None = None,
        compress_threshold: float | None = None,
        flush_min_turns: int | None = None,
        on_delta: StreamCallback | None = None,
        on_tool_call: ToolCallback | None = None,
        session_id: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 3,
        memory_char_limit: int | None = None,
        user_char_limit: int | None = None,
        write_policy: str | None = None,
        project: str | Path | None = None,
    ) -> None:
        if profile is not None and home is not None:
            raise ConfigError("give Agent a home or an opened profile, not both")
        given: dict[str, Any] = {"model": model, "base_url": base_url, "api_key": api_key,
                                 "memory_char_limit": memory_char_limit, "user_char_limit": user_char_limit,
                                 "write_policy": write_policy}
        # An entry point that opened the profile passes it; else the home is opened as every door
        # opens it. Either way the arguments given overlay its settings.
        opened = (open_profile(home, **given) if profile is None
                  else replace(profile, settings=profile.settings.with_overrides(**given)))
        self.profile = opened
        settings = opened.settings
        self.home = opened.path
        private_dir(self.home)
        options = settings.agent
        self.replay_recall = _first(replay_recall, options.replay_recall, DEFAULT_REPLAY_RECALL)
        self.nudge_interval = _first(nudge_interval, options.nudge_interval, 10)
        self.max_tool_iterations = max(1, _first(max_tool_iterations, options.max_tool_iterations, 8))
        self.context_window = _first(context_window, options.context_window, 128_000)
        self.compress_threshold = _first(compress_threshold, options.compress_threshold, 0.75)
        self.flush_min_turns = _first(flush_min_turns, options.flush_min_turns, 3)
        self.on_delta = on_delta
        self.on_tool_call = on_tool_call
        self.llm = LLMClient(settings.model, base_url=settings.base_url, api_key=settings.api_key,
                             timeout=timeout, max_retries=max_retries)
        self.sessions = opened.sessions()
        self.session_id = ""
        # Process start is a cache-breaking event like any other; the provider starts on the
        # session this agent opens with (resumed: id or unique prefix; else a new one).
        fresh = session_id is None
        first = self.sessions.create() if session_id is None else self.sessions.resolve(session_id)
        self._messages: list[dict[str, Any]] = [] if fresh else self.sessions.messages(first)
        chosen = None if provider is ... else "none" if provider is None else provider
        # Recall in a project leaves out what it knows to be another project's (see _session_context).
        self._project_root = None if project is None else find_project(project)
        self.manager = opened.recall(first, provider=chosen, embedder=embedder,
                                     context=self._session_context(first))
        self.provider = self.manager.provider
        # The project is what the caller names, never guessed from the process's directory: a
        # library agent serving many projects must not take the notes of the one it started in.
        self.notes = opened.notes(self.manager, project=project)
        self.notes.proposer = Proposer(client="agent")
        # A note the scan's learned stages hold may be released by the model's own judgement
        # (silcrow.safety._hold_judge says what it may judge), when the profile asks for it.
        from silcrow.agent._hold_judge import configured_hold_judge

        self.notes.hold_judge = configured_hold_judge(settings)
        # A file past [memory] review_threshold of its budget gets a review pass: its findings
        # wait as proposals for the user (`silcrow chat` says so); nothing is applied.
        self.review_findings = self._review_when_full(settings)
        self.router = ToolRouter(self.notes, self.sessions, self.manager)
        if settings.archive_to_recall and self.provider is not None:
            # A note dropped from the prompt (removed, replaced, evicted) can still be recalled.
            self.notes.mirror_archive(lambda text: self.manager.remember(text, source="archive"))
        self._tools: list[dict[str, Any]] = []
        self._system_prompt = ""
        self._turns_since_write = 0
        self._turns_since_flush = 0
        self._turns_since_compress = MIN_TURNS_BETWEEN_COMPRESSIONS
        self._user_turns = 0
        self.last_recalled = 0  # memories this session's last turn recalled (a status line shows it)
        self._closed = False
        self._open(first, fresh=fresh, started=True)

    # -- setup -------------------------------------------------------------
    def _review_when_full(self, settings: Settings) -> list[dict[str, Any]]:
        if not self.notes.due_for_review():
            return []
        embed = None
        try:
            embed = settings.embed_function()
        except SilcrowError as exc:  # the rules alone still find copies and contradictions
            log.warning("memory review runs without an embedder: %s", exc)
        try:
            # What waits already, or was rejected before, is never asked again.
            return [f for f in self.notes.consolidate(embed=embed)
                    if not f.get("already_pending") and not f.get("declined")]
        except SilcrowError as exc:  # a review is advice: the session starts regardless
            log.warning("memory review failed: %s", exc)
            return []

    def _session_context(self, session_id: str) -> dict[str, Any]:
        """What the provider need not recall because the model sees it: a branch carries its
        parents' history; a resumed, compressed session shows only what follows its summary. In
        a project, its root (``project``): recall leaves out memories of other projects."""
        ancestors = self.sessions.ancestors(session_id)
        context: dict[str, Any] = {"ancestor_session_ids": [a for a, _ in ancestors],
                                   "ancestor_forked_at": dict(ancestors)}
        since = _summarised_before(self._messages)
        if since:
            context["summarised_before"] = since
        if self._project_root is not None:
            context["project"] = str(self._project_root)
        return context

    def _open(self, session_id: str, *, fresh: bool, started: bool = False) -> None:
        """Switch to a session and rebuild everything that is per-session (``started``: the
        provider was initialised on it already, with the manager)."""
        if not fresh and not started:
            self.sessions.get(session_id)  # raises SessionError for an unknown id
        previous, self.session_id = self.session_id, session_id
        self._messages = [] if fresh else self.sessions.messages(session_id)
        self._user_turns = sum(1 for m in self._messages if m.get("role") == "user")
        self._turns_since_write = 0
        self._turns_since_flush = 0
        self._turns_since_compress = MIN_TURNS_BETWEEN_COMPRESSIONS
        if not started:
            context = self._session_context(session_id)
            if previous:
                self.manager.on_session_switch(previous, session_id, home=str(self.home), **context)
            self.manager.initialize(session_id, home=str(self.home), **context)
        self._invalidate()

    def _invalidate(self) -> None:
        """Drop the cached prompt, reload memory from disk, rebuild and store the prompt."""
        self.notes.load()
        self._system_prompt = build_system_prompt(self.notes, self.manager)
        self._tools = self.router.schemas()
        self.sessions.set_system_prompt(self.session_id, self._system_prompt)
        # Entry metadata: these notes are in this session's prompt (counted once per session).
        self.notes.note_prompt_use(self.session_id)

    @property
    def system_prompt(self) -> str:
        """The cached system prompt of the current session."""
        return self._system_prompt

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list(self._tools)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The stored transcript of the current session (a copy)."""
        return [dict(m) for m in self._messages]

    # -- requests ----------------------------------------------------------
    def _api_view(self, message: dict[str, Any], *, replay: bool = True) -> dict[str, Any]:
        role = message["role"]
        out: dict[str, Any] = {"role": role, "content": message.get("content")}
        if replay and role == "user" and self.replay_recall and message.get("recall_block"):
            out["content"] = f"{message.get('content') or ''}\n\n{message['recall_block']}"
        if role == "assistant" and message.get("tool_calls"):
            out["tool_calls"] = message["tool_calls"]
            out["content"] = message.get("content") or None
        if role == "tool":
            out["tool_call_id"] = message.get("tool_call_id")
        return out

    def _plain(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [self._api_view(m, replay=False) for m in messages]

    def _request_messages(self) -> list[dict[str, Any]]:
        return [{"role": "system", "content": self._system_prompt},
                *(self._api_view(m) for m in self._messages)]

    def _replayed_lines(self) -> set[str]:
        """Lines of the recall blocks the next request replays: the model still sees those."""
        if not self.replay_recall:
            return set()
        return {line.strip() for m in self._messages if m.get("recall_block")
                for line in m["recall_block"].splitlines() if line.strip()}

    def _store(self, role: str, content: str | None, **extra: Any) -> dict[str, Any]:
        message: dict[str, Any] = {"role": role, "content": content, **extra}
        message["id"] = self.sessions.append(self.session_id, message)
        self._messages.append(message)
        return message

    # -- the turn ----------------------------------------------------------
    def run_turn(self, text: str, *, on_delta: StreamCallback | None = None) -> str:
        """Run one user turn (tool loop included) and return the assistant's reply."""
        if self._closed:
            raise SessionError("this Agent is closed; create a new Agent to keep chatting")
        stream = on_delta if on_delta is not None else self.on_delta
        self.notes.reset_turn()
        self._maybe_compress(text)
        self._user_turns += 1
        self.manager.on_turn_start(self._user_turns, text)
        # Recall once, before the loop; every iteration of this turn reuses the same block.
        recall = self.manager.prefetch(text, session_id=self.session_id,
                                       exclude_lines=self._replayed_lines())
        # For a status line ("recalled 3 memories"): what this turn's block brought.
        self.last_recalled = recalled_count(recall)
        nudge = NUDGE_TEXT if self.nudge_interval and self._turns_since_write >= self.nudge_interval else ""
        suffix = "\n\n".join(part for part in (recall, nudge) if part)
        if nudge:
            self._turns_since_write = 0
        user_extra = {"recall_block": suffix} if (suffix and self.replay_recall) else {}
        request = self._request_messages()
        self._store("user", text, **user_extra)
        request.append({"role": "user", "content": f"{text}\n\n{suffix}" if suffix else text})
        wrote = False
        try:
            reply, wrote = self._tool_loop(request, stream)
        except BaseException:
            self._close_dangling_tool_calls()
            raise  # an interrupted turn is not synced to the provider
        self._turns_since_write = 0 if wrote else self._turns_since_write + 1
        self._turns_since_flush += 1
        self._turns_since_compress += 1
        self.manager.sync_turn(text, reply, session_id=self.session_id)
        return reply

    def _tool_loop(self, request: list[dict[str, Any]], stream: StreamCallback | None) -> tuple[str, bool]:
        wrote = False
        for _ in range(self.max_tool_iterations):
            completion = self.llm.complete(request, tools=self._tools, on_delta=stream)
            if not completion.tool_calls:
                return self._finish(completion), wrote
            calls = [c.to_message() for c in completion.tool_calls]
            said = sanitize_context(completion.content or "").strip()  # as in _finish
            assistant = self._store("assistant", said or None, tool_calls=calls)
            request.append(self._api_view(assistant))
            for call in completion.tool_calls:
                outcome = self.router.dispatch(call, session_id=self.session_id)
                wrote = wrote or outcome.wrote_memory
                if self.on_tool_call is not None:
                    try:
                        self.on_tool_call(call.name, call.arguments, outcome.content)
                    except Exception:  # a display callback must not lose the turn
                        log.exception("on_tool_call callback failed for %s", call.name)
                tool_msg = self._store("tool", outcome.content, tool_call_id=call.id)
                request.append(self._api_view(tool_msg))
        # Out of tool iterations: ask for an answer with the same tools offered (the
        # prefix stays intact) but tool use switched off.
        final = self.llm.complete(request, tools=self._tools, tool_choice="none", on_delta=stream)
        if not final.content:
            final = Completion(content=f"(I stopped after {self.max_tool_iterations} rounds of tool calls "
                                       "without reaching an answer.)")
        return self._finish(final), wrote

    def _finish(self, completion: Completion) -> str:
        # A model that echoes a recalled block must not store it as its own words:
        # it would be replayed and re-ingested as if it were new conversation.
        reply = sanitize_context(completion.content or "").strip()
        self._store("assistant", reply)
        return reply

    def _close_dangling_tool_calls(self) -> None:
        """After an interruption, answer any tool call left without a result (APIs require it)."""
        for message in reversed(self._messages):
            if message["role"] == "assistant" and message.get("tool_calls"):
                answered = {m.get("tool_call_id") for m in self._messages if m["role"] == "tool"}
                for call in message["tool_calls"]:
                    if call["id"] not in answered:
                        self._store("tool", error_json("interrupted before this tool ran"),
                                    tool_call_id=call["id"])
                return
            if message["role"] == "user":
                return

    # -- flush, compression, session events --------------------------------
    def _flush(self, why: str) -> int:
        """One extra model call that sees only the memory tool; its messages are not kept."""
        if self._turns_since_flush < self.flush_min_turns:
            return 0
        self._turns_since_flush = 0
        self.notes.reset_turn()
        request = [*self._request_messages(), {"role": "user", "content": FLUSH_TEXT.format(why=why)}]
        try:
            completion = self.llm.complete(request, tools=self.router.memory_only())
        except Exception as exc:  # losing a flush must not lose the session
            log.warning("memory flush before %s failed: %s", why, exc)
            return 0
        writes = 0
        for call in completion.tool_calls:
            outcome = self.router.dispatch(call, session_id=self.session_id, allowed={MEMORY_TOOL})
            writes += int(outcome.wrote_memory)
        return writes

    def _maybe_compress(self, incoming: str) -> None:
        # If the fixed part (prompt + tools) alone is near the threshold, compressing every
        # turn would only re-summarise the summary: leave a few turns between compressions.
        if self._turns_since_compress < MIN_TURNS_BETWEEN_COMPRESSIONS:
            return
        pending = [*self._request_messages(), {"role": "user", "content": incoming}]
        if _compress.estimate_tokens(pending, self._tools) > self.compress_threshold * self.context_window:
            try:
                self.compress()
            except ModelError as exc:
                # The turn may still fit; a summary that failed must not block every turn after it.
                log.warning("automatic compression failed, continuing uncompressed: %s", exc)
                self._turns_since_compress = 0

    def compress(self) -> bool:
        """Summarise the middle of the conversation; returns False when there is nothing to fold."""
        split = _compress.plan_split(self._messages)
        if split is None:
            return False
        self._flush("compressed")
        middle = self._messages[split.keep_head:len(self._messages) - split.keep_tail]
        # Summaries and providers get the conversation itself, never replayed recall blocks:
        # recalled text would otherwise be summarised (or re-ingested) as if it had been said.
        notes = self.manager.on_pre_compress(self._plain(self._messages))
        completion = self.llm.complete(_compress.build_summary_request(self._plain(middle), notes))
        summary = _compress.format_summary(completion.content)
        self.sessions.compact(self.session_id, split.keep_head, split.keep_tail, summary)
        self._messages = self.sessions.messages(self.session_id)
        self._turns_since_compress = 0
        self._invalidate()
        return True

    def _end_session(self) -> None:
        self._flush("closed")
        self.manager.on_session_end(self._plain(self._messages))
        if not self._messages:  # opened and left without a word: do not keep an empty session
            self.sessions.delete_if_empty(self.session_id)

    def new_session(self) -> str:
        """End the current session and start an empty one; returns its id."""
        self._require_open()
        self._end_session()
        self._open(self.sessions.create(), fresh=True)
        return self.session_id

    def resume(self, session_id: str) -> str:
        """End the current session and continue an earlier one (id or unique id prefix) with its
        history; returns the full id."""
        self._require_open()
        full_id = self.sessions.resolve(session_id)  # unknown or ambiguous: SessionError, nothing ended
        if full_id != self.session_id:  # resuming the current session only reloads it
            self._end_session()
        self._open(full_id, fresh=False)
        return full_id

    def branch(self) -> str:
        """Fork the current session into a new id carrying its history; returns the new id."""
        self._require_open()
        self._open(self.sessions.branch(self.session_id), fresh=False)
        return self.session_id

    def _require_open(self) -> None:
        if self._closed:
            raise SessionError("this Agent is closed; create a new Agent")

    def close(self) -> None:
        """End the session: flush memory, tell the provider, drain its background work."""
        if self._closed:
            return
        self._closed = True
        try:
            self._end_session()
        finally:
            self.manager.shutdown()
            self.sessions.close()

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


_T = TypeVar("_T")


def _first(given: _T | None, setting: _T | None, default: _T) -> _T:
    """An argument given, else the profile's [agent] setting, else the agent's default."""
    return given if given is not None else setting if setting is not None else default


def _summarised_before(messages: list[dict[str, Any]]) -> str | None:
    """When the part of a transcript that follows its latest compaction summary begins (ISO time)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("summary"):
            after = messages[i + 1] if i + 1 < len(messages) else messages[i]
            return str(after.get("created_at") or "") or None
    return None


__all__ = ["Agent"]
