"""The gate in front of every HTTP route: body size, bearer token and its scope, tenant.

Every request's body is bounded before anything buffers or parses it (the
declared Content-Length first, then the bytes as they arrive, chunked or
not): :func:`body_limit` gives each route class its bound. The public routes
(``/healthz``, the inspector's page, its one-time login) need no token but are
bounded too.

Deciding the model's proposals and the inspector's direct edits need the
``review`` scope (:func:`needs_review`), which a model is not given: with
``write_policy = "approve"`` a write token can propose but never apply.

A pure ASGI middleware, so the REST routes and the MCP endpoint (which the SDK
serves with its own Starlette handler) are guarded by the same code. It puts
the caller's :class:`~silcrow.serve._mcp_server.Access` on the request scope;
the profile comes from the token alone and is never a request parameter. The
project (whose ``PROJECT.md`` the request serves beside the profile's notes)
is the ``X-Silcrow-Project`` header's, checked here by :mod:`._project`.

It fails closed. With no token at all, every guarded route answers 503 and
says how to create one, unless the server was started with ``--no-auth`` (on
loopback, with no token yet): then callers reach the ``--profile`` home until
the first token appears, and from that moment on never again, even if every
token is revoked later. A token file that cannot be read is 503 too; the
caller is not told where it is, the server's log is.

One token may have at most a quarter of the server's connections in requests
in progress, one profile half (:func:`~silcrow.serve._limits.caller_limits`):
past that the caller gets 429, so no caller, slow on purpose or not, holds
every connection the others need.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from silcrow._paths import resolve_home
from silcrow.errors import SilcrowError
from silcrow.serve._guard import answer_error
from silcrow.serve._limits import LOGIN_BODY, MAX_BODY, MAX_CONNECTIONS, PUBLIC_BODY, caller_limits
from silcrow.serve._mcp_server import Access
from silcrow.serve._project import PROJECT_HEADER, ProjectRefused, requested_project
from silcrow.serve._tenant import Tenant
from silcrow.serve._tokens import TokenBook, TokenRecord, prune_expired

log = logging.getLogger(__name__)

ACCESS_KEY = "silcrow.access"
# Open to anyone: liveness, and the API description (it holds no memory).
PUBLIC_PATHS = frozenset({"/healthz", "/docs", "/openapi.json", "/docs/oauth2-redirect",
                          # the inspector's page and static files (no memory in them) and its one-time login
                          "/", "/favicon.ico", "/ui/login/once", "/static/htmx.min.js",
                          "/static/inspector.js", "/static/inspector.css"})


NO_TOKEN = ("no API token exists on this server, so every request is refused; create one on the server "
            "with `silcrow tokens create --profile NAME` and send it as 'Authorization: Bearer <token>'")
LOGIN_PATH = "/ui/login/once"
# Routes that decide proposals or edit notes directly: a person's (review) scope.
REVIEW_PREFIXES = ("/ui/memory/", "/ui/pending/", "/ui/archive/")
REVIEW_SUFFIXES = ("/approve", "/reject")
UNREADABLE = ("the server cannot read its token file, so every request is refused; its operator finds "
              "the reason in the server's log")


class Refused(Exception):
    """The request is refused before it reaches a route: (status, message)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class TokenGate:
    """Authenticate, bound the body, and attach the tenant (see module doc)."""

    def __init__(self, app: ASGIApp, *, home: Path, tenant_for: Callable[[Path], Tenant],
                 open_home: Callable[[], Tenant] | None = None,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.app = app
        self.token_limit, self.profile_limit = caller_limits(max_connections)
        # Requests in progress per token and per profile (touched on the event loop only).
        self._busy: Counter[str] = Counter()
        self.home = home  # tokens.json lives here; profiles under it
        self.tokens = TokenBook(home)
        self.tenant_for = tenant_for
        # Who a caller without a token is while the server is open (--no-auth); None: never open.
        self.open_home = open_home
        self._state = "open" if open_home is not None else ""
        self._state_lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:  # refused before a byte of it is read
            await _too_large(send, limit)
            return
        if scope["path"] in PUBLIC_PATHS:
            body = await _read_body(receive, limit)
            if body is None:
                await _too_large(send, limit)
                return
            await self.app(scope, _replay(body, receive), send)
            return
        try:
            # A stat and maybe a read of tokens.json, and opening the profile: not on the event loop.
            access = await anyio.to_thread.run_sync(self._authenticate, scope)
        except Refused as refused:
            await answer_error(send, refused.status, str(refused))
            return
        if access is None:
            await answer_error(send, 401, "missing or unknown bearer token; send 'Authorization: Bearer "
                               "<token>' with a token from `silcrow tokens create`",
                               [(b"www-authenticate", b'Bearer realm="silcrow"')])
            return
        if not access.can_write and _writes(scope):
            await answer_error(send, 403, "this token is read-only; use a token created with --scope write")
            return
        if not access.can_review and needs_review(scope):
            await answer_error(send, 403, review_needed(access))
            return
        callers = (f"token {access.token_id}", f"profile {access.tenant.home}")
        crowded = self._crowded(access, *callers)
        if crowded:
            await answer_error(send, 429, crowded, [(b"retry-after", b"1"), (b"connection", b"close")])
            return
        self._busy.update(callers)
        try:
            body = await _read_body(receive, limit)
            if body is None:
                await _too_large(send, limit)
                return
            scope[ACCESS_KEY] = access
            await self.app(scope, _replay(body, receive), send)
        finally:
            self._busy.subtract(callers)
            for key in callers:
                if self._busy[key] <= 0:
                    del self._busy[key]

    def _crowded(self, access: Access, token: str, profile: str) -> str:
        """Why this caller may not start another request now ('' when it may)."""
        who = f"token {access.token_name!r}" if access.token_name else "this caller"
        if self._busy[token] >= self.token_limit:
            return (f"{who} already has {self.token_limit} requests in progress, its share of this server's "
                    "connections; wait for them to finish (or close the ones it keeps open) and retry")
        if self._busy[profile] >= self.profile_limit:
            return (f"this profile already has {self.profile_limit} requests in progress, its share of this "
                    "server's connections; wait for them to finish and retry")
        return ""

    def _now(self, state: str, exc: SilcrowError | None = None) -> str:
        """Record the token state; log each change once (not each request). Returns the old one."""
        with self._state_lock:
            old, self._state = self._state, state
        if state != old:
            if state == "unreadable":
                log.error("refusing every request: %s", exc)
            elif state == "none":
                log.warning("refusing every request: no API token exists in %s; create one with "
                            "`silcrow tokens create --profile NAME`", self.home)
            elif old in ("none", "unreadable"):
                log.warning("tokens are readable again: serving callers with a valid token")
        return old

    def _authenticate(self, scope: Scope) -> Access | None:
        """The caller's access, in the project its ``X-Silcrow-Project`` header names (checked
        only once the token is: an unknown caller learns nothing of the server's directories)."""
        access = self._token_access(scope)
        if access is None:
            return None
        try:
            project = requested_project(scope["headers"])
        except ProjectRefused as refused:
            raise Refused(refused.status, str(refused)) from None
        if not access.may_reach(project):
            allowed = access.projects or ()
            raise Refused(403, f"token {access.token_name!r} may only work in the project"
                          f"{'s' if len(allowed) > 1 else ''} {', '.join(allowed)}, not in {project}; name "
                          f"one of those in {PROJECT_HEADER}, or use a token made for this project "
                          f"(`silcrow tokens create --project {project}`)")
        access.tenant = access.tenant.at(project)
        return access

    def _token_access(self, scope: Scope) -> Access | None:
        try:
            has_tokens = self.tokens.any()
        except SilcrowError as exc:  # unreadable or corrupt: refuse, and never be open again
            self._now("unreadable", exc)
            raise Refused(503, UNREADABLE) from exc
        if not has_tokens:
            if self._state == "open" and self.open_home is not None:
                # --no-auth, loopback, no token yet: anyone local may do anything, deciding too.
                return Access(self.open_home(), can_write=True, can_review=True)
            self._now("none")
            raise Refused(503, NO_TOKEN)
        if self._now("tokens") == "open":
            log.warning("a token exists now: authentication is on for good")
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        try:
            record = self.tokens.verify(token.strip())
        except SilcrowError as exc:  # became unreadable since any()
            self._now("unreadable", exc)
            raise Refused(503, UNREADABLE) from exc
        if record is None:
            return None
        if record.expired():
            self._prune()
            raise Refused(401, _expired(record))
        try:
            tenant = self.tenant_for(resolve_home(self.home, record.profile))
        except SilcrowError as exc:  # the profile's own settings are broken: tell its token holder
            log.error("%s", exc)
            raise Refused(503, str(exc)) from exc
        return Access(tenant, can_write=record.scope in ("write", "review"),
                      can_review=record.scope == "review", token_name=record.name, token_id=record.id,
                      projects=record.projects)

    def _prune(self) -> None:
        try:
            for record in prune_expired(self.home):
                log.warning("pruned the expired token %s (%s)", record.name, record.id)
        except SilcrowError as exc:  # the refusal stands either way
            log.error("could not prune expired tokens: %s", exc)


def _expired(record: TokenRecord) -> str:
    how = ("tokens from the inspector's one-time link expire (`[serve] login_token_hours` in "
           "config.toml); open a new link from `silcrow serve`" if record.login
           else "create a new one with `silcrow tokens create`")
    return f"this token ({record.name}) expired at {record.expires_at} UTC and was removed; {how}"


def body_limit(path: str) -> int:
    """The most bytes a request body to ``path`` may have: the one-time login (a code) and the
    other public routes (none take a body) :data:`LOGIN_BODY` / :data:`PUBLIC_BODY`, every route
    behind the token :data:`MAX_BODY`."""
    if path == LOGIN_PATH:
        return LOGIN_BODY
    return PUBLIC_BODY if path in PUBLIC_PATHS else MAX_BODY


def needs_review(scope: Scope) -> bool:
    """Whether the request decides a proposal or edits notes through the inspector."""
    path = str(scope["path"])
    if scope["method"] in ("GET", "HEAD"):
        return False
    if path.startswith(REVIEW_PREFIXES):
        return True
    return path.startswith("/v1/memory/pending/") and path.endswith(REVIEW_SUFFIXES)


def review_needed(access: Access, what: str = "deciding proposals and editing in the inspector") -> str:
    """The 403 message for a token without the review scope: what it lacks and how to get it."""
    who = f"token {access.token_name!r} (id {access.token_id})" if access.token_name else "this caller"
    scope = "write" if access.can_write else "read"
    return (f"refused: {what} takes the review scope, a person's; {who} has the {scope} scope, as a "
            "model is given. A person approves with `silcrow memory approve ID` on the server, opens the "
            "inspector's one-time link that `silcrow serve` prints, or creates a review token with "
            "`silcrow tokens create --scope review` (never give it to a model)")


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:  # the HTTP parser refuses these first; count the bytes then
                return None
    return None


async def _too_large(send: Send, limit: int) -> None:
    # connection: close, so the server stops reading (and discarding) the rest of the body.
    await answer_error(send, 413, f"request body over {limit} bytes, the bound of this route; send less "
                       "at a time", [(b"connection", b"close")])


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
