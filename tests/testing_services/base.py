"""The loopback HTTP machinery every stand-in service shares: routes, auth, faults, records."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from silcrow._loopback import LoopbackServer

STAND_IN_HEADER = "X-Silcrow-Stand-In"
_WORD = re.compile(r"[\w']+", re.UNICODE)
_STOP = frozenset(
    "a an the is are was were be been of to in on at for and or but with what where who when how which "
    "do does did i you my your me we our it its this that there their they he she his her am".split()
)


def words(text: str) -> set[str]:
    """Content words of ``text`` (casefolded, stop words dropped), for the stand-ins' search."""
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


def overlap_score(query: str, text: str) -> float:
    """Share of the query's content words found in ``text`` (0..1): the stand-ins' only ranking."""
    wanted = words(query)
    return len(wanted & words(text)) / len(wanted) if wanted else 0.0


@dataclass
class RawBody:
    """A route's answer that is not JSON (a file's bytes)."""

    data: bytes
    content_type: str = "application/octet-stream"


class Reply(Exception):
    """Raised by a route handler to answer with an error status and body."""

    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.body = body
        self.headers = headers or {}


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]
    body: Any
    groups: tuple[str, ...] = ()


@dataclass
class Fault:
    """One scripted failure: an HTTP error, a body that is not JSON, a delay or a dropped connection."""

    kind: str  # "status" | "malformed" | "delay" | "drop"
    status: int = 500
    retry_after: float | None = None
    seconds: float = 0.0
    only: str = ""  # apply only to paths containing this


Route = tuple[str, re.Pattern[str], Callable[[Request], Any]]


@dataclass
class _Records:
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)


class StandInService(LoopbackServer):
    """Base of the loopback stand-ins (see the package doc). Subclasses fill ``routes``."""

    service = "stand-in"

    def __init__(self, api_key: str = "test-key", *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.api_key = api_key
        super().__init__(host, port)
        self.server_class = _QuietServer
        self.thread_name = f"stand-in-{self.service}"
        self._lock = threading.RLock()
        self._faults: deque[Fault] = deque()
        self._records = _Records()
        self.down = False  # while True every request's connection is dropped (an outage)
        self.routes: list[Route] = []

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        return type("_Bound", (_Handler,), {"stand_in": self})

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not running: call start() or use a with-block")
        return f"http://{self._host}:{self._port}"

    # -- scripting -------------------------------------------------------------------------
    def fail(
        self, status: int = 500, *, times: int = 1, retry_after: float | None = None, only: str = ""
    ) -> None:
        """The next ``times`` requests (matching ``only``) answer ``status``."""
        with self._lock:
            self._faults.extend(
                Fault("status", status=status, retry_after=retry_after, only=only) for _ in range(times)
            )

    def malformed(self, *, times: int = 1, only: str = "") -> None:
        """The next ``times`` requests answer 200 with a body that is not JSON."""
        with self._lock:
            self._faults.extend(Fault("malformed", only=only) for _ in range(times))

    def delay(self, seconds: float, *, times: int = 1, only: str = "") -> None:
        """The next ``times`` requests wait ``seconds`` before answering (to trip client timeouts)."""
        with self._lock:
            self._faults.extend(Fault("delay", seconds=seconds, only=only) for _ in range(times))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    @property
    def requests(self) -> list[tuple[str, str, Any]]:
        """``(method, path, json body)`` of every request received, in order."""
        with self._lock:
            return list(self._records.requests)

    @property
    def violations(self) -> list[str]:
        """Requests the stand-in refused as wrong (unknown route, missing field, bad auth)."""
        with self._lock:
            return list(self._records.violations)

    def paths(self, method: str = "") -> list[str]:
        return [p for m, p, _ in self.requests if not method or m == method]

    # -- for subclasses --------------------------------------------------------------------
    def route(self, method: str, pattern: str, handler: Callable[[Request], Any]) -> None:
        self.routes.append((method, re.compile(pattern + r"\Z"), handler))

    def violation(self, status: int, message: str) -> Reply:
        """Record a wrong request and build its error reply."""
        with self._lock:
            self._records.violations.append(message)
        return Reply(status, self.error_body(status, f"{self.service} stand-in: {message}"))

    def error_body(self, status: int, message: str) -> Any:
        """The service's error JSON shape (override per service)."""
        return {"error": message}

    def check_auth(self, req: Request) -> None:
        """Raise a 401 Reply unless the request carries the key as ``Authorization: Bearer``."""
        if req.headers.get("authorization") != f"Bearer {self.api_key}":
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong Authorization header")

    def body_fields(self, req: Request, *names: str) -> dict[str, Any]:
        """The JSON body, checked to hold ``names`` (a recorded 422 violation otherwise)."""
        body = req.body
        if not isinstance(body, dict):
            raise self.violation(422, f"{req.method} {req.path}: the body must be a JSON object")
        missing = [n for n in names if body.get(n) in (None, "")]
        if missing:
            raise self.violation(422, f"{req.method} {req.path}: missing required field(s) {missing}")
        return body

    def _take_fault(self, path: str) -> Fault | None:
        with self._lock:
            for i, fault in enumerate(self._faults):
                if not fault.only or fault.only in path:
                    del self._faults[i]
                    return fault
        return None

    def _dispatch(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        with self._lock:
            self._records.requests.append((req.method, req.path, req.body))
        for method, pattern, handler in self.routes:
            match = pattern.match(req.path)
            if match and method == req.method:
                req.groups = tuple(unquote(g) for g in match.groups())
                try:
                    self.check_auth(req)
                    with self._lock:
                        return 200, handler(req), {}
                except Reply as refused:
                    return refused.status, refused.body, refused.headers
        unknown = self.violation(404, f"unknown route {req.method} {req.path}")
        return unknown.status, unknown.body, {}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:  # a dropped client is expected
        pass


class _Handler(BaseHTTPRequestHandler):
    stand_in: StandInService
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # header and body go out in separate writes

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        service = self.stand_in
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if service.down:
            self.close_connection = True
            self.connection.close()  # the client sees the connection dropped, as in an outage
            return
        fault = service._take_fault(split.path)
        if fault is not None and fault.kind == "delay":
            time.sleep(fault.seconds)
            fault = None
        if fault is not None and fault.kind == "status":
            headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            self._send(fault.status, service.error_body(fault.status, "scripted failure"), headers)
            return
        if fault is not None and fault.kind == "malformed":
            self._send_raw(200, b"<html>this is not JSON", "text/html")
            return
        try:
            body = json.loads(raw) if raw.strip() else None
        except json.JSONDecodeError:
            reply = service.violation(400, f"{self.command} {split.path}: request body is not JSON")
            self._send(reply.status, reply.body, {})
            return
        params = {k: v[-1] for k, v in parse_qs(split.query).items()}
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, payload, extra = service._dispatch(Request(self.command, split.path, params, headers, body))
        if isinstance(payload, RawBody):
            self._send_raw(status, payload.data, payload.content_type, extra)
        else:
            self._send(status, payload, extra)

    def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self._send_raw(status, data, "application/json", headers)

    def _send_raw(self, status: int, data: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header(STAND_IN_HEADER, "true")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle
