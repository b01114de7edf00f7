"""A LlamaIndex ``BaseMemoryBlock`` on a silcrow profile: :class:`SilcrowMemoryBlock`."""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import BaseMemoryBlock
from pydantic import PrivateAttr

from silcrow.integrations._memory import ProfileMemory
from silcrow.integrations._profile import ProfileArg, ProjectArg
from silcrow.recall import MemoryManager

CLIENT = "llama-index"


def _text(message: ChatMessage) -> str:
    return (message.content or "").strip() if isinstance(message.content, str | type(None)) else "".join(
        getattr(block, "text", "") for block in message.blocks).strip()


class Turns:
    """Completed turns out of the messages the memory flushes, which it cuts anywhere (a user
    message in one flush, the reply in the next): per session, the user message under way and
    the assistant's text replies after it, a turn completed by the next user message (or by
    :meth:`drain`)."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[str, list[str]]] = {}

    def feed(self, messages: list[ChatMessage]) -> list[tuple[str, str, str]]:
        """``(user, assistant, session_id)`` of each turn ``messages`` complete."""
        done: list[tuple[str, str, str]] = []
        for message in messages:
            session = str(message.additional_kwargs.get("session_id") or "")
            if message.role == MessageRole.USER:
                done += self._close(session)
                self._open[session] = (_text(message), [])
            elif message.role == MessageRole.ASSISTANT and _text(message):
                self._open.setdefault(session, ("", []))[1].append(_text(message))
        return done

    def drain(self) -> list[tuple[str, str, str]]:
        """The turns still open that have a reply."""
        return [turn for session in list(self._open) for turn in self._close(session)]

    def _close(self, session: str) -> list[tuple[str, str, str]]:
        user, replies = self._open.pop(session, ("", []))
        return [(user, "\n".join(replies), session)] if replies else []


class SilcrowMemoryBlock(BaseMemoryBlock[str]):
    """A memory block for ``Memory.from_defaults(memory_blocks=[...])`` holding a silcrow profile.

    Each time the memory is read (``_aget``), the block gives the profile's curated notes
    (frozen when first read, so the text stays the same for the conversation) and what
    the profile's recall provider recalls for the latest user message, inside the
    ``<memory-context>`` fence silcrow's agent uses. The messages the memory flushes out of its
    short-term window (``_aput``) are told to the provider turn by turn, under the memory's
    ``session_id``. ``profile``: a profile name of ``home`` or an opened Profile; ``project``: a
    directory, as ``Agent(project=...)`` takes it, whose git work tree's ``PROJECT.md`` is shown
    after the profile's notes (None: no project).
    """

    name: str = "silcrow"
    description: str | None = "The user's curated notes and long-term recall, kept by silcrow."
    priority: int = 0  # never truncated: the notes are the memory
    accept_short_term_memory: bool = True
    _memory: ProfileMemory = PrivateAttr()
    _turns: Turns = PrivateAttr(default_factory=Turns)

    def __init__(self, profile: ProfileArg = None, name: str = "silcrow", *, home: Any = None,
                 manager: MemoryManager | None = None, project: ProjectArg = None,
                 **fields: Any) -> None:
        super().__init__(name=name, **fields)
        self._memory = ProfileMemory(profile, client=CLIENT, home=home, manager=manager,
                                     project=project)

    @property
    def memory(self) -> ProfileMemory:
        """The profile's memory the block reads and feeds."""
        return self._memory

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        memory = self._memory
        query = next((_text(m) for m in reversed(messages or []) if m.role == MessageRole.USER), "")
        session_id = str(block_kwargs.get("session_id") or "")
        notes = await asyncio.to_thread(memory.notes)
        recalled = await asyncio.to_thread(memory.context, query, session_id) if query else ""
        return "\n\n".join(part for part in (notes, recalled) if part)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        for user, assistant, session_id in self._turns.feed(messages):
            await asyncio.to_thread(self._memory.ingest, user, assistant, session_id)

    def __enter__(self) -> SilcrowMemoryBlock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Tell the provider the last flushed turn, let it store what it was told, then shut it
        down."""
        for user, assistant, session_id in self._turns.drain():
            self._memory.ingest(user, assistant, session_id)
        self._memory.close()
