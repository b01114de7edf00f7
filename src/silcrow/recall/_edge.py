"""The model's edge of recall: typed tool specs and answers in the formats a model reads.

Providers describe their tools as :class:`~silcrow.recall.ToolSpec` values and answer calls
with typed values (:class:`~silcrow.recall.ToolResult`, or the typed API's
:class:`~silcrow.recall.Found`, :class:`~silcrow.recall.Remembered`,
:class:`~silcrow.recall.Forgotten`); the manager works on those. This module is the one
place they become what a model (or a host that speaks tool JSON, such as Hermes) reads: an
OpenAI function schema or a bare one (:func:`openai_tool`, :func:`as_openai_tool`,
:func:`bare_tool`), and a result
object or its JSON text (:func:`answer_dict`, :func:`answer_json`). Every recall surface (the
agent's tools, MCP, the Hermes bridge, :meth:`MemoryProvider.handle_tool_call`) calls it.
"""

from __future__ import annotations

import json
from typing import Any

from silcrow._toolcall import convert_schema, result_json, schema_name, tool_schema
from silcrow.recall._api import Answer, Forgotten, Found, Remembered
from silcrow.recall._spec import ToolResult, ToolSpec

__all__ = ["answer_dict", "answer_json", "as_openai_tool", "bare_tool", "openai_tool"]


def as_openai_tool(schema: object) -> dict[str, Any] | None:
    """``schema`` (a :class:`ToolSpec`, or a schema dict) in OpenAI function format, or None when
    it names no tool.

    A dict may be ``{"type": "function", "function": {...}}`` or the bare
    ``{"name", "description", "parameters"}`` that Hermes plugins use;
    the bare one is wrapped. Anything else (no usable ``name``) gives None so
    the caller can say what it dropped.
    """
    if isinstance(schema, ToolSpec):
        return openai_tool(schema)
    if schema_name(schema) is None:
        return None
    assert isinstance(schema, dict)
    return convert_schema(schema, "openai")


def openai_tool(spec: ToolSpec) -> dict[str, Any]:
    """``spec`` in OpenAI function format: ``{"type": "function", "function": {...}}``."""
    return tool_schema(spec.name, spec.description, spec.parameters(), "openai")


def bare_tool(spec: ToolSpec) -> dict[str, Any]:
    """``spec`` as ``{"name", "description", "parameters"}`` (Hermes, MCP)."""
    return tool_schema(spec.name, spec.description, spec.parameters(), "bare")


def answer_dict(answer: Answer) -> dict[str, Any]:
    """The result object a model reads for a typed answer; ``success`` says whether it worked."""
    if isinstance(answer, ToolResult):
        if answer.error is None:
            return {"success": True, **answer.data}
        return {"success": False, "error": answer.error, **answer.data}
    if isinstance(answer, (Found, Remembered, Forgotten)):
        return answer.to_json()
    raise TypeError(f"not a recall tool answer: {type(answer).__name__}")


def answer_json(answer: Answer) -> str:
    """:func:`answer_dict` as the JSON text a model reads. A value JSON has no type for (a date,
    a set) is written as its text; an answer that cannot be written at all (a cycle) is a
    failed result saying so, so no tool call ends in an exception here."""
    try:
        return json.dumps(answer_dict(answer), ensure_ascii=False, default=str)
    except (TypeError, ValueError) as exc:
        return result_json(answer_dict(ToolResult.failed(
            f"the tool's answer could not be written as JSON ({exc}); the tool's provider must "
            "answer with JSON values")))
