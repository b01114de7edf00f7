"""The notes and recall of a profile as Agents SDK function tools: :func:`memory_tools`."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

from agents import FunctionTool

from silcrow._toolcall import convert_schema
from silcrow.agent import (
    ToolCall,
    ToolRouter,  # the one dispatch of the agent and the servers
    build_system_prompt,
)
from silcrow.integrations._profile import ProfileArg, Recall, opened
from silcrow.recall import MemoryManager
from silcrow.store import Proposer

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
                 manager: MemoryManager | None = None) -> MemoryTools:
    """The profile's curated notes (tool ``memory``), its session archive (``session_search``)
    and its recall provider's tools (``recall_search``, ...) as function tools, run through the
    same router as silcrow's own agent: every write locked, scanned, journalled, gated and told
    to the provider. ``session_id``: the conversation's id (a :class:`SilcrowSession`'s), so
    that ``session_search`` leaves out what the model already sees."""
    opened_profile = opened(profile, home)
    recall = Recall(opened_profile, manager, session_id=session_id)
    manager = recall.manager()
    notes = opened_profile.notes(manager)
    notes.proposer = Proposer(client=CLIENT, session=session_id or None)
    notes.load()
    router = ToolRouter(notes, opened_profile.sessions(), manager)
    schemas = router.schemas()
    counter = itertools.count(1)

    def tool(schema: dict[str, Any]) -> FunctionTool:
        fn = convert_schema(schema, "openai")["function"]
        name = fn["name"]

        async def invoke(_context: Any, arguments: str) -> str:
            call = ToolCall(id=f"call_{next(counter)}", name=name, arguments=arguments)
            outcome = await asyncio.to_thread(router.dispatch, call, session_id=session_id)
            return outcome.content

        # Not strict: the tools' schemas have optional fields, which strict mode forbids.
        return FunctionTool(name=name, description=fn.get("description", ""),
                            params_json_schema=fn["parameters"], on_invoke_tool=invoke,
                            strict_json_schema=False)

    instructions = build_system_prompt(notes, manager, identity="").strip()
    return MemoryTools([tool(s) for s in schemas], instructions, router, recall)
