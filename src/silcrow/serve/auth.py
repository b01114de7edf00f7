"""The gate in front of every HTTP route but ``/healthz``: bearer token, body size, tenant.

A pure ASGI middleware, so the REST routes and the MCP endpoint (which the SDK
serves with its own Starlette handler) are guarded by the same code. It puts
the caller's :class:`~silcrow.serve.mcp_server.Access` on the request scope;
the profile comes from the token alone and is never a request parameter.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from silcrow.errors import SilcrowError
from silcrow.paths import resolve_home
from silcrow.serve.mcp_server import Access
from silcrow.serve.tenant import Tenant
from silcrow.serve.tokens import TokenBook

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024  # 1 MiB
ACCESS_KEY = "silcrow.access"
# Open to anyone: liveness, and the API description (it holds no memory).
PUBLIC_PATHS = frozenset({"/healthz", "/docs", "/openapi.json", "/docs/oauth2-redirect",
                          # the inspector's page and static files (no memory in them) and its one-time login
                          "/", "/favicon.ico", "/ui/login/once", "/static/htmx.min.js",
                          "/static/inspector.js", "/static/inspector.css"})


async def _answer(send: Send, status: int, error: str, headers: list[tuple[bytes, bytes]] | None = None
                  ) -> None:
    body = json.dumps({"success": False, "error": error}, ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class TokenGate:
    """Authenticate, bound the body, and attach the tenant (see module doc)."""

    def __init__(self, app: ASGIApp, *, home: Path, default: Callable[[], Tenant],
                 tenant_for: Callable[[Path], Tenant]) -> None:
        self.app = app
        self.home = home  # tokens.json lives here; profiles under it
        self.tokens = TokenBook(home)
        self.default = default  # who an unauthenticated caller is when no token exists at all
        self.tenant_for = tenant_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in PUBLIC_PATHS:
            await self.app(scope, receive, send)
            return
        try:
            access = self._authenticate(scope)
        except SilcrowError as exc:  # an unreadable token file: say so, do not guess
            log.error("%s", exc)
            await _answer(send, 500, str(exc))
            return
        if access is None:
            await _answer(send, 401, "missing or unknown bearer token; send 'Authorization: Bearer <token>' "
                          "with a token from `silcrow tokens create`",
                          [(b"www-authenticate", b'Bearer realm="silcrow"')])
            return
        body = await _read_body(receive, MAX_BODY)
        if body is None:
            await _answer(send, 413, f"request body over {MAX_BODY} bytes (1 MiB); send less at a time")
            return
        if not access.can_write and _writes(scope):
            await _answer(send, 403, "this token is read-only; use a token created with --scope write")
            return
        scope[ACCESS_KEY] = access
        await self.app(scope, _replay(body, receive), send)

    def _authenticate(self, scope: Scope) -> Access | None:
        if not self.tokens.any():
            return Access(self.default(), can_write=True)  # only ever on loopback (see cli/serve.py)
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        record = self.tokens.verify(token.strip())
        if record is None:
            return None
        tenant = self.tenant_for(resolve_home(self.home, record.profile))
        return Access(tenant, can_write=record.scope == "write", token_name=record.name)


def _writes(scope: Scope) -> bool:
    """Whether a REST request changes memory: anything but GET, except a recall search.
    (MCP calls are checked per tool, in the MCP server.)"""
    path = scope["path"]
    return (path.startswith("/v1/") and scope["method"] not in ("GET", "HEAD")
            and path != "/v1/recall/search")


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None once it grows past ``limit`` (what was sent is dropped)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away; the app sees an empty body and its own disconnect
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: disconnect notices, as the app expects

    return replay


def access_of(scope: Any) -> Access:
    access = scope.get(ACCESS_KEY)
    if not isinstance(access, Access):
        raise RuntimeError("request reached a guarded route without passing TokenGate")
    return access
