"""Loopback STAND-INS for two model APIs, each replaying a script (no model behind them).

* :class:`AnthropicMessagesStandIn`: ``POST /v1/messages`` of Anthropic's Messages API, as the
  ``anthropic`` SDK's types describe it (``anthropic/types/beta/message_create_params.py``,
  ``beta_message.py``, ``beta_tool_use_block.py``, ``beta_tool_result_block_param.py``,
  ``beta_memory_tool_20250818_param.py``): the key as ``x-api-key`` (SDK 1.x) or a bearer token
  (2.x), and an ``anthropic-version`` header;
  ``model``, ``max_tokens`` and ``messages`` required; roles alternate starting with ``user``;
  every ``tool_use`` of an assistant turn answered by a ``tool_result`` in the next user turn
  (the API's "tool_use ids were found without tool_result blocks" 400); the memory tool
  (``memory_20250818``) only with the ``context-management-2025-06-27`` beta. The 2.x SDK's
  server-held threads (``thread: {"type": "continue", "previous_message_id"}``, which send only
  the new messages; ``anthropic/lib/threads/_thread_state.py``) are held here too.
* :class:`OpenAIResponsesStandIn`: ``POST /v1/responses`` of OpenAI's Responses API, the
  Agents SDK's default (``openai/types/responses/response_create_params.py``,
  ``response.py``, ``response_function_tool_call.py``): ``Authorization: Bearer``; ``model``
  and ``input`` required; each ``function_call_output`` must answer a ``function_call`` with
  its ``call_id`` earlier in the input; tools are ``{"type": "function", "name", "parameters"}``.

Each request pops the next scripted reply; the requests are kept for the test to read (the
tool results the client sent back). A request the script did not expect is a violation.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import deque
from typing import Any

from testing_services.base import Request, StandInService

MEMORY_BETA = "context-management-2025-06-27"


class AnthropicMessagesStandIn(StandInService):
    """Replays assistant turns: each scripted item is a list of content blocks; a ``tool_use``
    block without an ``id`` gets one."""

    service = "anthropic-messages"

    def __init__(self, script: list[list[dict[str, Any]]], api_key: str = "test-key", **kw: Any) -> None:
        super().__init__(api_key, **kw)
        self.script = deque(script)
        self._ids = itertools.count(1)
        self.bodies: list[dict[str, Any]] = []
        self.threads: dict[str, list[dict[str, Any]]] = {}  # reply id -> the conversation up to it
        self.route("POST", r"/v1/messages", self._messages)

    def error_body(self, status: int, message: str) -> Any:
        return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}

    def check_auth(self, req: Request) -> None:
        # The 1.x SDK sends the key as x-api-key, 2.x as a bearer token (anthropic/_client.py).
        given = {req.headers.get("x-api-key"), req.headers.get("authorization", "").removeprefix("Bearer ")}
        if self.api_key not in given:
            raise self.violation(401, "missing or wrong x-api-key (or Authorization: Bearer) header")
        if not req.headers.get("anthropic-version"):
            raise self.violation(400, "missing anthropic-version header")

    def _messages(self, req: Request) -> Any:
        body = self.body_fields(req, "model", "max_tokens")
        if not isinstance(body.get("messages"), list):
            raise self.violation(400, "messages: field required (a list)")
        history = list(body["messages"])
        thread = body.get("thread")
        if isinstance(thread, dict) and thread.get("type") == "continue":
            held = self.threads.get(thread.get("previous_message_id"))
            if held is None:
                raise self.violation(404, "thread_not_found: no thread holds that previous_message_id")
            history = held + history
        self._check(req, body, history)
        self.bodies.append(body)
        if not self.script:
            raise self.violation(500, "the script has no more turns")
        blocks = [dict(b) for b in self.script.popleft()]
        for block in blocks:
            if block.get("type") == "tool_use":
                block.setdefault("id", f"toolu_{next(self._ids):04d}")
        tool_use = any(b.get("type") == "tool_use" for b in blocks)
        reply_id = f"msg_{next(self._ids):04d}"
        self.threads[reply_id] = [*history, {"role": "assistant", "content": blocks}]
        return {
            "id": reply_id, "type": "message", "role": "assistant",
            "model": body["model"], "content": blocks, "container": None,
            "stop_reason": "tool_use" if tool_use else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0},
        }

    def _check(self, req: Request, body: dict[str, Any], messages: list[Any]) -> None:
        if not isinstance(body["max_tokens"], int) or body["max_tokens"] < 1:
            raise self.violation(400, "max_tokens must be a positive integer")
        tools = body.get("tools") or []
        if any(t.get("type") == "memory_20250818" for t in tools):
            betas = req.headers.get("anthropic-beta", "")
            if MEMORY_BETA not in betas.split(","):
                raise self.violation(400, f"the memory tool needs the {MEMORY_BETA} beta")
            memory = next(t for t in tools if t.get("type") == "memory_20250818")
            if memory.get("name") != "memory":
                raise self.violation(400, "the memory_20250818 tool must be named 'memory'")
        if not messages:
            raise self.violation(400, "messages must be a non-empty list")
        open_calls: set[str] = set()
        for n, message in enumerate(messages):
            role = message.get("role")
            if role != ("user" if n % 2 == 0 else "assistant"):
                raise self.violation(400, f"messages.{n}: roles must alternate, starting with user")
            content = message.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            if not isinstance(blocks, list):
                raise self.violation(400, f"messages.{n}.content must be a string or a list of blocks")
            if role == "user":
                answered = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
                if open_calls - answered:
                    raise self.violation(400, f"messages.{n}: tool_use ids were found without tool_result "
                                              f"blocks immediately after: {sorted(open_calls - answered)}")
                for block in blocks:
                    if block.get("type") == "tool_result":
                        if block.get("tool_use_id") not in open_calls:
                            raise self.violation(400, f"messages.{n}: tool_result for an unknown tool_use id")
                        if not isinstance(block.get("content"), (str, list)):
                            raise self.violation(400, f"messages.{n}: tool_result content must be text")
                open_calls = set()
            else:
                open_calls = {b["id"] for b in blocks if b.get("type") == "tool_use"}

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block the client sent, in order, with its text joined."""
        seen: dict[str, dict[str, Any]] = {}
        for body in self.bodies:
            for message in body["messages"]:
                content = message["content"]
                if message["role"] != "user" or isinstance(content, str):
                    continue
                for block in content:
                    if block.get("type") == "tool_result":
                        inner = block.get("content")
                        text = inner if isinstance(inner, str) else "".join(
                            c.get("text", "") for c in inner or [])
                        seen[block["tool_use_id"]] = {"text": text, "is_error": bool(block.get("is_error"))}
        return list(seen.values())


class OpenAIResponsesStandIn(StandInService):
    """Replays model turns: each scripted item is either ``{"text": "..."}`` (a final message)
    or ``{"calls": [(name, arguments dict), ...]}`` (function calls)."""

    service = "openai-responses"

    def __init__(self, script: list[dict[str, Any]], api_key: str = "test-key", **kw: Any) -> None:
        super().__init__(api_key, **kw)
        self.script = deque(script)
        self._ids = itertools.count(1)
        self.bodies: list[dict[str, Any]] = []
        self.route("POST", r"/v1/responses", self._responses)

    def error_body(self, status: int, message: str) -> Any:
        return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}

    def _responses(self, req: Request) -> Any:
        body = self.body_fields(req, "model", "input")
        if body.get("stream"):
            raise self.violation(400, "this stand-in answers non-streaming requests only")
        given = body["input"]
        items = given if isinstance(given, list) else [{"role": "user", "content": given}]
        calls: set[str] = set()
        for n, item in enumerate(items):
            kind = item.get("type")
            if kind == "function_call":
                calls.add(item["call_id"])
            elif kind == "function_call_output":
                if item.get("call_id") not in calls:
                    raise self.violation(400, f"input[{n}]: No tool call found for function call output "
                                              f"with call_id {item.get('call_id')}")
            elif kind in (None, "message") and item.get("role") not in ("user", "assistant", "system",
                                                                        "developer"):
                raise self.violation(400, f"input[{n}]: unknown role {item.get('role')!r}")
        for tool in body.get("tools") or []:
            if tool.get("type") != "function" or not tool.get("name") or "parameters" not in tool:
                raise self.violation(400, f"a tool must be {{type: function, name, parameters}}: {tool}")
        self.bodies.append(body)
        if not self.script:
            raise self.violation(500, "the script has no more turns")
        turn = self.script.popleft()
        if "calls" in turn:
            output = []
            for name, arguments in turn["calls"]:
                n = next(self._ids)
                output.append({"type": "function_call", "id": f"fc_{n:04d}", "call_id": f"call_{n:04d}",
                               "name": name, "arguments": json.dumps(arguments), "status": "completed"})
        else:
            output = [{"type": "message", "id": f"msg_{next(self._ids):04d}", "status": "completed",
                       "role": "assistant",
                       "content": [{"type": "output_text", "text": turn["text"], "annotations": [],
                                    "logprobs": []}]}]
        return {
            "id": f"resp_{next(self._ids):04d}", "object": "response", "created_at": int(time.time()),
            "status": "completed", "model": body["model"], "output": output, "error": None,
            "incomplete_details": None, "instructions": body.get("instructions"), "metadata": {},
            "parallel_tool_calls": True, "temperature": 1.0, "top_p": 1.0, "tool_choice": "auto",
            "tools": body.get("tools") or [], "text": {"format": {"type": "text"}}, "truncation": "disabled",
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15},
        }

    def tool_outputs(self) -> dict[str, str]:
        """call_id -> the output the client sent back for it."""
        out: dict[str, str] = {}
        for body in self.bodies:
            for item in body["input"] if isinstance(body["input"], list) else []:
                if item.get("type") == "function_call_output":
                    out[item["call_id"]] = item["output"] if isinstance(item["output"], str) else json.dumps(
                        item["output"])
        return out
