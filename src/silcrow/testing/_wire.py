"""What the scripted stand-ins of the Messages and Responses APIs share: one POST route on
loopback, a script of replies in :class:`~silcrow.testing.ScriptedModelServer`'s shape, the
requests kept, and every request the real API would refuse answered with its error and kept
in ``violations`` (so a test can assert the client sent nothing the real API would reject).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler
from typing import Any

from silcrow._loopback import LoopbackServer
from silcrow.testing._chat import (
    EXHAUSTED_MESSAGE,
    STAND_IN_HEADER,
    ScriptedResponse,
    _QuietServer,
    _validate,
)

# The scripted reply keys these servers read (a subset of the chat server's).
REPLY_KEYS = {"content", "tool_calls", "error", "delay_s"}


class Refused(Exception):
    """A request the real API answers with an HTTP error (``kind``: its error type)."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error",
                 *, violation: bool = True) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.violation = status, message, kind, violation


class ScriptedAPIServer(LoopbackServer):
    """One POST ``route`` answered from a script; subclasses check requests and build replies."""

    api = "model API"
    route = "/v1/"

    def __init__(self, script: Iterable[ScriptedResponse] = (), *, api_key: str | None = None,
                 default: ScriptedResponse | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self._lock = threading.Lock()
        self.api_key = api_key
        self._script: deque[ScriptedResponse] = deque()
        self._requests: list[dict[str, Any]] = []
        self._headers: list[dict[str, str]] = []
        self._violations: list[str] = []
        self._ids = 0
        if default is not None and not callable(default):
            _validate(default, REPLY_KEYS)
        self._default = default
        super().__init__(host, port)
        self.server_class = _QuietServer
        self.enqueue(*script)

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        return type("_Bound", (_Handler,), {"stand_in": self})

    def _origin(self) -> str:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not running: call start() or use it in a "
                               "with-block")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- script and records ----------------------------------------------------------------
    def enqueue(self, *responses: ScriptedResponse) -> None:
        """Append replies to the script (validated now, unless callable)."""
        for response in responses:
            if not callable(response):
                _validate(response, REPLY_KEYS)
        with self._lock:
            self._script.extend(responses)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The body of every request the server accepted, in order (a copy)."""
        with self._lock:
            return json.loads(json.dumps(self._requests))

    @property
    def request_headers(self) -> list[dict[str, str]]:
        """The HTTP headers of each accepted request (lower-cased names)."""
        with self._lock:
            return [dict(h) for h in self._headers]

    @property
    def violations(self) -> list[str]:
        """What was wrong with each request the real API would have refused."""
        with self._lock:
            return list(self._violations)

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been used yet."""
        with self._lock:
            return len(self._script)

    def new_id(self, prefix: str) -> str:
        with self._lock:
            self._ids += 1
            return f"{prefix}_standin_{self._ids:04d}"

    # -- for subclasses --------------------------------------------------------------------
    def serves(self, path: str) -> bool:
        return path == self.route

    def check_headers(self, headers: dict[str, str]) -> None:
        raise NotImplementedError

    def check_body(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        raise NotImplementedError

    def reply(self, body: dict[str, Any], scripted: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def error_payload(self, message: str, kind: str) -> dict[str, Any]:
        raise NotImplementedError

    def _key_given(self, headers: dict[str, str], *names: str) -> bool:
        """Whether one of the header ``names`` carries the key (any key when none was set)."""
        given = [headers.get(n, "").removeprefix("Bearer ").strip() for n in names]
        return any(given) if self.api_key is None else self.api_key in given

    # -- used by the handler ---------------------------------------------------------------
    def _refuse(self, refused: Refused) -> None:
        if refused.violation:
            with self._lock:
                self._violations.append(refused.message)

    def _take(self, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            self._requests.append(body)
            self._headers.append(headers)
            item = self._script.popleft() if self._script else self._default
            served = len(self._requests) - 1
        if item is None:
            raise Refused(500, f"{EXHAUSTED_MESSAGE} after {served} replies: enqueue() more or pass default=",
                          "api_error", violation=False)
        if callable(item):
            try:
                item = item(body)
                _validate(item, REPLY_KEYS)
            except Exception as exc:  # a broken test callback shows up as a clear reply
                raise Refused(500, f"{type(self).__name__}: scripted callable failed: "
                                   f"{type(exc).__name__}: {exc}", "api_error", violation=False) from exc
        return item


class _Handler(BaseHTTPRequestHandler):
    stand_in: ScriptedAPIServer
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        return

    def _send(self, status: int, payload: dict[str, Any], extra: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header(STAND_IN_HEADER, "true")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _fail(self, refused: Refused) -> None:
        self.stand_in._refuse(refused)
        # The SDKs retry 5xx and 429 unless told not to: a stand-in's own failure is final.
        extra = {"x-should-retry": "false"} if refused.status >= 500 else {}
        self._send(refused.status, self.stand_in.error_payload(refused.message, refused.kind), extra)

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._fail(Refused(404, f"{self.stand_in.api} stand-in: no route GET {self.path}; it serves "
                                f"POST {self.stand_in.route}", "not_found_error"))

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        server = self.stand_in
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            if not server.serves(self.path.split("?")[0].rstrip("/")):
                raise Refused(404, f"{server.api} stand-in: no route POST {self.path}; it serves "
                                   f"POST {server.route}", "not_found_error")
            headers = {k.lower(): v for k, v in self.headers.items()}
            server.check_headers(headers)
            try:
                body = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise Refused(400, f"the request body is not JSON ({exc})") from exc
            if not isinstance(body, dict):
                raise Refused(400, "the request body must be a JSON object")
            server.check_body(body, headers)
            scripted = server._take(body, headers)
            if scripted.get("delay_s"):
                time.sleep(float(scripted["delay_s"]))
            if "error" in scripted:
                spec = scripted["error"]
                extra = {"retry-after-ms": str(spec["retry_after_ms"])} if "retry_after_ms" in spec else {}
                self._send(int(spec.get("status", 500)), server.error_payload(
                    spec.get("message", "scripted error"), spec.get("type", "api_error")), extra)
                return
            self._send(200, server.reply(body, scripted))
        except Refused as refused:
            self._fail(refused)
