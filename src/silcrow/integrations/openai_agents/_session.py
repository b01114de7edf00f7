"""The Agents SDK's ``Session`` protocol on silcrow's session archive: :class:`SilcrowSession`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from silcrow.errors import SessionError
from silcrow.integrations._profile import ProfileArg, Recall, opened
from silcrow.integrations.openai_agents._items import text_of, to_item, to_message
from silcrow.recall import MemoryManager
from silcrow.sessions import SessionBackend, checked_session_id

T = TypeVar("T")


class SilcrowSession:
    """An Agents SDK session (``Runner.run(agent, text, session=...)``) kept in the profile's
    session archive (``sessions.db``, or PostgreSQL): found by ``silcrow sessions search``, shown
    by ``silcrow sessions show SESSION_ID``.

    ``session_id`` is the archive's id of the conversation (made on the first ``add_items``).
    Each completed turn (a user message and the assistant's final text after it) goes to the
    profile's recall provider as the agent's turns do (``manager``: one you own instead).
    ``pop_item`` and ``clear_session`` take messages out of the conversation without erasing
    them: they stay searchable, and branches made before keep their copies (:meth:`branch`).
    """

    session_settings: Any = None  # the SDK's SessionSettings; None: its defaults

    def __init__(self, session_id: str, profile: ProfileArg = None, *, home: Any = None,
                 manager: MemoryManager | None = None) -> None:
        try:
            self.session_id = checked_session_id(session_id)
        except SessionError as exc:
            raise ValueError(str(exc)) from exc
        self.profile = opened(profile, home)
        self._sessions: SessionBackend | None = None
        self._recall = Recall(self.profile, manager, session_id=self.session_id)
        self._lock = threading.Lock()
        self._pending_user: str | None = None  # the user text of the turn under way

    # -- storage ------------------------------------------------------------------------

    def _archive(self) -> SessionBackend:
        with self._lock:
            if self._sessions is None:
                self._sessions = self.profile.sessions()
            return self._sessions

    def _exists(self) -> bool:
        try:
            self._archive().get(self.session_id)
        except SessionError:
            return False
        return True

    def _ensure(self) -> None:
        if self._exists():
            return
        try:
            self._archive().create(session_id=self.session_id)
        except SessionError:
            if not self._exists():  # not another writer creating it first: a real failure
                raise

    async def _run(self, work: Callable[[], T]) -> T:
        # The archive's drivers block; the SDK's event loop must not.
        return await asyncio.to_thread(work)

    # -- the Session protocol -----------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[Any]:
        """The conversation's items, oldest first; the latest ``limit`` when given."""
        def read() -> list[Any]:
            if not self._exists():
                return []
            messages = self._archive().messages(self.session_id)
            if limit is not None:
                messages = messages[-limit:] if limit > 0 else []
            return [to_item(m) for m in messages]

        return await self._run(read)

    async def add_items(self, items: list[Any]) -> None:
        """Append ``items``; a completed turn among them goes to the recall provider."""
        if not isinstance(items, list):
            raise TypeError(f"add_items takes a list of items, got {type(items).__name__}")
        messages = []
        for n, item in enumerate(items):
            try:
                messages.append(to_message(item))
            except ValueError as exc:
                raise ValueError(f"item {n}: {exc}; nothing was stored") from exc
        if not messages:
            return

        def write() -> None:
            self._ensure()
            for message in messages:
                self._archive().append(self.session_id, message)

        await self._run(write)
        await self._run(lambda: self._sync_turns(items))  # the first one may open the provider

    async def pop_item(self) -> Any | None:
        """Take the latest item out of the conversation and return it (None when empty)."""
        def pop() -> Any | None:
            if not self._exists():
                return None
            taken = self._archive().withdraw(self.session_id, 1)
            return to_item(taken[0]) if taken else None

        return await self._run(pop)

    async def clear_session(self) -> None:
        """Start the conversation afresh; the recall provider is told the old one ended."""
        def clear() -> list[dict[str, Any]]:
            if not self._exists():
                return []
            return self._archive().withdraw(self.session_id, None)

        ended = await self._run(clear)
        self._pending_user = None
        plain = [{"role": m["role"], "content": m.get("content") or ""} for m in ended
                 if m["role"] in ("user", "assistant") and m.get("content")]
        if plain:
            await self._run(lambda: self._recall.manager().on_session_end(plain))

    # -- beyond the protocol --------------------------------------------------------------

    async def branch(self, title: str | None = None) -> SilcrowSession:
        """A new session holding a copy of this conversation (this one is unchanged)."""
        def fork() -> str:
            self._ensure()
            return self._archive().branch(self.session_id, title=title)

        new_id = await self._run(fork)
        return SilcrowSession(new_id, self.profile)

    def close(self) -> None:
        """Let the recall provider store the queued turns, then release it and the archive."""
        self._recall.close()
        with self._lock:
            sessions, self._sessions = self._sessions, None
        if sessions is not None:
            sessions.close()

    def _sync_turns(self, items: list[Any]) -> None:
        """Each user message followed by the assistant's final text is one turn for the provider,
        as the agent's ``sync_turn`` after each reply; the SDK may add the two in separate calls."""
        reply: str | None = None
        for item in items:
            user = text_of(item, "user")
            if user is not None:
                self._pending_user, reply = user, None
                continue
            said = text_of(item, "assistant")
            if said is not None and self._pending_user is not None:
                reply = said
            elif isinstance(item, dict) and item.get("type") in ("function_call", "function_call_output"):
                reply = None  # the model went on working: its text so far was not the answer
        if reply is not None and self._pending_user is not None:
            self._recall.manager().sync_turn(self._pending_user, reply, session_id=self.session_id)
            self._pending_user = None

    def __repr__(self) -> str:
        return f"SilcrowSession({self.session_id!r}, profile={self.profile.name!r})"
