"""Tool-call plumbing shared by every tool silcrow offers a model.

The memory tool, ``session_search``, the local provider's tools, the agent's
router and every provider or service that exposes tools use these helpers,
so a result is encoded, an argument string is parsed and a schema is shaped
the same way everywhere:

- :func:`result_json`, :func:`ok_json`, :func:`error_json`: the JSON text a
  model reads back. Always ``ensure_ascii=False`` (a model reads "café", not
  ``"caf\\u00e9"``, and it costs fewer tokens). Failures are
  ``{"success": false, "error": "..."}``.
- :func:`parse_arguments`: models and APIs send arguments as a JSON string
  or as an already decoded object; either becomes a ``dict`` or raises
  :class:`~silcrow.errors.ToolCallError` whose message tells the model how to
  fix the call.
- :func:`guarded`: runs a tool body and turns any exception into an error
  result, because a failing tool must cost the model one turn, never crash
  the loop that called it.
- :func:`tool_schema`, :func:`function_schema`, :func:`schema_name`, :func:`convert_schema`: one tool
  definition in the formats in use: ``"openai"`` (``{"type": "function",
  "function": {...}}``, what the agent sends and providers return),
  ``"anthropic"`` (``input_schema``) and ``"bare"`` (``name``,
  ``description``, ``parameters`` at the top level, e.g. for MCP).

The names of the built-in tools live here too, so a router, a prompt and a
service cannot disagree about them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

from silcrow._json import loads
from silcrow.errors import SilcrowError, ToolCallError

__all__ = [
    "MEMORY_TOOL_NAME",
    "SCHEMA_FORMATS",
    "SEARCH_TOOL_NAME",
    "SchemaFormat",
    "ToolCallError",
    "contained",
    "convert_schema",
    "error_json",
    "error_result",
    "guarded",
    "is_success",
    "ok_json",
    "parse_arguments",
    "result_json",
    "schema_name",
    "tool_schema",
]

log = logging.getLogger(__name__)

_T = TypeVar("_T")

MEMORY_TOOL_NAME = "memory"
SEARCH_TOOL_NAME = "session_search"

SchemaFormat = Literal["openai", "anthropic", "bare"]
SCHEMA_FORMATS: tuple[str, ...] = ("openai", "anthropic", "bare")


# -- results -------------------------------------------------------------------------------


def result_json(result: Any) -> str:
    """The JSON text of a tool result (normally a dict), as the model reads it."""
    return json.dumps(result, ensure_ascii=False)


def error_result(message: str, **extra: Any) -> dict[str, Any]:
    """A failed call's result: ``{"success": False, "error": message, **extra}``."""
    return {"success": False, "error": message, **extra}


def error_json(message: str, **extra: Any) -> str:
    """:func:`error_result` as JSON text."""
    return result_json(error_result(message, **extra))


def ok_json(**fields: Any) -> str:
    """A successful call's JSON text: ``{"success": true, **fields}``."""
    return result_json({"success": True, **fields})


def is_success(result: Mapping[str, Any]) -> bool:
    """Whether a result dict reports success (only a literal ``True`` counts)."""
    return result.get("success") is True


def contained(tool: str, run: Callable[[], _T], refuse: Callable[[dict[str, Any]], _T]) -> _T:
    """Run a tool body; an exception becomes ``refuse(error result)``. Never raises: the one
    place where "a tool never raises" is kept (the model reads the error, the loop goes on).

    A :class:`SilcrowError` already says what to do, so its message is the
    error; anything else is unexpected and is logged with its traceback.
    """
    try:
        return run()
    except SilcrowError as exc:
        return refuse(error_result(str(exc)))
    except Exception as exc:  # a failing tool is the model's problem to read, not a crash
        log.warning("tool %s failed", tool, exc_info=True)
        return refuse(error_result(f"{tool} failed unexpectedly ({type(exc).__name__}: {exc}); "
                                   "try again later"))


def guarded(tool: str, run: Callable[[], Mapping[str, Any]]) -> dict[str, Any]:
    """:func:`contained` for a body that returns a result dict."""
    return contained(tool, lambda: dict(run()), lambda refused: refused)


# -- arguments -----------------------------------------------------------------------------


def parse_arguments(arguments: Any, *, tool: str, example: str = "") -> dict[str, Any]:
    """The arguments of a call to ``tool`` as a dict.

    ``arguments`` may be a JSON string (as the OpenAI API sends it; empty or
    blank means no arguments), ``None`` (no arguments) or a mapping. Anything
    else raises :class:`ToolCallError`; ``example`` (a JSON object as text)
    is quoted in the message to show the model a well-formed call.
    """
    hint = f"send a JSON object like {example}" if example else "send a JSON object"
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            arguments = loads(arguments)
        except json.JSONDecodeError as exc:
            raise ToolCallError(
                f"the arguments of {tool!r} are not valid JSON ({exc.msg} at position {exc.pos}); {hint}"
            ) from None
    if not isinstance(arguments, Mapping):
        raise ToolCallError(
            f"the arguments of {tool!r} must be a JSON object, not {type(arguments).__name__}; {hint}"
        )
    return dict(arguments)


# -- schemas -------------------------------------------------------------------------------


def tool_schema(
    name: str, description: str, parameters: Mapping[str, Any], fmt: SchemaFormat | str = "openai"
) -> dict[str, Any]:
    """One tool definition in format ``fmt`` (see the module doc)."""
    params = dict(parameters)
    if fmt == "openai":
        return {
            "type": "function",
            "function": {"name": name, "description": description, "parameters": params},
        }
    if fmt == "anthropic":
        return {"name": name, "description": description, "input_schema": params}
    if fmt == "bare":
        return {"name": name, "description": description, "parameters": params}
    raise ToolCallError(f"unknown tool schema format {fmt!r}: use one of {', '.join(SCHEMA_FORMATS)}")


def function_schema(
    name: str, description: str, properties: dict[str, Any], required: list[str] | None = None
) -> dict[str, Any]:
    """A tool in OpenAI function format whose arguments are an object of ``properties``."""
    params: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        params["required"] = required
    return tool_schema(name, description, params)


def _parts(schema: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    fn = schema.get("function")
    if schema.get("type") == "function" and isinstance(fn, Mapping):
        return fn.get("name"), fn.get("description"), fn.get("parameters")
    params = schema.get("input_schema", schema.get("parameters"))
    return schema.get("name"), schema.get("description"), params


def schema_name(schema: Any) -> str | None:
    """The tool name of a definition in any of the formats, or None if it has none."""
    if not isinstance(schema, Mapping):
        return None
    name = _parts(schema)[0]
    return name if isinstance(name, str) and name else None


def convert_schema(schema: Mapping[str, Any], fmt: SchemaFormat | str) -> dict[str, Any]:
    """A tool definition given in any of the formats, rewritten in format ``fmt``."""
    name, description, parameters = _parts(schema)
    if not isinstance(name, str) or not name:
        raise ToolCallError(f"a tool definition has no name: {dict(schema)!r:.120}")
    if not isinstance(parameters, Mapping):
        parameters = {"type": "object", "properties": {}}
    return tool_schema(name, str(description or ""), parameters, fmt)
