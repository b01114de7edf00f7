"""The ``session_search`` tool: lets the model look up earlier conversations.

Two modes, both plain SQLite (FTS5 + bm25), no LLM call:

- ``{"query": "..."}`` — the best-matching past sessions, one per lineage,
  each with a dated snippet and the id of the matching message;
- ``{"session_id": "...", "message_id": N}`` — the messages around that hit,
  to read the context of a snippet.

Results are JSON text; the handler never raises, so a bad call costs the
model one turn with an explanation instead of crashing the loop.
"""

from __future__ import annotations

from typing import Any

from silcrow._toolcall import (
    SEARCH_TOOL_NAME,
    error_result,
    guarded,
    parse_arguments,
    result_json,
    tool_schema,
)
from silcrow.errors import SessionError, ToolCallError
from silcrow.sessions import SessionBackend

__all__ = ["TOOL_NAME", "handle_session_search", "session_search_schema"]

TOOL_NAME = SEARCH_TOOL_NAME
DEFAULT_RESULTS = 5
MAX_RESULTS = 20
DEFAULT_WINDOW = 3
MAX_WINDOW = 10
# A whole old message can be long (pasted logs); the model gets enough to
# judge relevance without flooding its context.
MAX_MESSAGE_CHARS = 1500

DESCRIPTION = """\
Search the transcripts of your earlier sessions with the user (full-text keyword search, best matches \
first). Use it when the user refers to something discussed before ("as we said last week", "that bug \
from yesterday") or when past context would clearly help; your memory notes hold only a summary.
- Search: give `query`, a few distinctive keywords (names, error messages, file names), not a sentence. \
You get up to `limit` sessions, one hit each, with its date, a snippet (matches in **bold**), \
`session_id` and `message_id`.
- Read more: give `session_id` and `message_id` from a result to get the messages around it \
(`limit` = how many on each side).
What is already in this conversation is not returned."""

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "Keywords to search past sessions for."},
        "session_id": {"type": "string", "description": "Session of a search result, to read around it."},
        "message_id": {"type": "integer", "description": "Message id of that search result."},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_RESULTS,
            "description": f"Sessions to return (default {DEFAULT_RESULTS}), or messages on each side of "
            f"message_id (default {DEFAULT_WINDOW}, at most {MAX_WINDOW}).",
        },
    },
    "additionalProperties": False,
}


def session_search_schema() -> dict[str, Any]:
    """The tool definition in the OpenAI function format."""
    return tool_schema(TOOL_NAME, DESCRIPTION, PARAMETERS)


def _int_arg(args: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = args.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ToolCallError(f"{key!r} must be an integer, got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise ToolCallError(f"{key!r} must be an integer, got {value!r}") from None
    return max(low, min(high, number))


def _shorten(text: str) -> str:
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    return text[:MAX_MESSAGE_CHARS] + f" …[{len(text) - MAX_MESSAGE_CHARS} more characters]"


def _readable(message: dict[str, Any]) -> dict[str, Any]:
    """A stored message as the model should read it: no recall blocks, tool calls by name."""
    out: dict[str, Any] = {"message_id": message["id"], "role": message["role"],
                           "date": message["created_at"][:16].replace("T", " ")}
    if message.get("content"):
        out["content"] = _shorten(message["content"])
    calls = message.get("tool_calls") or []
    if calls:
        out["tool_calls"] = [
            {"name": c.get("function", {}).get("name"),
             "arguments": _shorten(str(c.get("function", {}).get("arguments", "")))}
            for c in calls if isinstance(c, dict)
        ]
    if message.get("name"):
        out["name"] = message["name"]
    if message.get("compacted"):
        out["compacted"] = True
    if message.get("summary"):
        out["summary"] = True
    return out


def _search(store: SessionBackend, args: dict[str, Any], current: str | None) -> dict[str, Any]:
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolCallError("'query' must be a non-empty string of keywords")
    limit = _int_arg(args, "limit", DEFAULT_RESULTS, 1, MAX_RESULTS)
    hits = store.search(query, limit=limit, current_session_id=current)
    results = [
        {k: h[k] for k in ("session_id", "title", "date", "snippet", "message_id", "role")} for h in hits
    ]
    out: dict[str, Any] = {"success": True, "query": query, "count": len(results), "results": results}
    if results:
        out["hint"] = "pass a result's session_id and message_id to read the messages around it"
    else:
        out["message"] = (
            "no earlier session matched; try other or fewer keywords (names, distinctive words)"
        )
    return out


def _around(store: SessionBackend, args: dict[str, Any]) -> dict[str, Any]:
    sid = args.get("session_id")
    if not isinstance(sid, str) or not sid.strip():
        raise ToolCallError("'session_id' must be the session_id string of a search result")
    if args.get("message_id") is None:
        raise ToolCallError("give 'message_id' (from the same search result) together with 'session_id'")
    message_id = _int_arg(args, "message_id", 0, 0, 2**62)
    window = _int_arg(args, "limit", DEFAULT_WINDOW, 0, MAX_WINDOW)
    try:
        full_id = store.resolve(sid)
    except SessionError as exc:
        # The store's hint names a CLI command; the model needs its own way out.
        raise ToolCallError(f"{str(exc).split(';')[0]}; use the session_id of a search result") from None
    info = store.get(full_id)
    messages = store.around(full_id, message_id, window=window)
    return {
        "success": True,
        "session_id": full_id,
        "title": info.title,
        "message_id": message_id,
        "messages": [_readable(m) for m in messages],
    }


def handle_session_search(
    store: SessionBackend, args: dict[str, Any] | str, *, current_session_id: str | None = None
) -> str:
    """Run one ``session_search`` call and return its JSON result. Never raises.

    ``current_session_id`` keeps what the model already sees (the active
    messages of the current session) out of the results.
    """
    return result_json(guarded("session search", lambda: _run(store, args, current_session_id)))


def _run(store: SessionBackend, raw: dict[str, Any] | str, current: str | None) -> dict[str, Any]:
    args = parse_arguments(raw, tool=TOOL_NAME, example='{"query": "keywords"}')
    unknown = set(args) - set(PARAMETERS["properties"])
    if unknown:
        return error_result(
            f"unknown argument(s) {sorted(unknown)}; use 'query', or 'session_id' with 'message_id', "
            "and optionally 'limit'"
        )
    if args.get("session_id") is not None or args.get("message_id") is not None:
        if args.get("query"):
            return error_result("give either 'query', or 'session_id' with 'message_id', not both")
        return _around(store, args)
    if args.get("query") is not None:
        return _search(store, args, current)
    return error_result(
        "nothing to do: give 'query' (keywords) to search, or 'session_id' and 'message_id' "
        "from a search result to read around it"
    )
