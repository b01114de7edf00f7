"""Agents SDK conversation items <-> messages of silcrow's session archive.

The archive keeps chat messages (role, content, tool calls), which ``silcrow sessions`` shows
and searches. An item is stored as the message it means, and read back in the input shape the
SDK sends to a model:

=============================================  ==============================================
item                                           message (and what get_items returns)
=============================================  ==============================================
user / system message, text content            user / system, its text ({"role", "content"})
assistant message, output_text content         assistant, its text ({"role", "content"})
``function_call``                              assistant with one tool call (call_id, name,
                                               arguments; the provider's item id is dropped)
``function_call_output`` with text output      tool, its output, the call_id
anything else (reasoning, images, developer    a message whose one tool call of type
messages, hosted tool calls, ...)              ``item`` holds the item's exact JSON
=============================================  ==============================================

Text is what search finds; the ``item`` form keeps everything else exactly.
"""

from __future__ import annotations

import json
from typing import Any

RAW = "item"  # the tool-call type of an item kept as JSON


def _text(content: Any, kinds: tuple[str, ...]) -> str | None:
    """The text of a message's content when it is only text parts of ``kinds`` (else None)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(
        isinstance(p, dict) and p.get("type") in kinds and isinstance(p.get("text"), str)
        and not p.get("annotations") for p in content
    ):
        return "".join(p["text"] for p in content)
    return None


def to_message(item: Any) -> dict[str, Any]:
    """The archive message of one item; ValueError for something that is not an item."""
    if not isinstance(item, dict):
        raise ValueError(f"a session item must be a dict (a Responses input item), got {type(item).__name__}")
    try:
        exact = json.dumps(item, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a session item must be JSON data: {exc}") from exc
    kind, role = item.get("type"), item.get("role")
    if kind in (None, "message") and role in ("user", "system"):
        text = _text(item.get("content"), ("input_text",))
        if text is not None and set(item) <= {"role", "content", "type"}:
            return {"role": role, "content": text}
    if kind in (None, "message") and role == "assistant":
        text = _text(item.get("content"), ("output_text",))
        if text is not None and set(item) <= {"role", "content", "type", "id", "status"}:
            return {"role": "assistant", "content": text}
    if kind == "function_call" and all(isinstance(item.get(k), str)
                                       for k in ("call_id", "name", "arguments")):
        call = {"id": item["call_id"], "type": "function",
                "function": {"name": item["name"], "arguments": item["arguments"]}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    if kind == "function_call_output" and isinstance(item.get("output"), str) \
            and isinstance(item.get("call_id"), str) \
            and set(item) <= {"type", "call_id", "output", "id", "status"}:
        return {"role": "tool", "content": item["output"], "tool_call_id": item["call_id"]}
    shown = str(kind or role or "item")
    text = _text(item.get("content"), ("input_text", "output_text", "text"))
    return {"role": "user" if role == "user" else "assistant", "content": text,
            "tool_calls": [{"id": str(item.get("id") or shown), "type": RAW,
                            "function": {"name": shown, "arguments": exact}}]}


def to_item(message: dict[str, Any]) -> dict[str, Any]:
    """The item a stored message stands for (see the module's table)."""
    calls = message.get("tool_calls") or []
    if len(calls) == 1 and calls[0].get("type") == RAW:
        item: dict[str, Any] = json.loads(calls[0]["function"]["arguments"])
        return item
    role = message["role"]
    if role == "assistant" and calls:
        call = calls[0]
        return {"type": "function_call", "call_id": call["id"], "name": call["function"]["name"],
                "arguments": call["function"].get("arguments", "")}
    if role == "tool":
        return {"type": "function_call_output", "call_id": message.get("tool_call_id", ""),
                "output": message.get("content") or ""}
    return {"role": role, "content": message.get("content") or ""}


def text_of(item: dict[str, Any], role: str) -> str | None:
    """The text of a plain ``role`` message item, or None (for finding a turn's two sides)."""
    if item.get("type") not in (None, "message") or item.get("role") != role:
        return None
    kinds = ("input_text",) if role == "user" else ("output_text",)
    return _text(item.get("content"), kinds)
