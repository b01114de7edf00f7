"""A scripted stand-in for Anthropic's Messages API (``POST /v1/messages``), non-streaming.

It checks what the ``anthropic`` SDK sends against the SDK's own request types
(``anthropic/types/beta/message_create_params.py``, ``beta_message_param.py``,
``beta_text_block_param.py``, ``beta_tool_use_block_param.py``,
``beta_tool_result_block_param.py``, ``beta_tool_param.py``,
``beta_memory_tool_20250818_param.py``) and the API's documented refusals, and answers in the
shape of ``anthropic/types/beta/beta_message.py``. The 2.x SDK's server-held threads
(``thread: {"type": "continue", "previous_message_id"}``, which send only the new messages;
``anthropic/lib/threads/_thread_state.py``) are held too.
"""

from __future__ import annotations

import re
from typing import Any

from silcrow.testing._chat import STAND_IN_MODEL, _estimate_tokens
from silcrow.testing._wire import Refused, ScriptedAPIServer

MEMORY_BETA = "context-management-2025-06-27"

# MessageCreateParamsBase's fields (beta and GA), the streaming flag, the sampling settings
# older and newer SDKs send, and the 2.x SDK's thread: the API refuses any other top-level key.
_PARAMS = frozenset({
    "betas", "cache_control", "compaction", "container", "context_management", "diagnostics",
    "fallback_credit_token", "fallbacks", "inference_geo", "max_tokens", "mcp_servers", "messages",
    "metadata", "model", "output_config", "output_format", "service_tier", "speed", "stop_sequences",
    "stream", "system", "temperature", "thinking", "thread", "tool_choice", "tools", "top_k", "top_p",
    "user_profile_id", "workspace_id",
})
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}\Z")  # BetaToolParam.name, as the API checks it
# What each block a client builds must hold (the Required fields of its *BlockParam).
_BLOCK_FIELDS: dict[str, dict[str, type]] = {
    "text": {"text": str}, "tool_use": {"id": str, "name": str, "input": dict},
    "tool_result": {"tool_use_id": str}, "image": {"source": dict}, "document": {"source": dict},
    "thinking": {"thinking": str, "signature": str},
}


class ScriptedMessagesServer(ScriptedAPIServer):
    """A stand-in for Anthropic's Messages API that replays a script. NOT a model.

    Each request takes the next scripted reply, in :class:`ScriptedModelServer`'s shape:
    ``{"content": "text"}`` (a text block, ``stop_reason: end_turn``), ``{"tool_calls":
    [{"name": "memory", "arguments": {...}}]}`` (``tool_use`` blocks, ``stop_reason:
    tool_use``; ``content`` may come with them), ``{"error": {"status": 529, ...}}`` or a
    callable ``f(request_body) -> reply``. Requests the real API would refuse (a missing
    ``anthropic-version``, an unknown parameter, a ``tool_use`` left unanswered, a
    ``tool_result`` that is not first in its turn, the memory tool without its beta...) are
    answered with its error and listed in ``violations``. Streaming is not served.

    ``base_url`` is what ``anthropic.Anthropic(base_url=...)`` or ``ANTHROPIC_BASE_URL`` take.
    """

    api = "Anthropic Messages API"
    route = "/v1/messages"
    thread_name = "scripted-messages"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._threads: dict[str, list[dict[str, Any]]] = {}  # reply id -> the conversation to it

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` (the SDK adds ``/v1/messages``)."""
        return self._origin()

    def error_payload(self, message: str, kind: str) -> dict[str, Any]:
        return {"type": "error", "error": {"type": kind, "message": message}}

    def check_headers(self, headers: dict[str, str]) -> None:
        # The 1.x SDK sends the key as x-api-key, 2.x as a bearer token (anthropic/_client.py).
        if not self._key_given(headers, "x-api-key", "authorization"):
            raise Refused(401, "x-api-key header is required (or it is not the key this server was given)",
                          "authentication_error")
        if not headers.get("anthropic-version"):
            raise Refused(400, "anthropic-version: header is required")

    def check_body(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        unknown = sorted(set(body) - _PARAMS)
        if unknown:
            raise Refused(400, f"{unknown[0]}: Extra inputs are not permitted")
        if body.get("stream"):
            raise Refused(400, "stream: this stand-in answers non-streaming requests only; call "
                               "messages.create without stream=True")
        if not isinstance(body.get("model"), str) or not body["model"]:
            raise Refused(400, "model: Field required")
        if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
            raise Refused(400, "max_tokens: Field required (an integer of at least 1)")
        if not isinstance(body.get("messages"), list):
            raise Refused(400, "messages: Field required (a list)")
        system = body.get("system")
        if system is not None and not isinstance(system, str):
            if not isinstance(system, list) or any(not isinstance(b, dict) or b.get("type") != "text"
                                                   or not isinstance(b.get("text"), str) for b in system):
                raise Refused(400, "system: must be a string or a list of text blocks")
        # The SDK moves `betas` into the anthropic-beta header.
        betas = {b.strip() for b in headers.get("anthropic-beta", "").split(",")}
        betas |= set(body.get("betas") or [])
        names = self._check_tools(body.get("tools"), betas)
        choice = body.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "tool" and choice.get("name") not in names:
            raise Refused(400, f"tool_choice: tool {choice.get('name')!r} not found in tools")
        self._check_messages(self._history(body))

    @staticmethod
    def _check_tools(tools: Any, betas: set[str]) -> set[str]:
        if tools is None:
            return set()
        if not isinstance(tools, list):
            raise Refused(400, "tools: must be a list")
        names: set[str] = set()
        for n, tool in enumerate(tools):
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                raise Refused(400, f"tools.{n}.name: Field required")
            kind = tool.get("type", "custom")
            if kind == "custom":
                if not _TOOL_NAME.match(tool["name"]):
                    raise Refused(400, f"tools.{n}.name: String should match pattern "
                                       "'^[a-zA-Z0-9_-]{1,128}$'")
                schema = tool.get("input_schema")
                if not isinstance(schema, dict) or schema.get("type") != "object":
                    raise Refused(400, f"tools.{n}.input_schema: Field required (a JSON schema "
                                       "of type object)")
            elif kind == "memory_20250818":
                if tool["name"] != "memory":
                    raise Refused(400, f"tools.{n}.name: the memory_20250818 tool must be named 'memory'")
                if MEMORY_BETA not in betas:
                    raise Refused(400, f"tools.{n}: the memory tool needs the {MEMORY_BETA} beta")
            if tool["name"] in names:
                raise Refused(400, f"tools: Tool names must be unique ({tool['name']!r} twice)")
            names.add(tool["name"])
        return names

    def _history(self, body: dict[str, Any]) -> list[Any]:
        thread = body.get("thread")
        if isinstance(thread, dict) and thread.get("type") == "continue":
            with self._lock:
                held = self._threads.get(str(thread.get("previous_message_id")))
            if held is None:
                raise Refused(404, "thread: no thread holds that previous_message_id", "not_found_error")
            return held + list(body["messages"])
        return list(body["messages"])

    def _check_messages(self, messages: list[Any]) -> None:
        if not messages:
            raise Refused(400, "messages: at least one message is required")
        turns: list[tuple[str, list[dict[str, Any]]]] = []
        for n, message in enumerate(messages):
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                raise Refused(400, f"messages.{n}.role: Input should be 'user' or 'assistant'")
            extra = sorted(set(message) - {"role", "content"})
            if extra:
                raise Refused(400, f"messages.{n}.{extra[0]}: Extra inputs are not permitted")
            content = message.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            if not isinstance(blocks, list):
                raise Refused(400, f"messages.{n}.content: must be a string or a list of content blocks")
            for i, block in enumerate(blocks):
                self._check_block(block, f"messages.{n}.content.{i}")
            # The API joins consecutive turns of one role into one turn.
            if turns and turns[-1][0] == message["role"]:
                turns[-1][1].extend(blocks)
            else:
                turns.append((message["role"], list(blocks)))
        if turns[0][0] != "user":
            raise Refused(400, 'messages: first message must use the "user" role')
        asked: set[str] = set()
        for n, (role, blocks) in enumerate(turns):
            results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
            if role == "assistant":
                if results:
                    raise Refused(400, f"turn {n}: tool_result blocks belong in a user turn")
                asked = {b["id"] for b in blocks if b["type"] == "tool_use"}
                continue
            missing = sorted(asked - set(results))
            if asked and missing:
                raise Refused(400, f"messages.{n}: `tool_use` ids were found without `tool_result` blocks "
                                   f"immediately after: {', '.join(missing)}. Each `tool_use` block must "
                                   "have a corresponding `tool_result` block in the next message.")
            stray = sorted(set(results) - asked)
            if stray:
                raise Refused(400, f"messages.{n}: unexpected `tool_use_id` found in `tool_result` blocks: "
                                   f"{', '.join(stray)}. Each `tool_result` block must have a corresponding "
                                   "`tool_use` block in the previous message.")
            if results and any(b["type"] != "tool_result" for b in blocks[:len(results)]):
                raise Refused(400, f"messages.{n}: tool_result blocks must come FIRST in the content array")
            asked = set()
        if asked:
            # A conversation may end on an assistant turn (a prefill), but not on an unanswered tool_use.
            raise Refused(400, "the last assistant turn's `tool_use` blocks have no `tool_result` after them")

    @staticmethod
    def _check_block(block: Any, where: str) -> None:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise Refused(400, f"{where}.type: Field required")
        for name, kind in _BLOCK_FIELDS.get(block["type"], {}).items():
            if not isinstance(block.get(name), kind):
                raise Refused(400, f"{where}.{block['type']}.{name}: Field required ({kind.__name__})")
        if block["type"] == "text" and not block["text"]:
            raise Refused(400, f"{where}: text content blocks must be non-empty")
        if block["type"] == "tool_result" and not isinstance(block.get("content", ""), str | list):
            raise Refused(400, f"{where}.tool_result.content: must be a string or a list of blocks")

    def reply(self, body: dict[str, Any], scripted: dict[str, Any]) -> dict[str, Any]:
        blocks: list[dict[str, Any]] = []
        if scripted.get("content") or not scripted.get("tool_calls"):
            blocks.append({"type": "text", "text": scripted.get("content") or "", "citations": None})
        for call in scripted.get("tool_calls") or []:
            arguments = call.get("arguments", {})
            if not isinstance(arguments, dict):
                raise Refused(500, "a tool call's arguments must be a dict for the Messages API",
                              "api_error", violation=False)
            blocks.append({"type": "tool_use", "id": call.get("id") or self.new_id("toolu"),
                           "name": call["name"], "input": arguments})
        reply_id = self.new_id("msg")
        conversation = [*self._history(body), {"role": "assistant", "content": blocks}]
        with self._lock:
            self._threads[reply_id] = conversation
        prompt = _estimate_tokens(str(body.get("system") or "") + str(body["messages"]))
        return {
            "id": reply_id, "type": "message", "role": "assistant", "model": STAND_IN_MODEL,
            "content": blocks, "container": None, "stop_sequence": None,
            "stop_reason": "tool_use" if scripted.get("tool_calls") else "end_turn",
            "usage": {"input_tokens": prompt, "output_tokens": _estimate_tokens(str(blocks)),
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }

    def tool_results(self) -> list[dict[str, Any]]:
        """Each ``tool_result`` the client sent back, once, in order: ``{"text", "is_error"}``
        (the text of its content joined)."""
        seen: dict[str, dict[str, Any]] = {}
        for body in self.requests:
            for message in body["messages"]:
                if message["role"] != "user" or isinstance(message["content"], str):
                    continue
                for block in message["content"]:
                    if block.get("type") == "tool_result":
                        inner = block.get("content") or ""
                        text = inner if isinstance(inner, str) else "".join(
                            part.get("text", "") for part in inner)
                        seen[block["tool_use_id"]] = {"text": text, "is_error": bool(block.get("is_error"))}
        return list(seen.values())
