"""The tools the agent offers the model, and the one place that runs them.

The memory tool goes to the notes service (:class:`~silcrow.notes.Notes`, a
profile's ``Profile.notes(manager)``; never through the provider: notes must not
depend on a plugin), which passes each committed write on to the provider.
``session_search`` reads the sessions database; every other tool name the
provider declared is routed through the :class:`MemoryManager`. Whatever
happens, a call produces a JSON result for the model and never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from silcrow._toolcall import (
    MEMORY_TOOL_NAME,
    SEARCH_TOOL_NAME,
    contained,
    error_json,
    is_success,
    parse_arguments,
    result_json,
    schema_name,
)
from silcrow.agent._llm import ToolCall
from silcrow.agent._search_tool import handle_session_search, session_search_schema
from silcrow.errors import ToolCallError
from silcrow.notes import Notes
from silcrow.recall import MemoryManager
from silcrow.sessions import SessionBackend
from silcrow.tool import memory_call, memory_tool_schema

MEMORY_TOOL = MEMORY_TOOL_NAME
SEARCH_TOOL = SEARCH_TOOL_NAME


@dataclass(frozen=True)
class ToolOutcome:
    content: str          # the JSON result the model reads
    wrote_memory: bool    # a curated write was committed (or held for the user's approval)


class ToolRouter:
    """Schemas and dispatch for memory, session_search and the provider's tools."""

    def __init__(self, notes: Notes, sessions: SessionBackend, manager: MemoryManager) -> None:
        """``notes``: the profile's notes service (``Profile.notes(manager)``), whose committed
        writes reach ``manager``'s provider."""
        self.notes = notes
        self.sessions = sessions
        self.manager = manager
        self._provider_tools: set[str] = set()

    def schemas(self) -> list[dict[str, Any]]:
        """The tool list of a session, in a fixed order (it is part of the cached prefix)."""
        provider = [s for s in self.manager.tool_schemas()
                    if schema_name(s) not in (MEMORY_TOOL, SEARCH_TOOL)]
        self._provider_tools = {name for s in provider if (name := schema_name(s))}
        return [self._memory_schema(), session_search_schema(), *provider]

    def _memory_schema(self) -> dict[str, Any]:
        # The target "project" only in a project: elsewhere the tool is what it always was.
        return memory_tool_schema(fmt="openai", project=self.notes.project is not None)

    def memory_only(self) -> list[dict[str, Any]]:
        return [self._memory_schema()]

    def dispatch(self, call: ToolCall, *, session_id: str, allowed: set[str] | None = None) -> ToolOutcome:
        if allowed is not None and call.name not in allowed:
            offered = ", ".join(sorted(allowed))
            return ToolOutcome(error_json(f"tool {call.name!r} is not available now; use only {offered}"),
                               False)
        try:
            args = parse_arguments(call.arguments, tool=call.name)
        except ToolCallError as exc:
            return ToolOutcome(error_json(str(exc)), False)
        return contained(f"tool {call.name!r}", lambda: self._run(call.name, args, session_id),
                         lambda refused: ToolOutcome(result_json(refused), False))

    def _run(self, name: str, args: dict[str, Any], session_id: str) -> ToolOutcome:
        if name == MEMORY_TOOL:
            return self._memory(args, session_id)
        if name == SEARCH_TOOL:
            found = handle_session_search(self.sessions, args, current_session_id=session_id)
            return ToolOutcome(found, False)
        if name in self._provider_tools:
            return ToolOutcome(self.manager.handle_tool_call(name, args), False)
        names = ", ".join(sorted({MEMORY_TOOL, SEARCH_TOOL, *self._provider_tools}))
        return ToolOutcome(error_json(f"unknown tool {name!r}; available tools: {names}"), False)

    def _memory(self, args: dict[str, Any], session_id: str) -> ToolOutcome:
        self.notes.proposer = replace(self.notes.proposer, session=session_id or None)
        # The notes service passes a committed write on to the provider. A write held for the
        # user's approval counts as saved for the nudges: the model did its part.
        result = memory_call(self.notes, args)
        return ToolOutcome(result_json(result), is_success(result))
