"""AutoGen's ``Memory`` protocol on a silcrow profile: :class:`SilcrowMemory`."""

from __future__ import annotations

import asyncio
from typing import Any

from autogen_core import CancellationToken
from autogen_core.memory import Memory, MemoryContent, MemoryMimeType, MemoryQueryResult, UpdateContextResult
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import SystemMessage, UserMessage

from silcrow.errors import RecallError
from silcrow.integrations._memory import ProfileMemory
from silcrow.integrations._profile import ProfileArg, ProjectArg
from silcrow.recall import MemoryManager

CLIENT = "autogen"


def _text(content: str | MemoryContent) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content.content, str):
        return content.content
    raise ValueError(f"SilcrowMemory keeps text; got a {content.mime_type} memory: pass it as a string")


class SilcrowMemory(Memory):
    """A silcrow profile as AutoGen memory (``AssistantAgent(..., memory=[SilcrowMemory()])``).

    - ``update_context``: before the model is called, one system message with the profile's
      curated notes (frozen when first read) and what the recall provider recalls for the
      latest user message, inside the ``<memory-context>`` fence silcrow's agent uses;
    - ``query``: the recalled memories for a text, ranked by the provider's search (screened);
    - ``add``: a text kept in recall as a fact (the provider's checks apply: a threat is refused);
    - ``clear``: forgets the facts this object added; ``close``: lets the provider finish.

    ``profile``: a profile name of ``home`` or an opened Profile; ``project``: a directory, as
    ``Agent(project=...)`` takes it, whose git work tree's ``PROJECT.md`` is shown after the
    profile's notes (None: no project).
    """

    component_type = "memory"

    def __init__(self, profile: ProfileArg = None, *, home: Any = None,
                 manager: MemoryManager | None = None, project: ProjectArg = None) -> None:
        self.memory = ProfileMemory(profile, client=CLIENT, home=home, manager=manager,
                                    project=project)
        self._added: list[int] = []

    async def update_context(self, model_context: ChatCompletionContext) -> UpdateContextResult:
        messages = await model_context.get_messages()
        query = next((m.content for m in reversed(messages)
                      if isinstance(m, UserMessage) and isinstance(m.content, str)), "")
        notes = await asyncio.to_thread(self.memory.notes)
        recalled = await asyncio.to_thread(self.memory.context, query) if query else ""
        text = "\n\n".join(part for part in (notes, recalled) if part)
        if text:
            await model_context.add_message(SystemMessage(content=text))
        found = [MemoryContent(content=part, mime_type=MemoryMimeType.TEXT)
                 for part in (notes, recalled) if part]
        return UpdateContextResult(memories=MemoryQueryResult(results=found))

    async def query(self, query: str | MemoryContent, cancellation_token: CancellationToken | None = None,
                    **kwargs: Any) -> MemoryQueryResult:
        text = _text(query)
        try:
            found = await asyncio.to_thread(self.memory.manager().search, text, int(kwargs.get("k", 8)))
        except RecallError:
            return MemoryQueryResult(results=[])  # no recall provider: nothing recalled
        return MemoryQueryResult(results=[
            MemoryContent(content=hit.text, mime_type=MemoryMimeType.TEXT,
                          metadata={"id": hit.id, "score": hit.score, "session_id": hit.session_id})
            for hit in found.hits])

    async def add(self, content: MemoryContent | str,
                  cancellation_token: CancellationToken | None = None) -> None:
        kept = await asyncio.to_thread(self.memory.manager().remember, _text(content), source=CLIENT)
        self._added.append(kept.id)

    async def clear(self) -> None:
        manager = self.memory.manager()
        for memory_id in self._added:
            await asyncio.to_thread(manager.forget, memory_id)
        self._added.clear()

    async def close(self) -> None:
        await asyncio.to_thread(self.memory.close)
