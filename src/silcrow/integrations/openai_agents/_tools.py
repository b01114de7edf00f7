"""The notes and recall of a profile as Agents SDK function tools: :func:`memory_tools`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from agents import FunctionTool

from silcrow.agent import ToolRouter
from silcrow.integrations._memory import ProfileMemory, ToolSpec
from silcrow.integrations._profile import ProfileArg, ProjectArg, Recall
from silcrow.recall import MemoryManager

CLIENT = "openai-agents"


@dataclass
class MemoryTools:
    """What :func:`memory_tools` returns: ``tools`` for ``Agent(tools=...)`` and ``instructions``,
    the notes' system-prompt section (frozen when made: the model's writes reach the notes at
    once and the instructions at the next :func:`memory_tools`)."""

    tools: list[FunctionTool]
    instructions: str
    router: ToolRouter = field(repr=False)
    recall: Recall = field(repr=False)

    def close(self) -> None:
        """Let the recall provider finish its queued work, then shut it down."""
        self.recall.close()
        self.router.sessions.close()

    def __enter__(self) -> MemoryTools:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def memory_tools(profile: ProfileArg = None, *, home: Any = None, session_id: str = "",
                 manager: MemoryManager | None = None, project: ProjectArg = None) -> MemoryTools:
    """The profile's curated notes (tool ``memory``), its session archive (``session_search``)
    and its recall provider's tools (``recall_search``, ...) as function tools, run through the
    same router as silcrow's own agent: every write locked, scanned, journalled, gated and told
    to the provider. ``session_id``: the conversation's id (a :class:`SilcrowSession`'s), so
    that ``session_search`` leaves out what the model already sees. ``project``: a directory, as
    ``Agent(project=...)`` takes it, whose git work tree's ``PROJECT.md`` is the third block of
    ``instructions`` and the ``memory`` tool's target ``project`` (None: no project)."""
    memory = ProfileMemory(profile, client=CLIENT, home=home, session_id=session_id,
                           manager=manager, project=project)

    def tool(spec: ToolSpec) -> FunctionTool:
        async def invoke(_context: Any, arguments: str) -> str:
            return await asyncio.to_thread(memory.call, spec.name, arguments)

        # Not strict: the tools' schemas have optional fields, which strict mode forbids.
        return FunctionTool(name=spec.name, description=spec.description,
                            params_json_schema=spec.parameters, on_invoke_tool=invoke,
                            strict_json_schema=False)

    instructions = memory.instructions()
    return MemoryTools([tool(s) for s in memory.tools()], instructions, memory.router(), memory.recall)
