"""A Microsoft Agent Framework ``ContextProvider`` on a silcrow profile: :class:`SilcrowContextProvider`."""

from __future__ import annotations

import asyncio
from typing import Any

from agent_framework import AgentSession, ContextProvider, FunctionTool, Message, SessionContext

from silcrow.integrations._memory import ProfileMemory, ToolSpec
from silcrow.integrations._profile import ProfileArg, ProjectArg
from silcrow.recall import MemoryManager

CLIENT = "agent-framework"


def _text(messages: list[Message], role: str) -> str:
    return "\n".join(m.text for m in messages if m.role == role and m.text).strip()


class SilcrowContextProvider(ContextProvider):
    """The memory of a silcrow profile for ``Agent(client, context_providers=[...])``.

    Before each run: the profile's curated notes with the guidance for using them (frozen when
    first read, so they stay the same through the conversation) and, for the run's user text,
    what the recall provider recalls inside the ``<memory-context>`` fence silcrow's agent uses,
    as instructions; and the tools ``memory`` (every notes write takes the notes' lock, threat
    scan, character limit, journal and approval gate), ``session_search`` and the provider's
    tools, run through the same router as silcrow's agent. After each run: the user's text and
    the agent's reply are told to the recall provider under the session's id.

    ``project``: a directory, as ``Agent(project=...)`` takes it, whose git work tree's
    ``PROJECT.md`` is the third block of the notes and the ``memory`` tool's target ``project``
    (None: no project).
    """

    def __init__(self, profile: ProfileArg = None, *, home: Any = None, source_id: str = "silcrow",
                 manager: MemoryManager | None = None, project: ProjectArg = None) -> None:
        super().__init__(source_id)
        self.memory = ProfileMemory(profile, client=CLIENT, home=home, manager=manager,
                                    project=project)
        self._tools: list[FunctionTool] | None = None

    def _tool(self, spec: ToolSpec, session_id: str) -> FunctionTool:
        memory = self.memory

        async def run(**arguments: Any) -> str:
            return await asyncio.to_thread(memory.call, spec.name, arguments, session_id)

        return FunctionTool(name=spec.name, description=spec.description, func=run,
                            input_model=spec.parameters)

    async def before_run(self, *, agent: Any, session: AgentSession, context: SessionContext,
                         state: dict[str, Any]) -> None:
        session_id = session.session_id or ""
        memory = self.memory
        notes = await asyncio.to_thread(memory.instructions)
        query = _text(context.input_messages, "user")
        recalled = await asyncio.to_thread(memory.context, query, session_id) if query else ""
        context.extend_instructions(self.source_id, [part for part in (notes, recalled) if part])
        specs = await asyncio.to_thread(memory.tools)
        context.extend_tools(self.source_id, [self._tool(spec, session_id) for spec in specs])

    async def after_run(self, *, agent: Any, session: AgentSession, context: SessionContext,
                        state: dict[str, Any]) -> None:
        response = context.response
        reply = (response.text or "").strip() if response is not None else ""
        user = _text(context.input_messages, "user")
        if user and reply:
            await asyncio.to_thread(self.memory.ingest, user, reply, session.session_id or "")

    def close(self) -> None:
        """Let the recall provider finish its queued work, then shut it down."""
        self.memory.close()

    def __enter__(self) -> SilcrowContextProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
