"""A scripted stand-in for OpenAI's Responses API (``POST /v1/responses``), non-streaming: the
API the OpenAI Agents SDK calls by default.

It checks what the ``openai`` SDK sends against the SDK's own request types
(``openai/types/responses/response_create_params.py``, ``response_input_param.py``,
``easy_input_message_param.py``, ``response_output_message_param.py``,
``response_function_tool_call_param.py``, ``function_tool_param.py``) and the API's
documented refusals, and answers in the shape of ``openai/types/responses/response.py``
(``response_output_message.py``, ``response_function_tool_call.py``).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from silcrow.testing._chat import STAND_IN_MODEL, _estimate_tokens
from silcrow.testing._wire import Refused, ScriptedAPIServer

# ResponseCreateParamsBase's fields and the streaming flag: the API refuses any other key.
_PARAMS = frozenset({
    "access_programs", "background", "background_options", "context_management", "conversation", "image",
    "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata", "model",
    "moderation", "parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key",
    "prompt_cache_options", "prompt_cache_retention", "reasoning", "safety_identifier", "service_tier",
    "store", "stream", "stream_options", "temperature", "text", "tool_choice", "tools", "top_logprobs",
    "top_p", "truncation", "user",
})
_FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}\Z")
# The content parts each role may send (the input_* parts for what people and the system say,
# what the model said as output_text or refusal).
_PARTS = {"user": {"input_text", "input_image", "input_file"},
          "system": {"input_text", "input_image", "input_file"},
          "developer": {"input_text", "input_image", "input_file"},
          "assistant": {"output_text", "refusal"}}


class ScriptedResponsesServer(ScriptedAPIServer):
    """A stand-in for OpenAI's Responses API that replays a script. NOT a model.

    Each request takes the next scripted reply, in :class:`ScriptedModelServer`'s shape:
    ``{"content": "text"}`` (an output message), ``{"tool_calls": [{"name": "memory",
    "arguments": {...}}]}`` (``function_call`` items), ``{"error": {"status": 500, ...}}`` or
    a callable ``f(request_body) -> reply``. Requests the real API would refuse (an unknown
    parameter, a ``function_call_output`` without its ``function_call``, a ``function_call``
    left without output, an ``output_text`` part in a user message, an unknown
    ``previous_response_id``...) are answered with its error and listed in ``violations``.
    Streaming is not served.

    ``base_url`` is what ``openai.OpenAI(base_url=...)`` or ``OPENAI_BASE_URL`` take.
    """

    api = "OpenAI Responses API"
    route = "/v1/responses"
    thread_name = "scripted-responses"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stored: dict[str, list[dict[str, Any]]] = {}  # response id -> its input and output

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT/v1``."""
        return self._origin() + "/v1"

    def error_payload(self, message: str, kind: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def check_headers(self, headers: dict[str, str]) -> None:
        if not headers.get("authorization", "").startswith("Bearer ") or not self._key_given(
                headers, "authorization"):
            raise Refused(401, "Incorrect API key provided (an Authorization: Bearer header is required)",
                          "invalid_request_error")

    def check_body(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        unknown = sorted(set(body) - _PARAMS)
        if unknown:
            raise Refused(400, f"Unknown parameter: '{unknown[0]}'.")
        if body.get("stream"):
            raise Refused(400, "stream: this stand-in answers non-streaming requests only")
        if not isinstance(body.get("model"), str) or not body["model"]:
            raise Refused(400, "Missing required parameter: 'model'.")
        if not isinstance(body.get("input"), str | list):
            raise Refused(400, "Missing required parameter: 'input' (a string or a list of items).")
        instructions = body.get("instructions")
        if instructions is not None and not isinstance(instructions, str):
            raise Refused(400, "Invalid type for 'instructions': expected a string.")
        names = self._check_tools(body.get("tools"))
        choice = body.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "function" and choice.get("name") not in names:
            raise Refused(400, f"Tool choice '{choice.get('name')}' not found in 'tools' parameter.")
        self._check_input(self._history(body))

    @staticmethod
    def _check_tools(tools: Any) -> set[str]:
        if tools is None:
            return set()
        if not isinstance(tools, list):
            raise Refused(400, "Invalid type for 'tools': expected an array.")
        names: set[str] = set()
        for n, tool in enumerate(tools):
            if not isinstance(tool, dict) or not isinstance(tool.get("type"), str):
                raise Refused(400, f"Missing required parameter: 'tools[{n}].type'.")
            if tool["type"] != "function":
                continue
            name = tool.get("name")
            if not isinstance(name, str) or not _FUNCTION_NAME.match(name):
                raise Refused(400, f"Invalid 'tools[{n}].name': expected a string matching "
                                   "'^[a-zA-Z0-9_-]+$' of at most 64 characters.")
            parameters = tool.get("parameters")
            if parameters is not None and (not isinstance(parameters, dict)
                                           or parameters.get("type") != "object"):
                raise Refused(400, f"Invalid schema for function '{name}': schema must be a JSON Schema "
                                   "of 'type: \"object\"'.")
            if name in names:
                raise Refused(400, f"Duplicate function name '{name}' in 'tools'.")
            names.add(name)
        return names

    def _history(self, body: dict[str, Any]) -> list[Any]:
        given = body["input"]
        items = [{"role": "user", "content": given}] if isinstance(given, str) else list(given)
        previous = body.get("previous_response_id")
        if previous is None:
            return items
        with self._lock:
            held = self._stored.get(str(previous))
        if held is None:
            raise Refused(404, f"Previous response with id '{previous}' not found.")
        return held + items

    @staticmethod
    def _check_input(items: list[Any]) -> None:
        calls: dict[str, bool] = {}  # call_id -> answered
        for n, item in enumerate(items):
            if not isinstance(item, dict):
                raise Refused(400, f"Invalid type for 'input[{n}]': expected an object.")
            kind = item.get("type", "message")
            if kind == "message":
                role = item.get("role")
                if role not in _PARTS:
                    raise Refused(400, f"Invalid value: '{role}'. Supported values are: 'assistant', "
                                       f"'system', 'developer', and 'user'. (input[{n}].role)")
                content = item.get("content")
                if isinstance(content, str):
                    continue
                if not isinstance(content, list):
                    raise Refused(400, f"Invalid type for 'input[{n}].content': expected a string or "
                                       "an array.")
                for i, part in enumerate(content):
                    ptype = part.get("type") if isinstance(part, dict) else None
                    if ptype not in _PARTS[role]:
                        raise Refused(400, f"Invalid value: '{ptype}'. Supported values are: "
                                           f"{sorted(_PARTS[role])}. (input[{n}].content[{i}].type)")
                    if ptype in ("input_text", "output_text") and not isinstance(part.get("text"), str):
                        raise Refused(400, f"Missing required parameter: 'input[{n}].content[{i}].text'.")
            elif kind == "function_call":
                for field in ("call_id", "name", "arguments"):
                    if not isinstance(item.get(field), str):
                        raise Refused(400, f"Missing required parameter: 'input[{n}].{field}'.")
                calls[item["call_id"]] = False
            elif kind == "function_call_output":
                if item.get("call_id") not in calls:
                    raise Refused(400, f"No tool call found for function call output with call_id "
                                       f"{item.get('call_id')}.")
                if not isinstance(item.get("output"), str | list):
                    raise Refused(400, f"Missing required parameter: 'input[{n}].output'.")
                calls[item["call_id"]] = True
        unanswered = [call for call, answered in calls.items() if not answered]
        if unanswered:
            raise Refused(400, f"No tool output found for function call {unanswered[0]}.")

    def reply(self, body: dict[str, Any], scripted: dict[str, Any]) -> dict[str, Any]:
        output: list[dict[str, Any]] = []
        if scripted.get("content") or not scripted.get("tool_calls"):
            output.append({"type": "message", "id": self.new_id("msg"), "status": "completed",
                           "role": "assistant", "content": [{
                               "type": "output_text", "text": scripted.get("content") or "",
                               "annotations": [], "logprobs": []}]})
        for call in scripted.get("tool_calls") or []:
            arguments = call.get("arguments", {})
            output.append({"type": "function_call", "id": self.new_id("fc"),
                           "call_id": call.get("id") or self.new_id("call"), "name": call["name"],
                           "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                           "status": "completed"})
        response_id = self.new_id("resp")
        if body.get("store", True):
            conversation = [*self._history(body), *output]
            with self._lock:
                self._stored[response_id] = conversation
        prompt = _estimate_tokens(json.dumps([body.get("instructions"), body["input"], body.get("tools")]))
        completion = _estimate_tokens(json.dumps(output))
        return {
            "id": response_id, "object": "response", "created_at": int(time.time()), "status": "completed",
            "model": STAND_IN_MODEL, "output": output, "error": None, "incomplete_details": None,
            "instructions": body.get("instructions"), "metadata": body.get("metadata") or {},
            "parallel_tool_calls": body.get("parallel_tool_calls", True), "temperature": 1.0, "top_p": 1.0,
            "tool_choice": body.get("tool_choice", "auto"), "tools": body.get("tools") or [],
            "text": {"format": {"type": "text"}}, "truncation": "disabled",
            "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": completion, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": prompt + completion},
        }

    def tool_outputs(self) -> dict[str, str]:
        """``call_id`` -> the output the client sent back for that function call (JSON text
        when it sent a list of parts)."""
        out: dict[str, str] = {}
        for body in self.requests:
            for item in body["input"] if isinstance(body["input"], list) else []:
                if item.get("type") == "function_call_output":
                    output = item["output"]
                    out[item["call_id"]] = output if isinstance(output, str) else json.dumps(output)
        return out
