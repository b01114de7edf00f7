"""A Pydantic AI capability on a silcrow profile: :class:`SilcrowCapability`."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic_ai import RunContext, Tool
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import InstructionPart
from pydantic_ai.toolsets import FunctionToolset

from silcrow.integrations._memory import ProfileMemory, ToolSpec
from silcrow.integrations._profile import ProfileArg, ProjectArg
from silcrow.recall import MemoryManager

CLIENT = "pydantic-ai"


class SilcrowCapability(AbstractCapability[Any]):
    """The memory of a silcrow profile for ``Agent(model, capabilities=[SilcrowCapability()])``.

    - instructions: the profile's curated notes with the guidance for using them, frozen when
      first read (the model's writes are saved at once and reach the instructions of the next
      capability made), so that part of the prompt stays the same for the conversation; then,
      as a dynamic part after it, what the recall provider recalls for the run's prompt inside
      the ``<memory-context>`` fence silcrow's agent uses;
    - tools: ``memory`` (the notes: every write takes their lock, threat scan, character limit,
      journal and approval gate), ``session_search`` and the recall provider's tools
      (``recall_search`` answers inside the ``<memory-context>`` fence), run through the same
      router as silcrow's agent, so a refusal is an answer the model reads.

    ``profile``: a profile name of ``home`` or an opened Profile; ``session_id``: the
    conversation's id in silcrow's archive (``session_search`` leaves it out); ``project``: a
    directory, as ``Agent(project=...)`` takes it, whose git work tree's ``PROJECT.md`` is the
    third block of the instructions and the ``memory`` tool's target ``project`` (None: no
    project).
    """

    def __init__(self, profile: ProfileArg = None, *, home: Any = None, session_id: str = "",
                 manager: MemoryManager | None = None, project: ProjectArg = None) -> None:
        self.memory = ProfileMemory(profile, client=CLIENT, home=home, session_id=session_id,
                                    manager=manager, project=project)
        self._toolset: FunctionToolset[Any] | None = None
        self._recalled: tuple[tuple[str | None, str], str] | None = None  # (run id, prompt), block

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds an open profile: not built from an agent spec

    def get_instructions(self) -> list[Any]:
        return [self.memory.instructions(), self._recall]

    async def _recall(self, ctx: RunContext[Any]) -> InstructionPart | None:
        """The fenced recall for the run's prompt, looked up once per run (the instructions are
        read again at each step of it)."""
        given = ctx.prompt
        query = given if isinstance(given, str) else " ".join(p for p in given or () if isinstance(p, str))
        key = (ctx.run_id, query)
        if self._recalled is None or self._recalled[0] != key:
            block = await asyncio.to_thread(self.memory.context, query) if query.strip() else ""
            self._recalled = (key, block)
        block = self._recalled[1]
        return InstructionPart(block, dynamic=True) if block else None

    def get_toolset(self) -> FunctionToolset[Any]:
        if self._toolset is None:
            self._toolset = FunctionToolset([self._tool(spec) for spec in self.memory.tools()])
        return self._toolset

    def _tool(self, spec: ToolSpec) -> Tool[Any]:
        memory = self.memory

        async def run(**arguments: Any) -> str:
            return await asyncio.to_thread(memory.call, spec.name, arguments)

        return Tool.from_schema(run, spec.name, spec.description, spec.parameters)

    def close(self) -> None:
        """Let the recall provider finish its queued work, then shut it down."""
        self.memory.close()

    def __enter__(self) -> SilcrowCapability:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
