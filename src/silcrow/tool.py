"""The memory tool: its schema for the model and the dispatch of its calls.

The description below is the only manual the model gets for its memory, so
it says what to keep, what to leave out, how to word an entry and what to do
when the memory is full. Results are JSON text the model reads back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from silcrow._toolcall import (
    MEMORY_TOOL_NAME,
    SchemaFormat,
    error_result,
    guarded,
    parse_arguments,
    result_json,
    tool_schema,
)
from silcrow.notes import Notes
from silcrow.store import MemoryStore

# A public module: ``silcrow.tool`` is an import path earlier releases documented.
__all__ = [
    "handle_memory_call",
    "memory_call",
    "memory_tool_schema",
]

TOOL_NAME = MEMORY_TOOL_NAME

DESCRIPTION = """\
Your long-lived memory across sessions. Two small stores are shown at the top of your system prompt:
- target "memory": your own notes (facts about the environment, projects, conventions, tools);
- target "user": what you know about the user (name, role, preferences, how they like to work).
What you save appears in every future session. The copy in your prompt is refreshed only when a new \
session starts, so something you saved a moment ago is not shown there yet: do not save it again; the \
result of each call tells you the current state.

Save, most important first:
1. preferences and corrections the user gives you ("prefers pytest over unittest", "call me Sam", \
"don't use emojis in commit messages"); save these in the same turn, without being asked — a \
correction saved now avoids repeating a mistake in every later session;
2. durable facts about the environment (OS, paths, services, versions, how to run the tests);
3. project conventions and decisions, and quirks of tools that cost you time to discover.

Do NOT save: progress on the current task, temporary state, todo lists, things that will be stale \
within a week, whole files or logs, or anything you could simply look up again.
For what happened in earlier conversations, call `session_search`; do not keep a diary here.

Write each entry as one short, self-contained, declarative fact in the third person \
("The user deploys with `make release`", not "I should remember to..."). No instructions to yourself, \
no secrets or credentials; such content is refused.

Actions:
- add: new entry in `content`. An exact duplicate is accepted without adding a copy.
- replace: `old_text` is a short substring that identifies ONE existing entry; `content` is its new full \
text. Use it to correct a fact or to merge related entries into one.
- remove: `old_text` identifies the entry to delete.
- operations: a list of {action, content?, old_text?} applied all-or-nothing in one step; the size limit \
is checked only on the final result, so you can remove and add in one call.
If old_text matches several different entries you get their previews: retry with a longer substring.

Each store has a character limit (shown as a percentage in its header). When an add is refused for \
size, consolidate right away: merge overlapping entries, shorten wordy ones and remove stale ones \
(ideally in one `operations` batch), then retry. If the result says to stop, stop and answer the user."""

_OPERATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["add", "replace", "remove"]},
        "content": {"type": "string", "description": "New entry text (add, replace)."},
        "old_text": {
            "type": "string",
            "description": "Substring identifying the entry (replace, remove).",
        },
    },
    "required": ["action"],
}

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {
            "type": "string",
            "enum": ["add", "replace", "remove"],
            "description": "What to do. Omit it when you pass `operations`.",
        },
        "target": {
            "type": "string",
            "enum": ["memory", "user"],
            "description": "'memory' for your own notes, 'user' for the user profile.",
        },
        "content": {
            "type": "string",
            "description": "The entry text: required for add and replace (the full new text).",
        },
        "old_text": {
            "type": "string",
            "description": "A short, exact substring of the one entry to replace or remove.",
        },
        "operations": {
            "type": "array",
            "items": _OPERATION_SCHEMA,
            "description": "Several add/replace/remove steps applied all-or-nothing; use instead of action.",
        },
    },
    "required": ["target"],
}


# In a project (Notes.project), the tool has a third target; outside one the definition is
# byte for byte the one above, so a session's cached prefix is what it always was.
_TWO = "Two small stores are shown at the top of your system prompt:\n"
_USER_LINE = ('- target "user": what you know about the user (name, role, preferences, how they like '
              "to work).\n")
_PROJECT_LINE = ('- target "project": notes on the project (git work tree) you are working in: how to '
                 "build and test it, its layout, conventions and decisions; only sessions in this project "
                 "see them.\n")
PROJECT_DESCRIPTION = DESCRIPTION.replace(
    _TWO, "Three small stores are shown at the top of your system prompt:\n").replace(
    _USER_LINE, _USER_LINE[:-2] + ";\n" + _PROJECT_LINE)
PROJECT_PARAMETERS: dict[str, Any] = {
    **PARAMETERS,
    "properties": {
        **PARAMETERS["properties"],
        "target": {
            "type": "string",
            "enum": ["memory", "user", "project"],
            "description": "'memory' for your own notes, 'user' for the user profile, 'project' for the "
                           "notes on this project.",
        },
    },
}


def memory_tool_schema(fmt: SchemaFormat | str = "openai", *, project: bool = False) -> dict[str, Any]:
    """The tool definition in the OpenAI (function), Anthropic (input_schema) or bare format;
    ``project``: with the target ``project`` (a session in a project: ``Notes.project``)."""
    if project:
        return tool_schema(TOOL_NAME, PROJECT_DESCRIPTION, PROJECT_PARAMETERS, fmt)
    return tool_schema(TOOL_NAME, DESCRIPTION, PARAMETERS, fmt)


_EXAMPLE = '{"action": "add", "target": "memory", "content": "..."}'


def memory_call(notes: Notes | MemoryStore, arguments: Any, *, origin: str = "tool") -> dict[str, Any]:
    """Run one memory tool call and return its result dict. Never raises.

    ``notes``: the notes service (a committed write reaches its recall provider too), or a bare
    store. ``arguments`` is the call's JSON text or its decoded object. The result is what
    :func:`handle_memory_call` encodes; ``result["success"]`` says whether the write was
    committed. ``origin``: where the call came from, for the journal (a model's tool by default;
    the MCP server passes ``"mcp"``).
    """
    service = notes if isinstance(notes, Notes) else Notes(notes)
    return _told(guarded(
        "the memory tool",
        lambda: _dispatch(service, parse_arguments(arguments, tool=TOOL_NAME, example=_EXAMPLE), origin),
    ))


def handle_memory_call(notes: Notes | MemoryStore, arguments: dict[str, Any] | str) -> str:
    """Run one memory tool call and return its JSON result. Never raises."""
    return result_json(memory_call(notes, arguments))


# What the model is to do next. The notes say what happened (held for approval; paused for the
# rest of the turn); only here, at the model's edge, is that turned into an instruction.
HELD_TEXT = ("Do not retry or rephrase it; the user approves or rejects it. Until then it is not in "
             "memory: tell the user it awaits their approval if it matters.")
STOP_TEXT = ("STOP calling the memory tool now and answer the user; if something important could not "
             "be saved, tell the user so.")


def _told(result: dict[str, Any]) -> dict[str, Any]:
    if result.get("pending") and isinstance(result.get("message"), str):
        result["message"] = f"{result['message']} {HELD_TEXT}"
    if result.get("terminal") and isinstance(result.get("error"), str):
        result["error"] = f"{result['error']} {STOP_TEXT}"
    return result


def _dispatch(notes: Notes, args: dict[str, Any], origin: str) -> Mapping[str, Any]:
    # Values reach the store unchecked on purpose: it validates every field
    # and answers a bad one with an explanatory refusal.
    target: Any = args.get("target")
    action: Any = args.get("action")
    content: Any = args.get("content")
    old_text: Any = args.get("old_text")
    if "operations" in args and args["operations"] is not None:
        if action is not None:
            return error_result(
                "pass either 'action' or 'operations', not both; put every step in 'operations'"
            )
        return notes.batch(target, args["operations"], origin=origin)
    if action == "add":
        return notes.add(target, content, origin=origin)
    if action == "replace":
        return notes.replace(target, old_text, content, origin=origin)
    if action == "remove":
        return notes.remove(target, old_text, origin=origin)
    if action is None:
        return error_result("'action' is missing: use 'add', 'replace' or 'remove', or pass 'operations'")
    return error_result(f"unknown action {action!r}: use 'add', 'replace' or 'remove'")
