"""Google ADK's ``BaseMemoryService`` on a silcrow profile: :class:`SilcrowMemoryService`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from google.adk.events.event import Event
from google.adk.memory import BaseMemoryService
from google.adk.memory.base_memory_service import SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from silcrow.errors import RecallError
from silcrow.integrations._memory import ProfileMemory
from silcrow.integrations._profile import ProfileArg
from silcrow.recall import MemoryManager
from silcrow.recall.policy import hits_block

CLIENT = "google-adk"
SEARCH_POOL = 64  # recall hits read for one search, before keeping the user's own
MAX_RESULTS = 10
STORE_TIMEOUT = 120.0  # seconds an add waits for the provider to store what it was given


def scope(app_name: str, user_id: str) -> str:
    """The prefix of the recall session ids of one user of one app: their memories are
    searched only under it."""
    for name, value in (("app_name", app_name), ("user_id", user_id)):
        if not isinstance(value, str) or not value or "\x00" in value:
            raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return f"adk:{len(app_name)}:{app_name}:{user_id}:"


def _text(event: Event) -> str:
    content = event.content
    return "".join(p.text or "" for p in content.parts or [] if not p.thought).strip() if content else ""


class SilcrowMemoryService(BaseMemoryService):
    """ADK's memory service on one silcrow profile (``Runner(..., memory_service=...)``; the
    ``load_memory`` and ``preload_memory`` tools search it).

    - ``add_session_to_memory(session)`` / ``add_events_to_memory(...)``: each completed turn
      (a user message and the agent's text reply) goes to the profile's recall provider under
      the session, stored when the call returns; a session added again gives only its events
      not added before.
    - ``search_memory(app_name=, user_id=, query=)``: ranked by the provider's search (silcrow's
      hybrid recall with the local provider), screened, and only that user's memories of that
      app; each entry's text is inside the ``<memory-context>`` fence silcrow's agent uses.
    - ``add_memory(...)``: explicit memories kept for that user, as turns of a session ``memory``.
    """

    def __init__(self, profile: ProfileArg = None, *, home: Any = None,
                 manager: MemoryManager | None = None) -> None:
        self.memory = ProfileMemory(profile, client=CLIENT, home=home, manager=manager)
        self._added: dict[str, int] = {}  # recall session id -> events of it added
        self._lock = threading.Lock()

    async def add_session_to_memory(self, session: Session) -> None:
        key = scope(session.app_name, session.user_id) + session.id
        with self._lock:
            start = self._added.get(key, 0)
            self._added[key] = len(session.events)
        await self._ingest(key, session.events[start:])

    async def add_events_to_memory(self, *, app_name: str, user_id: str, events: Sequence[Event],
                                   session_id: str | None = None,
                                   custom_metadata: Mapping[str, object] | None = None) -> None:
        await self._ingest(scope(app_name, user_id) + (session_id or "events"), events)

    async def add_memory(self, *, app_name: str, user_id: str, memories: Sequence[MemoryEntry],
                         custom_metadata: Mapping[str, object] | None = None) -> None:
        key = scope(app_name, user_id) + "memory"
        for entry in memories:
            text = "".join(p.text or "" for p in entry.content.parts or []).strip()
            if text:
                await asyncio.to_thread(self.memory.ingest, text, "", key)

    async def _ingest(self, key: str, events: Sequence[Event]) -> None:
        user, replies = "", list[str]()
        turns: list[tuple[str, str]] = []
        for event in events:
            text = _text(event)
            if not text:
                continue
            if event.author == "user":
                if user and replies:
                    turns.append((user, "\n".join(replies)))
                user, replies = text, []
            elif user:
                replies.append(text)
        if user:
            turns.append((user, "\n".join(replies)))
        for asked, answered in turns:
            await asyncio.to_thread(self.memory.ingest, asked, answered, key)
        if turns:  # stored when this returns, as ADK's own services do: a search right after finds it
            await asyncio.to_thread(self.memory.manager().flush, STORE_TIMEOUT)

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        prefix = scope(app_name, user_id)
        try:
            found = await asyncio.to_thread(self.memory.manager().search, query, SEARCH_POOL)
        except RecallError:
            return SearchMemoryResponse()  # no recall provider, or an empty query: nothing found
        own = [hit for hit in found.hits if hit.session_id.startswith(prefix)][:MAX_RESULTS]
        return SearchMemoryResponse(memories=[
            MemoryEntry(id=str(hit.id), author=hit.speaker or None,
                        timestamp=hit.timestamp.isoformat() if hit.timestamp else None,
                        content=types.Content(role="user",
                                              parts=[types.Part(text=hits_block([hit.to_dict()]))]))
            for hit in own])

    def close(self) -> None:
        """Let the recall provider store what it was told, then shut it down."""
        self.memory.close()
