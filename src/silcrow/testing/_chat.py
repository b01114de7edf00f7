"""A scripted stand-in for an OpenAI-compatible chat-completions server, for tests and the demo.

:class:`ScriptedModelServer` speaks the ``/v1/chat/completions`` wire format
(plain JSON and server-sent events, tool calls included) on loopback and
replays a script of responses, while recording every request body it
receives. Everything else a test touches is real: the ``openai`` SDK, httpx,
sockets, SQLite.

It never pretends to be a real model: every reply names the model
``silcrow-scripted-stand-in``, carries that ``system_fingerprint`` and the
HTTP header ``X-Silcrow-Stand-In: true``.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from silcrow._loopback import LoopbackServer

if TYPE_CHECKING:
    from silcrow.models import Embedder

STAND_IN_MODEL = "silcrow-scripted-stand-in"
STAND_IN_HEADER = "X-Silcrow-Stand-In"
EXHAUSTED_MESSAGE = "ScriptedModelServer: script exhausted"

# A scripted response is a dict (see ScriptedModelServer) or a callable that
# builds one from the request body, for replies that depend on the request.
ScriptedResponse = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]

_RESPONSE_KEYS = {"content", "tool_calls", "error", "finish_reason", "usage", "delay_s"}
_TOOL_CALL_KEYS = {"name", "arguments", "id"}
_ERROR_KEYS = {"status", "message", "type", "code", "retry_after_ms"}
# Streamed text and tool arguments are cut into pieces this long, so that
# clients really have to reassemble deltas, as with a real server.
_STREAM_PIECE = 7


def _validate(response: dict[str, Any], allowed: set[str] = _RESPONSE_KEYS) -> None:
    """Reject a malformed scripted response early, naming the bad part (``allowed``: the keys
    the server reading it knows)."""
    if not isinstance(response, dict):
        raise TypeError(
            f"a scripted response must be a dict or a callable, not {type(response).__name__}: "
            'use {"content": "..."}, {"tool_calls": [...]} or {"error": {...}}'
        )
    unknown = set(response) - allowed
    if unknown:
        raise ValueError(
            f"unknown keys in scripted response: {sorted(unknown)}; allowed: {sorted(allowed)}"
        )
    if "error" in response:
        err = response["error"]
        if not isinstance(err, dict) or set(err) - _ERROR_KEYS:
            raise ValueError(f'"error" must be a dict with keys among {sorted(_ERROR_KEYS)}, got {err!r}')
        status = err.get("status", 500)
        if not isinstance(status, int) or not 400 <= status <= 599:
            raise ValueError(f"error status must be an HTTP error code 400-599, got {status!r}")
    content = response.get("content")
    if content is not None and not isinstance(content, str):
        raise ValueError(f'"content" must be a string or None, got {type(content).__name__}')
    for call in response.get("tool_calls") or []:
        if not isinstance(call, dict) or "name" not in call or set(call) - _TOOL_CALL_KEYS:
            raise ValueError(
                f'each tool call needs "name" and optional "arguments" (dict or raw JSON string) '
                f'and "id", got {call!r}'
            )


def _estimate_tokens(text: str) -> int:
    # About four characters per token for English; only an estimate, and
    # reported as usage numbers so clients can exercise their accounting.
    return max(1, (len(text) + 3) // 4) if text else 0


def _common_prefix_len(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class ScriptedModelServer(LoopbackServer):
    """A stand-in OpenAI-compatible model server that replays a script.

    This is NOT a model. It answers ``POST /v1/chat/completions`` (JSON or,
    with ``"stream": true``, SSE chunks ending in ``data: [DONE]``) and
    ``GET /v1/models`` on loopback, taking the next scripted response for
    each completion request (and, when built with ``embedder=``, ``POST
    /v1/embeddings`` with that real embedder's vectors, for services that
    need an embedding endpoint):

    - ``{"content": "text"}`` — an assistant message;
    - ``{"tool_calls": [{"name": "memory", "arguments": {...}}], "content": None}``
      — tool calls (``arguments`` may also be a raw string, to test how a
      client copes with malformed JSON; ``id`` is optional);
    - ``{"error": {"status": 500, "message": "...", "retry_after_ms": 1}}``
      — an HTTP error in the OpenAI error shape (to test retries);
    - a callable ``f(request_body) -> response dict``.

    Optional keys: ``finish_reason``, ``usage`` (overrides the estimate) and
    ``delay_s`` (sleep before answering, to test timeouts).

    When the script runs out, ``default`` is used if given; otherwise the
    server answers HTTP 500 "ScriptedModelServer: script exhausted" with
    ``x-should-retry: false`` so SDKs fail at once instead of retrying.

    Usage numbers are estimates (characters / 4). ``prompt_tokens_details.
    cached_tokens`` estimates how much of the request is a byte-identical
    prefix of the previous one, i.e. what a provider's prefix cache reuses.
    """

    def __init__(
        self,
        script: Iterable[ScriptedResponse] = (),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        default: ScriptedResponse | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self.embedder = embedder
        self._embed_lock = threading.Lock()  # one embedding run at a time: the handler is threaded
        self._arrived = threading.Condition(self._lock)  # for wait_for_requests
        self._script: deque[ScriptedResponse] = deque()
        self._requests: list[dict[str, Any]] = []
        self._headers: list[dict[str, str]] = []
        self._previous_prompt = ""
        self._call_counter = 0
        if default is not None and not callable(default):
            _validate(default)
        self._default = default
        super().__init__(host, port)
        self.server_class = _QuietServer
        self.thread_name = "scripted-model"
        self.enqueue(*script)

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        return type("_BoundHandler", (_Handler,), {"stand_in": self})

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT/v1``, to pass as ``base_url`` to an OpenAI client."""
        if self._httpd is None:
            raise RuntimeError("ScriptedModelServer is not running: call start() or use it in a with-block")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # -- script and records -----------------------------------------------
    def enqueue(self, *responses: ScriptedResponse) -> None:
        """Append responses to the script (validated now, unless callable)."""
        for response in responses:
            if not callable(response):
                _validate(response)
        with self._lock:
            self._script.extend(responses)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every chat-completion request body received, in order (a copy)."""
        with self._lock:
            return json.loads(json.dumps(self._requests))

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Block until ``count`` requests have arrived (a bounded wait, for work
        a client does in a background thread); returns them, or raises
        TimeoutError saying how many came."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self._requests) >= count, timeout=timeout):
                raise TimeoutError(
                    f"ScriptedModelServer: expected {count} requests within {timeout}s, "
                    f"got {len(self._requests)}"
                )
        return self.requests

    @property
    def request_headers(self) -> list[dict[str, str]]:
        """The HTTP headers of each recorded request (lower-cased names)."""
        with self._lock:
            return [dict(h) for h in self._headers]

    @property
    def remaining(self) -> int:
        """How many scripted responses have not been used yet."""
        with self._lock:
            return len(self._script)

    # -- used by the handler -----------------------------------------------
    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[dict[str, Any], int]:
        """Record the request; return (response, cached prefix chars)."""
        prompt = json.dumps(
            {"messages": body.get("messages"), "tools": body.get("tools")}, ensure_ascii=False
        )
        with self._lock:
            self._requests.append(body)
            self._headers.append(headers)
            self._arrived.notify_all()
            cached = _common_prefix_len(self._previous_prompt, prompt)
            self._previous_prompt = prompt
            if self._script:
                item: ScriptedResponse | None = self._script.popleft()
            else:
                item = self._default
        if item is None:
            return (
                {"error": {"status": 500, "message": EXHAUSTED_MESSAGE
                           + f" after {len(self._requests) - 1} responses: enqueue() more or pass "
                           "default=", "type": "stand_in_script_exhausted"}},
                cached,
            )
        if callable(item):
            try:
                produced = item(body)
                _validate(produced)
            except Exception as exc:  # a broken test callback must show up as a clear reply
                return (
                    {"error": {"status": 500, "message": f"ScriptedModelServer: scripted callable "
                               f"failed: {type(exc).__name__}: {exc}", "type": "stand_in_callable_error"}},
                    cached,
                )
            return produced, cached
        return item, cached

    def _new_call_id(self) -> str:
        with self._lock:
            self._call_counter += 1
            return f"call_standin_{self._call_counter}"


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (a timeout test, say) closes its socket while we
        # write; that is expected, not worth a traceback on stderr.
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    stand_in: ScriptedModelServer
    protocol_version = "HTTP/1.1"
    timeout = 30  # idle keep-alive connections end instead of lingering
    server_version = "ScriptedModelServer/1 (silcrow stand-in, not a model)"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        return  # tests read `requests`, not a log on stderr

    # -- plumbing ----------------------------------------------------------
    def _send_json(self, status: int, payload: dict[str, Any], extra: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header(STAND_IN_HEADER, "true")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, spec: dict[str, Any]) -> None:
        status = int(spec.get("status", 500))
        extra: dict[str, str] = {}
        if "retry_after_ms" in spec:
            extra["retry-after-ms"] = str(spec["retry_after_ms"])
        if spec.get("type") == "stand_in_script_exhausted":
            extra["x-should-retry"] = "false"
        self._send_json(
            status,
            {"error": {"message": spec.get("message", "scripted error"),
                       "type": spec.get("type", "scripted_error"),
                       "code": spec.get("code"), "param": None}},
            extra,
        )

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send_json(200, {"object": "list", "data": [
                {"id": STAND_IN_MODEL, "object": "model", "created": 0, "owned_by": "silcrow-stand-in"}
            ]})
        else:
            self._send_error({"status": 404, "message": f"ScriptedModelServer: no route GET {self.path}; "
                              "it serves GET /v1/models and POST /v1/chat/completions"})

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        route = self.path.rstrip("/")
        if route in ("/v1/embeddings", "/embeddings") and self.stand_in.embedder is not None:
            self._embeddings(raw)
            return
        if route not in ("/v1/chat/completions", "/chat/completions"):
            self._send_error({"status": 404, "message": f"ScriptedModelServer: no route POST {self.path}; "
                              "it serves POST /v1/chat/completions"})
            return
        try:
            body = json.loads(raw.decode("utf-8"))
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")
        except (UnicodeDecodeError, ValueError) as exc:
            self._send_error({"status": 400, "message": f"ScriptedModelServer: request body is not a JSON "
                              f"object ({exc})", "type": "invalid_request_error"})
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        response, cached_chars = self.stand_in._next(body, headers)
        if response.get("delay_s"):
            time.sleep(float(response["delay_s"]))
        if "error" in response:
            self._send_error(response["error"])
            return
        message, finish = self._assistant_message(response)
        usage = response.get("usage") or self._usage(body, message, cached_chars)
        created = int(time.time())
        completion_id = f"chatcmpl-standin-{self.stand_in._new_call_id()}"
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._stream(completion_id, created, message, finish, usage if include_usage else None)
            return
        self._send_json(200, {
            "id": completion_id, "object": "chat.completion", "created": created,
            "model": STAND_IN_MODEL, "system_fingerprint": STAND_IN_MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": usage,
        })

    def _embeddings(self, raw: bytes) -> None:
        """OpenAI's embeddings wire format, vectors from the real embedder given to the server."""
        try:
            body = json.loads(raw.decode("utf-8"))
            given = body["input"] if isinstance(body, dict) else None
            texts = [given] if isinstance(given, str) else given
            if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
                raise ValueError('"input" must be a string or a non-empty list of strings')
        except (UnicodeDecodeError, ValueError, KeyError) as exc:
            self._send_error({"status": 400, "type": "invalid_request_error",
                              "message": f"ScriptedModelServer: bad embeddings request ({exc})"})
            return
        embedder = self.stand_in.embedder
        assert embedder is not None
        with self.stand_in._embed_lock:
            vectors = embedder.embed(texts)
        tokens = sum(_estimate_tokens(t) for t in texts)
        self._send_json(200, {
            "object": "list", "model": body.get("model") or STAND_IN_MODEL,
            "data": [{"object": "embedding", "index": i, "embedding": [float(x) for x in row]}
                     for i, row in enumerate(vectors)],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        })

    # -- building replies --------------------------------------------------
    def _assistant_message(self, response: dict[str, Any]) -> tuple[dict[str, Any], str]:
        calls = []
        for call in response.get("tool_calls") or []:
            args = call.get("arguments", {})
            arguments = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
            calls.append({
                "id": call.get("id") or self.stand_in._new_call_id(),
                "type": "function",
                "function": {"name": call["name"], "arguments": arguments},
            })
        content = response.get("content")
        message: dict[str, Any] = {"role": "assistant", "content": content if calls else (content or "")}
        if calls:
            message["tool_calls"] = calls
        finish = response.get("finish_reason") or ("tool_calls" if calls else "stop")
        return message, finish

    @staticmethod
    def _usage(body: dict[str, Any], message: dict[str, Any], cached_chars: int) -> dict[str, Any]:
        prompt_text = json.dumps({"messages": body.get("messages"), "tools": body.get("tools")},
                                 ensure_ascii=False)
        completion_text = (message.get("content") or "") + "".join(
            c["function"]["name"] + c["function"]["arguments"] for c in message.get("tool_calls", [])
        )
        prompt_tokens = _estimate_tokens(prompt_text)
        completion_tokens = _estimate_tokens(completion_text)
        return {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": min(prompt_tokens, cached_chars // 4)},
        }

    def _stream(self, completion_id: str, created: int, message: dict[str, Any], finish: str,
                usage: dict[str, Any] | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header(STAND_IN_HEADER, "true")
        self.end_headers()

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            return {"id": completion_id, "object": "chat.completion.chunk", "created": created,
                    "model": STAND_IN_MODEL, "system_fingerprint": STAND_IN_MODEL,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason,
                                 "logprobs": None}]}

        for event in self._stream_events(message, finish, usage, chunk):
            self._write_chunk(f"data: {json.dumps(event, ensure_ascii=False)}\n\n")
        self._write_chunk("data: [DONE]\n\n")
        self._write_chunk("")  # zero-length chunk ends the body

    @staticmethod
    def _stream_events(message: dict[str, Any], finish: str, usage: dict[str, Any] | None,
                       chunk: Callable[..., dict[str, Any]]) -> Iterator[dict[str, Any]]:
        yield chunk({"role": "assistant", "content": ""})
        text = message.get("content") or ""
        for i in range(0, len(text), _STREAM_PIECE):
            yield chunk({"content": text[i:i + _STREAM_PIECE]})
        for index, call in enumerate(message.get("tool_calls", [])):
            # OpenAI's delta format: the first delta of a call carries its id and
            # name, the following ones only argument fragments under the same index.
            yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                         "function": {"name": call["function"]["name"], "arguments": ""}}]})
            args = call["function"]["arguments"]
            for i in range(0, len(args), _STREAM_PIECE):
                yield chunk({"tool_calls": [{"index": index,
                                             "function": {"arguments": args[i:i + _STREAM_PIECE]}}]})
        yield chunk({}, finish)
        if usage is not None:
            final = chunk({})
            final["choices"] = []
            final["usage"] = usage
            yield final

    def _write_chunk(self, text: str) -> None:
        data = text.encode("utf-8")
        self.wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        self.wfile.flush()
