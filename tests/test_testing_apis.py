"""The Messages, Responses and Gemini API stand-ins answer their clients, and refuse what the real
APIs refuse (each refusal listed in ``violations``), so a client bug cannot pass a test."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx
import openai
import pytest

from silcrow.testing import (
    STAND_IN_MODEL,
    ScriptedGeminiServer,
    ScriptedMessagesServer,
    ScriptedResponsesServer,
)

TOOL = {"name": "lookup", "description": "Look a word up.",
        "input_schema": {"type": "object", "properties": {"word": {"type": "string"}}}}
FUNCTION = {"type": "function", "name": "lookup", "description": "Look a word up.", "strict": False,
            "parameters": {"type": "object", "properties": {"word": {"type": "string"}}}}


def test_messages_a_tool_round_trip_through_the_sdk() -> None:
    script = [{"tool_calls": [{"name": "lookup", "arguments": {"word": "silcrow"}}]},
              lambda body: {"content": "seen: " + body["messages"][-1]["content"][0]["content"]}]
    with ScriptedMessagesServer(script, api_key="k") as api:
        client = anthropic.Anthropic(api_key="k", base_url=api.base_url, max_retries=0)
        messages: list[Any] = [{"role": "user", "content": "What is a silcrow?"}]
        first = client.messages.create(model="claude-x", max_tokens=100, tools=[TOOL], messages=messages)
        assert first.stop_reason == "tool_use" and first.model == STAND_IN_MODEL
        call = first.content[0]
        assert call.type == "tool_use" and call.input == {"word": "silcrow"}
        messages += [{"role": "assistant", "content": first.content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id,
                                                   "content": "the sign §"}]}]
        second = client.messages.create(model="claude-x", max_tokens=100, tools=[TOOL], messages=messages)
        assert second.content[0].type == "text" and second.content[0].text == "seen: the sign §"
        assert api.violations == [] and api.remaining == 0
        assert api.tool_results() == [{"text": "the sign §", "is_error": False}]


@pytest.mark.parametrize(("body", "wanted"), [
    ({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}], "temprature": 1},
     "temprature: Extra inputs are not permitted"),
    ({"model": "m", "messages": [{"role": "user", "content": "hi"}]}, "max_tokens: Field required"),
    ({"model": "m", "max_tokens": 5, "messages": [{"role": "assistant", "content": "hi"}]},
     'first message must use the "user" role'),
    ({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": "and?"}]}, "`tool_use` ids were found without `tool_result`"),
    ({"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [{"type": "text", "text": "x"},
                                     {"type": "tool_result", "tool_use_id": "t1", "content": "y"}]}]},
     "tool_result blocks must come FIRST"),
    ({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
      "tools": [{"type": "memory_20250818", "name": "memory"}]}, "needs the context-management"),
    ({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
      "tools": [TOOL, TOOL]}, "Tool names must be unique"),
])
def test_messages_refuses_what_the_api_refuses(body: dict[str, Any], wanted: str) -> None:
    with ScriptedMessagesServer([{"content": "never sent"}]) as api:
        answer = httpx.post(api.base_url + "/v1/messages", json=body,
                            headers={"x-api-key": "k", "anthropic-version": "2023-06-01"})
        assert answer.status_code == 400
        assert answer.json()["type"] == "error" and wanted in answer.json()["error"]["message"]
        assert len(api.violations) == 1 and wanted in api.violations[0]
        assert api.remaining == 1 and api.requests == []


def test_messages_needs_a_key_and_a_version() -> None:
    with ScriptedMessagesServer([{"content": "x"}]) as api:
        body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
        assert httpx.post(api.base_url + "/v1/messages", json=body,
                          headers={"anthropic-version": "2023-06-01"}).status_code == 401
        unversioned = httpx.post(api.base_url + "/v1/messages", json=body, headers={"x-api-key": "k"})
        assert unversioned.status_code == 400
        assert len(api.violations) == 2


def test_responses_a_function_call_round_trip_through_the_sdk() -> None:
    script = [{"tool_calls": [{"name": "lookup", "arguments": {"word": "silcrow"}}]}, {"content": "done"}]
    with ScriptedResponsesServer(script, api_key="k") as api:
        client = openai.OpenAI(api_key="k", base_url=api.base_url, max_retries=0)
        first = client.responses.create(model="gpt-x", input="What is a silcrow?", tools=[FUNCTION])
        call = first.output[0]
        assert call.type == "function_call" and json.loads(call.arguments) == {"word": "silcrow"}
        second = client.responses.create(model="gpt-x", previous_response_id=first.id, tools=[FUNCTION],
                                         input=[{"type": "function_call_output", "call_id": call.call_id,
                                                 "output": "the sign §"}])
        assert second.output_text == "done"
        assert api.violations == [] and api.tool_outputs() == {call.call_id: "the sign §"}


@pytest.mark.parametrize(("body", "wanted"), [
    ({"model": "m", "input": "hi", "max_tokens": 5}, "Unknown parameter: 'max_tokens'"),
    ({"model": "m", "input": [{"type": "function_call_output", "call_id": "c1", "output": "x"}]},
     "No tool call found for function call output with call_id c1"),
    ({"model": "m", "input": [{"role": "user", "content": "hi"},
                              {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}]},
     "No tool output found for function call c1"),
    ({"model": "m", "input": [{"role": "user", "content": [{"type": "output_text", "text": "hi"}]}]},
     "Invalid value: 'output_text'"),
    ({"model": "m", "input": "hi", "previous_response_id": "resp_nope"}, "'resp_nope' not found"),
    ({"model": "m", "input": "hi", "tools": [{"type": "function", "name": "a b", "parameters": {}}]},
     "tools[0].name"),
])
def test_responses_refuses_what_the_api_refuses(body: dict[str, Any], wanted: str) -> None:
    with ScriptedResponsesServer([{"content": "never sent"}]) as api:
        answer = httpx.post(api.base_url + "/responses", json=body, headers={"Authorization": "Bearer k"})
        assert answer.status_code in (400, 404)
        assert wanted in answer.json()["error"]["message"]
        assert len(api.violations) == 1 and api.remaining == 1


def test_an_exhausted_script_fails_at_once_and_says_so() -> None:
    with ScriptedResponsesServer([]) as api:
        client = openai.OpenAI(api_key="k", base_url=api.base_url)  # retries on: x-should-retry stops them
        with pytest.raises(openai.InternalServerError, match="script exhausted"):
            client.responses.create(model="m", input="hi")
        assert len(api.requests) == 1 and api.violations == []


GEMINI = "/v1beta/models/gemini-x:generateContent"
CALL = {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {}}}]}


def test_gemini_answers_text_and_function_calls() -> None:
    script = [{"tool_calls": [{"name": "lookup", "arguments": {"word": "silcrow"}}]}, {"content": "done"}]
    with ScriptedGeminiServer(script) as api:
        first = httpx.post(api.base_url + GEMINI, headers={"x-goog-api-key": "k"},
                           json={"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}).json()
        call = first["candidates"][0]["content"]["parts"][0]["functionCall"]
        assert call["name"] == "lookup" and call["args"] == {"word": "silcrow"}
        answer = {"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"r": 1}}}]}
        second = httpx.post(api.base_url + GEMINI, headers={"x-goog-api-key": "k"}, json={"contents": [
            {"role": "user", "parts": [{"text": "hi"}]}, first["candidates"][0]["content"], answer]}).json()
        assert second["candidates"][0]["content"]["parts"] == [{"text": "done"}]
        assert api.violations == [] and api.remaining == 0


@pytest.mark.parametrize(("body", "wanted"), [
    ({"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "temperature": 1},
     'Unknown name "temperature"'),
    ({"contents": [{"role": "assistant", "parts": [{"text": "hi"}]}]}, "valid role"),
    ({"contents": [{"role": "user", "parts": [{"text": "hi"}]}, CALL,
                   {"role": "user", "parts": [{"text": "and?"}]}]}, "number of function response parts"),
    ({"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}]},
     "function response turn comes immediately after a function call turn"),
])
def test_gemini_refuses_what_the_api_refuses(body: dict[str, Any], wanted: str) -> None:
    with ScriptedGeminiServer([{"content": "never sent"}]) as api:
        answer = httpx.post(api.base_url + GEMINI, json=body, headers={"x-goog-api-key": "k"})
        assert answer.status_code == 400 and wanted in answer.json()["error"]["message"]
        assert answer.json()["error"]["status"] == "INVALID_ARGUMENT"
        assert len(api.violations) == 1 and api.remaining == 1
        assert httpx.post(api.base_url + GEMINI, json=body).status_code == 401  # no key
