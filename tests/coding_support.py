"""The real Claude Code and Codex CLIs against loopback stand-ins of their model APIs.

``make node-clients`` installs ``@anthropic-ai/claude-code`` and ``@openai/codex`` from npm into
``.node-clients``; the tests run them non-interactively (``claude -p``, ``codex exec``) in a
throw-away HOME, offline, with their model endpoint pointed at one of the servers here:

- :class:`FakeAnthropic` speaks the Anthropic Messages API (``POST /v1/messages``, streamed as
  server-sent events ``message_start``, ``content_block_start``/``_delta``/``_stop``,
  ``message_delta``, ``message_stop``; or one JSON message). Its events follow the SDK's types
  ``anthropic/types/raw_message_stream_event.py`` (and the ``Raw*Event`` modules beside it), and
  the tests check each one against them.
- :class:`FakeResponses` speaks the OpenAI Responses API (``POST /v1/responses``, streamed as
  ``response.created``, ``response.output_item.added``/``.done``, ``response.completed``),
  following ``openai/types/responses/response_stream_event.py``.

Both record every request body: what the client really sent its model (tool definitions,
system prompt, messages) is what the tests look at. Each replies from a small script: a tool
call when the request asks for one (see ``tool_call``), else a fixed text.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import cpu_support
import pytest

from silcrow._loopback import LoopbackServer

ROOT = Path(__file__).resolve().parents[1]
NODE_BIN = ROOT / ".node-clients" / "node_modules" / ".bin"
REPLY = "stand-in reply"

#: What makes the clients run offline here: no telemetry, error reports, update checks, or
#: calls home; the key is a dummy (the stand-in takes any).
CLAUDE_ENV = {
    "ANTHROPIC_API_KEY": "sk-ant-stand-in",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "ENABLE_CLAUDEAI_MCP_SERVERS": "false",
}


def client_binary(name: str) -> Path:
    """The installed CLI ``name`` (claude or codex), or a skip that says how to install it."""
    path = NODE_BIN / name
    if not path.exists() or shutil.which("node") is None:
        pytest.skip(f"{name} is not installed: run `make node-clients` (needs node and the npm registry)")
    reason = _cpu_refuses(path)
    if reason:
        pytest.skip(reason)
    return path


@functools.cache
def _cpu_refuses(path: Path) -> str:
    """Why the prebuilt CLI at ``path`` cannot run on this CPU ('' when ``--version`` runs)."""
    try:
        cpu_support.starts_or_skip([str(path), "--version"], f"{path.name} ({path.resolve().name})")
    except cpu_support.CpuUnsupported as exc:
        return str(exc)
    return ""


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment a client runs in: this HOME, no proxy or real keys from outside.
    PYTHONPATH is kept, so the silcrow the client starts (hooks, MCP server) is the one under test."""
    keep = {
        k: v
        for k, v in os.environ.items()
        if k in ("PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "SYSTEMROOT", "PYTHONPATH")
    }
    return {
        **keep,
        "HOME": str(home),
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        **extra,
    }


ToolCall = Callable[[dict[str, Any]], tuple[str, dict[str, Any]] | None]


class _Recorder(LoopbackServer):
    def __init__(self, tool_call: ToolCall | None = None) -> None:
        super().__init__()
        self.requests: list[dict[str, Any]] = []
        self.tool_call = tool_call
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def record(self, path: str, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append({"path": path, "body": body})

    def bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r["body"] for r in self.requests]


def _handler(
    server: _Recorder, answer: Callable[[BaseHTTPRequestHandler, dict[str, Any]], None]
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
            return

        def _json(self, status: int, data: Any) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._json(200, {"data": [], "object": "list"})  # model lists, health checks

        do_HEAD = do_GET

        def do_POST(self) -> None:  # noqa: N802
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                self._json(400, {"error": {"message": "body is not JSON"}})
                return
            server.record(self.path, body)
            answer(self, body)

        def sse(self) -> Callable[[str, dict[str, Any]], None]:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True

            def event(name: str, data: dict[str, Any]) -> None:
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()

            return event

    return Handler


class FakeAnthropic(_Recorder):
    """The Anthropic Messages API on loopback (see the module docstring)."""

    thread_name = "fake-anthropic"

    def __init__(self, tool_call: ToolCall | None = None) -> None:
        super().__init__(tool_call)
        self.events: list[dict[str, Any]] = []  # every streamed event, for the SDK type check

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        return _handler(self, self._answer)

    def _answer(self, handler: Any, body: dict[str, Any]) -> None:
        call = self.tool_call(body) if self.tool_call is not None else None
        model = str(body.get("model") or "claude-stand-in")
        message = {
            "id": f"msg_standin{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        if call is not None:
            name, arguments = call
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": f"toolu_standin{len(self.requests)}",
                "name": name,
                "input": arguments,
            }
            stop = "tool_use"
        else:
            block, stop = {"type": "text", "text": REPLY}, "end_turn"
        if not body.get("stream"):
            handler._json(200, {**message, "content": [block], "stop_reason": stop})
            return
        send = handler.sse()

        def event(name: str, data: dict[str, Any]) -> None:
            self.events.append(data)
            send(name, data)

        event("message_start", {"type": "message_start", "message": message})
        if block["type"] == "text":
            event(
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            )
            event(
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": REPLY}},
            )
        else:
            event(
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {**block, "input": {}}},
            )
            event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                },
            )
        event("content_block_stop", {"type": "content_block_stop", "index": 0})
        event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
        event("message_stop", {"type": "message_stop"})


class FakeResponses(_Recorder):
    """The OpenAI Responses API on loopback (see the module docstring)."""

    thread_name = "fake-responses"

    def __init__(self, tool_call: ToolCall | None = None) -> None:
        super().__init__(tool_call)
        self.events: list[dict[str, Any]] = []

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        return _handler(self, self._answer)

    def _answer(self, handler: Any, body: dict[str, Any]) -> None:
        n = len(self.requests)
        call = self.tool_call(body) if self.tool_call is not None else None
        if call is not None:
            name, arguments = call
            # A tool in a namespace (Codex groups an MCP server's tools, tool_names_responses
            # joins them "namespace.name") is called by its name and its namespace.
            namespace, _, short = name.rpartition(".")
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_standin{n}",
                "call_id": f"call_standin{n}",
                "name": short,
                **({"namespace": namespace} if namespace else {}),
                "arguments": json.dumps(arguments),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_standin{n}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": REPLY, "annotations": []}],
            }
        response = {
            "id": f"resp_standin{n}",
            "object": "response",
            "created_at": 0,
            "status": "in_progress",
            "model": body.get("model"),
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
        send = handler.sse()
        seq = iter(range(1000))

        def event(data: dict[str, Any]) -> None:
            data = {**data, "sequence_number": next(seq)}
            self.events.append(data)
            send(data["type"], data)

        event({"type": "response.created", "response": response})
        event({"type": "response.output_item.added", "output_index": 0, "item": item})
        event({"type": "response.output_item.done", "output_index": 0, "item": item})
        usage = {
            "input_tokens": 1,
            "output_tokens": 1,
            "total_tokens": 2,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        event(
            {
                "type": "response.completed",
                "response": {**response, "status": "completed", "output": [item], "usage": usage},
            }
        )


def tool_names_anthropic(body: dict[str, Any]) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools") or []]


def tool_names_responses(body: dict[str, Any]) -> list[str]:
    """Function names in a Responses request, namespaces (Codex groups an MCP server's tools) opened."""
    names: list[str] = []
    for tool in body.get("tools") or []:
        if tool.get("name"):
            names.append(str(tool["name"]))
        for inner in tool.get("tools") or []:
            if inner.get("name"):
                names.append(f"{tool.get('name')}.{inner['name']}")
    return names
