"""Checks on what a hosted service answers: a malformed response is a ServiceError, never a crash.

Each helper takes the decoded value and a short description of where it
came from, and returns it typed, or raises :class:`ServiceError` saying what
was expected and what arrived (truncated).
"""

from __future__ import annotations

import json
from typing import Any

from silcrow.errors import ServiceError


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def malformed(service: str, what: str, expected: str, value: Any) -> ServiceError:
    return ServiceError(
        f"{service} answered a malformed {what}: expected {expected}, got {_shown(value)}; the service or "
        "its API version may not match this client (check the endpoint setting)"
    )


def parse_json(service: str, what: str, text: str | bytes) -> Any:
    """``json.loads`` that reports a body that is not JSON as a ServiceError."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise malformed(service, what, "JSON", text[:120]) from exc


def as_dict(service: str, what: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise malformed(service, what, "a JSON object", value)
    return value


def as_list(service: str, what: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise malformed(service, what, "a JSON array", value)
    return value


def field(service: str, what: str, obj: Any, key: str, kind: type | tuple[type, ...], *,
          default: Any = ..., optional: bool = False) -> Any:
    """``obj[key]`` checked to be of ``kind``; ``default`` when absent (or None with ``optional``)."""
    data = as_dict(service, what, obj)
    value = data.get(key)
    if value is None:
        if default is not ...:
            return default
        if optional:
            return None
        raise malformed(service, what, f"a field {key!r}", data)
    if not isinstance(value, kind) or (kind in (int, float) and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise malformed(service, f"{what} field {key!r}", names, value)
    return value


def text_of(value: Any) -> str:
    """Plain text of a recalled item: a string, or the usual text fields of an object."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in ("content", "memory", "text", "chunk", "abstract", "overview", "summary"):
            item = value.get(key)
            if isinstance(item, str) and item.strip():
                return item
    return ""
