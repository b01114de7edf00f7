"""What a stored session and message look like, and how they map to table rows.

:class:`~silcrow.sessions.SessionBackend` runs the transactions; this module validates a
message before it is stored and shapes rows into the dicts and
:class:`SessionInfo` records callers get back.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from silcrow.errors import SessionError

# The first line of every compaction summary, so both the model and a human
# reading the transcript can tell a summary from real turns.
SUMMARY_MARKER = "[silcrow: summary of earlier conversation, {n} messages compacted]"
ROLES = frozenset({"system", "user", "assistant", "tool"})
FIELDS = ("role", "content", "tool_calls", "tool_call_id", "name", "recall_block")
# Keys a caller may hand back from messages() that are ignored on append.
_IGNORED = {"id", "created_at", "summary", "compacted"}


@dataclass(frozen=True)
class SessionInfo:
    id: str
    parent_id: str | None
    title: str | None
    created_at: str
    updated_at: str
    system_prompt: str | None
    message_count: int  # active (non-compacted) messages
    root_id: str = ""  # the first ancestor; a branch family shares it


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def new_session_id() -> str:
    # Sortable by creation time and short enough to type: 20261202-180822-a1b2c3d4.
    # 32 random bits per second make a collision a non-event.
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


MAX_SESSION_ID = 200


def checked_session_id(sid: object) -> str:
    """A session id given by a caller: printable text, at most MAX_SESSION_ID characters."""
    if not isinstance(sid, str) or not sid.strip():
        raise SessionError(f"a session id must be a non-empty string, got {sid!r}")
    if len(sid) > MAX_SESSION_ID or not sid.isprintable() or sid != sid.strip():
        raise SessionError(f"session id {sid[:60]!r} is not usable: give printable text without leading "
                           f"or trailing spaces, at most {MAX_SESSION_ID} characters")
    return sid


def info_from_row(row: sqlite3.Row, count: int) -> SessionInfo:
    return SessionInfo(
        id=row["id"], parent_id=row["parent_id"], title=row["title"], created_at=row["created_at"],
        updated_at=row["updated_at"], system_prompt=row["system_prompt"], message_count=count,
        root_id=row["root_id"],
    )


def message_values(message: dict[str, Any]) -> tuple[Any, ...]:
    """The FIELDS of ``message`` as column values, after checking them."""
    if not isinstance(message, dict):
        raise SessionError(f"a message must be a dict with a 'role', got {type(message).__name__}")
    unknown = set(message) - set(FIELDS) - _IGNORED
    if unknown:
        raise SessionError(f"unknown message fields {sorted(unknown)}; allowed: {list(FIELDS)}")
    role = message.get("role")
    if role not in ROLES:
        raise SessionError(f"message role must be one of {sorted(ROLES)}, got {role!r}")
    for field in ("content", "tool_call_id", "name", "recall_block"):
        value = message.get(field)
        if value is not None and not isinstance(value, str):
            raise SessionError(f"message {field} must be a string or None, got {type(value).__name__}")
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise SessionError(f"message tool_calls must be a list, got {type(calls).__name__}")
    try:
        calls_json = json.dumps(calls, ensure_ascii=False) if calls else None
    except (TypeError, ValueError) as exc:
        raise SessionError(f"message tool_calls cannot be stored as JSON: {exc}") from exc
    return (role, message.get("content"), calls_json, message.get("tool_call_id"), message.get("name"),
            message.get("recall_block"))


def message_dict(row: sqlite3.Row, *, raw: bool = False) -> dict[str, Any]:
    """A message row as callers see it: None fields left out, tool_calls parsed.

    ``summary`` marks a compaction summary; with ``raw``, ``compacted`` marks
    a message that was folded into one.
    """
    out: dict[str, Any] = {"id": row["id"]}
    for field in FIELDS:
        value = row[field]
        if value is None:
            continue
        out[field] = json.loads(value) if field == "tool_calls" else value
    out["created_at"] = row["created_at"]
    if row["is_summary"]:
        out["summary"] = True
    if raw and row["compacted"]:
        out["compacted"] = True
    return out
