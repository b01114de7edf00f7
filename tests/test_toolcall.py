"""The shared tool-call plumbing: result JSON, argument parsing, schema formats."""

from __future__ import annotations

import json
from typing import Any

import pytest

from silcrow._toolcall import (
    convert_schema,
    error_json,
    guarded,
    is_success,
    ok_json,
    parse_arguments,
    schema_name,
    tool_schema,
)
from silcrow.errors import SilcrowError, StoreError, ToolCallError

PARAMS = {"type": "object", "properties": {"q": {"type": "string"}}}


def test_results_keep_non_ascii_text_readable() -> None:
    assert error_json("café — 東京") == '{"success": false, "error": "café — 東京"}'
    assert json.loads(error_json("no", hint="x")) == {"success": False, "error": "no", "hint": "x"}
    assert json.loads(ok_json(results=["ü"])) == {"success": True, "results": ["ü"]}
    assert "ü" in ok_json(results=["ü"])


@pytest.mark.parametrize(("raw", "expected"), [
    ('{"a": 1}', {"a": 1}),
    ({"a": 1}, {"a": 1}),
    ("", {}),
    ("   ", {}),
    (None, {}),
])
def test_arguments_may_be_text_or_an_object(raw: Any, expected: dict[str, Any]) -> None:
    assert parse_arguments(raw, tool="t") == expected


@pytest.mark.parametrize(("raw", "needle"), [
    ("{not json", "not valid JSON (Expecting property name enclosed in double quotes at position 1)"),
    ("[1, 2]", "must be a JSON object, not list"),
    (42, "must be a JSON object, not int"),
])
def test_bad_arguments_say_what_to_send(raw: Any, needle: str) -> None:
    with pytest.raises(ToolCallError) as info:
        parse_arguments(raw, tool="memory", example='{"target": "memory"}')
    message = str(info.value)
    assert needle in message and "'memory'" in message
    assert message.endswith('send a JSON object like {"target": "memory"}')
    assert isinstance(info.value, SilcrowError)


def test_guarded_turns_exceptions_into_error_results() -> None:
    def refused() -> dict[str, Any]:
        raise StoreError("the file is locked; try again")

    def broken() -> dict[str, Any]:
        raise KeyError("x")

    assert guarded("t", lambda: {"success": True}) == {"success": True}
    assert guarded("t", refused) == {"success": False, "error": "the file is locked; try again"}
    result = guarded("the memory tool", broken)
    assert result["success"] is False
    assert result["error"] == "the memory tool failed unexpectedly (KeyError: 'x'); try again later"


def test_only_a_literal_true_is_success() -> None:
    assert is_success({"success": True})
    assert not is_success({"success": "yes"}) and not is_success({}) and not is_success({"success": 1})


def test_one_definition_in_every_format() -> None:
    openai = tool_schema("find", "Find things.", PARAMS)
    assert openai == {"type": "function",
                      "function": {"name": "find", "description": "Find things.", "parameters": PARAMS}}
    anthropic = tool_schema("find", "Find things.", PARAMS, "anthropic")
    assert anthropic == {"name": "find", "description": "Find things.", "input_schema": PARAMS}
    bare = tool_schema("find", "Find things.", PARAMS, "bare")
    assert bare == {"name": "find", "description": "Find things.", "parameters": PARAMS}
    for schema in (openai, anthropic, bare):
        assert schema_name(schema) == "find"
        for fmt, want in (("openai", openai), ("anthropic", anthropic), ("bare", bare)):
            assert convert_schema(schema, fmt) == want
    with pytest.raises(ToolCallError, match="unknown tool schema format 'gemini'"):
        tool_schema("find", "", PARAMS, "gemini")


def test_names_of_malformed_definitions() -> None:
    assert schema_name({"type": "function", "function": {"description": "no name"}}) is None
    assert schema_name("memory") is None
    assert schema_name({"name": ""}) is None
    with pytest.raises(ToolCallError, match="has no name"):
        convert_schema({"description": "x"}, "bare")
