"""The recall tools a model calls (recall_search, recall_add, recall_forget): their specs,
and how a call of one becomes a call of the typed API (:mod:`silcrow.recall._api`).

:func:`call_recall_tool` checks a call's arguments and makes the typed call; its answer is
typed (a refusal is a failed :class:`ToolResult`). A provider's ``call_tool`` runs it over the
provider's own typed recall (:meth:`~silcrow.recall.MemoryProvider.search`, ...), the manager
and the servers over the manager, so all answer alike. :func:`run_tool` is the same call
answered as the result dict a model reads (made by :mod:`silcrow.recall._edge`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from silcrow.errors import RecallError
from silcrow.recall import _edge
from silcrow.recall._api import Answer, RecallAPI
from silcrow.recall._limits import MAX_QUERY_CHARS, MAX_RESULTS
from silcrow.recall._spec import ToolResult, ToolSpec

__all__ = ["FORGET_LIMIT", "SEARCH_TOOL", "TOOL_NAMES", "TOOL_SPECS", "call_recall_tool", "run_tool",
           "tool_schemas", "typed_tools"]

FORGET_LIMIT = 20  # recall_forget by text deletes at most this many memories at once

TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec.of(
        "recall_search",
        "Search long-term memory (past conversations and saved facts). "
        "Returns the best matching memories with their ids and dates.",
        {"query": {"type": "string", "description": "What to look for, in plain words."},
         "k": {"type": "integer", "description": "How many results (1-50, default 8)."}},
        ["query"],
    ),
    ToolSpec.of(
        "recall_add",
        "Save one durable fact to long-term memory (not the prompt notes).",
        {"fact": {"type": "string", "description": "The fact, one sentence."}},
        ["fact"],
    ),
    ToolSpec.of(
        "recall_forget",
        "Delete memories: pass a memory id from recall_search, or text; every "
        "memory containing that text is deleted.",
        {"id": {"type": "integer", "description": "A memory id from recall_search."},
         "query": {"type": "string", "description": "Text contained in the memories to delete."}},
    ),
)

TOOL_NAMES: tuple[str, ...] = tuple(spec.name for spec in TOOL_SPECS)
SEARCH_TOOL = "recall_search"


def typed_tools(specs: Iterable[ToolSpec]) -> tuple[str, ...]:
    """Which of ``specs`` are the recall tools answered by a provider's typed recall (its
    ``search``, ``remember``, ``forget``): those listed with their own spec, as in
    :data:`TOOL_SPECS`. A tool of the same name with another spec is the provider's own."""
    return tuple(spec.name for spec in specs if spec in TOOL_SPECS)


def tool_schemas() -> list[dict[str, Any]]:
    """The three tools in OpenAI function format (new dicts: callers may change them)."""
    return [_edge.openai_tool(spec) for spec in TOOL_SPECS]


def call_recall_tool(api: RecallAPI, name: str, args: Mapping[str, Any], *, source: str = "tool") -> Answer:
    """The typed answer of recall tool ``name`` called with ``args`` on ``api``.

    A bad argument or a :class:`RecallError` is a failed :class:`ToolResult` saying what to
    change; the caller screens its strings before a model reads them.
    """
    handler = _HANDLERS.get(name)
    if handler is None:
        return ToolResult.failed(f"unknown recall tool {name!r}; the recall tools are "
                                 f"{', '.join(TOOL_NAMES)}")
    try:
        return handler(api, args, source)
    except (RecallError, ValueError, TypeError) as exc:
        return ToolResult.failed(f"{name} failed: {exc}")


def run_tool(api: RecallAPI, name: str, args: Mapping[str, Any], *, source: str = "tool") -> dict[str, Any]:
    """:func:`call_recall_tool` answered as the result dict a model reads."""
    return _edge.answer_dict(call_recall_tool(api, name, args, source=source))


def _search(api: RecallAPI, args: Mapping[str, Any], _source: str) -> Answer:
    query = str(args.get("query") or "").strip()
    if not query:
        return ToolResult.failed("recall_search needs a non-empty 'query'")
    if len(query) > MAX_QUERY_CHARS:
        return ToolResult.failed(f"recall_search: the query is {len(query)} characters, over the cap "
                            f"of {MAX_QUERY_CHARS}; search with a few words")
    try:
        k = int(args.get("k") or 8)
    except (TypeError, ValueError):
        return ToolResult.failed(f"recall_search: 'k' must be an integer from 1 to {MAX_RESULTS}, got "
                            f"{args.get('k')!r}; leave it out for 8 results")
    return api.search(query, max(1, min(k, MAX_RESULTS)))


def _add(api: RecallAPI, args: Mapping[str, Any], source: str) -> Answer:
    fact = str(args.get("fact") or "").strip()
    if not fact:
        return ToolResult.failed("recall_add needs a non-empty 'fact'")
    return api.remember(fact, source=source)


def _forget(api: RecallAPI, args: Mapping[str, Any], _source: str) -> Answer:
    raw_id, raw_query = args.get("id"), args.get("query")
    target: int | str
    if raw_id not in (None, ""):
        memory_id = _memory_id(raw_id)
        if memory_id is None:
            return ToolResult.failed(
                f"recall_forget: 'id' must be a memory id (an integer from recall_search), "
                f"got {raw_id!r}; to delete by text pass it as 'query'"
            )
        target = memory_id
    elif isinstance(raw_query, str) and raw_query.strip():
        target = raw_query
    elif raw_query not in (None, ""):
        return ToolResult.failed(f"recall_forget: 'query' must be text, got {raw_query!r}")
    else:
        return ToolResult.failed("recall_forget needs an 'id' (from recall_search) or a 'query' text")
    return api.forget(target, max_matches=FORGET_LIMIT)


_HANDLERS: dict[str, Callable[[RecallAPI, Mapping[str, Any], str], Answer]] = {
    "recall_search": _search, "recall_add": _add, "recall_forget": _forget,
}


def _memory_id(value: Any) -> int | None:
    """A memory id from a tool argument: an integer, or its digits as text (models send both)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None
