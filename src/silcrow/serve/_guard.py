"""The one Host/Origin check in front of every route of ``silcrow serve`` (DNS rebinding).

A web page the user visits can make the browser send requests to
``127.0.0.1:PORT`` under a name the page's owner controls (DNS rebinding), or
post to it from its own origin. Both carry a tell: the ``Host`` header names
the attacker's domain, or the ``Origin`` header names the attacker's page. So
every request, whatever route it goes to (REST, MCP, any page mounted later on
the same app), must name this server:

* ``Host`` is an address the server is bound to, or the local address the
  connection arrived at (for a wildcard bind), with the port it listens on;
  ``localhost`` when that address is loopback; or a name given with
  ``--allow-host`` (a proxy in front), with any port unless one was given.
* ``Origin``, when a browser sends one, passes the same test; ``null`` (a
  sandboxed frame, a file) does not.

It is a pure ASGI middleware on the whole app, outside the token gate, so a
refused request learns nothing about tokens or memory.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # the CLI imports this module to check --host; starlette loads with the app
    from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

LOCAL_NAMES = frozenset({"localhost"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})
_LOGGED_MAX = 64  # distinct refused names logged, so a flood cannot fill the log


def bare_host(host: str) -> str:
    """``host`` as a socket wants it: ``[::1]`` -> ``::1``; lower case, no trailing dot."""
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host.lower().rstrip(".")


def is_loopback(host: str) -> bool:
    name = bare_host(host)
    if name in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def split_authority(authority: str) -> tuple[str, int | None] | None:
    """``name[:port]`` or ``[v6][:port]`` as (bare name, port or None); None when malformed."""
    authority = authority.strip()
    if not authority or any(c.isspace() or c in "/@?#\\" for c in authority):
        return None
    port_text = ""
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            return None
        name, rest = authority[1:end], authority[end + 1:]
        if rest:
            if not rest.startswith(":"):
                return None
            port_text = rest[1:]
    elif authority.count(":") == 1:
        name, port_text = authority.split(":")
    elif ":" in authority:
        return None  # an IPv6 literal must be bracketed in a Host header
    else:
        name = authority
    port: int | None = None
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            return None
        port = int(port_text)
    name = bare_host(name)
    return (name, port) if name else None


def _same_host(a: str, b: str) -> bool:
    try:
        return ipaddress.ip_address(a) == ipaddress.ip_address(b)
    except ValueError:
        return a == b


class HostGuard:
    """Refuse a foreign ``Host`` (421) or browser ``Origin`` (403) on every route (see module doc)."""

    def __init__(self, app: ASGIApp, *, bind_host: str, allow_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.bind = bare_host(bind_host)
        self.allowed: list[tuple[str, int | None]] = []
        for entry in allow_hosts:
            parsed = split_authority(entry)
            if parsed is None:
                raise ValueError(f"--allow-host {entry!r} is not a host name (NAME or NAME:PORT)")
            self.allowed.append(parsed)
        self._logged: set[str] = set()

    def permits(self, name: str, port: int | None, server: tuple[str, int | None] | None) -> bool:
        """Whether (name, port) names this server, reached at local address ``server``."""
        for allowed_name, allowed_port in self.allowed:
            if name == allowed_name and allowed_port in (None, port):
                return True
        if server is None:
            return False
        local, local_port = bare_host(str(server[0])), server[1]
        if (port or 80) != local_port:
            return False
        ours = [local] if self.bind in WILDCARDS else [self.bind, local]
        if any(_same_host(name, host) for host in ours):
            return True
        return name in LOCAL_NAMES and is_loopback(local)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, message) when the request must be refused, else None."""
        headers = {k: v for k, v in scope.get("headers", [])}
        server = scope.get("server")
        raw_host = headers.get(b"host", b"").decode("latin-1")
        parsed = split_authority(raw_host)
        if parsed is None or not self.permits(*parsed, server):
            self._log("Host", raw_host)
            return 421, (f"this server does not answer to Host {raw_host[:100]!r}; reach it at the "
                         "address it listens on, or start it with --allow-host NAME for a name a "
                         "proxy forwards")
        origin = headers.get(b"origin")
        if origin is not None:
            text = origin.decode("latin-1")
            if not self._origin_ok(text, server):
                self._log("Origin", text)
                return 403, (f"requests from the web page {text[:100]!r} are refused: only pages served "
                             "from this server's own address (or an --allow-host name) may call it")
        return None

    def _origin_ok(self, origin: str, server: tuple[str, int | None] | None) -> bool:
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        default = 443 if parts.scheme == "https" else 80
        return self.permits(bare_host(parts.hostname), port or default, server)

    def _log(self, what: str, value: str) -> None:
        key = f"{what}:{value[:100]}"
        if key not in self._logged and len(self._logged) < _LOGGED_MAX:
            self._logged.add(key)
            log.warning("refused a request with %s %r (DNS rebinding or a foreign web page?); "
                        "use --allow-host for a name a proxy forwards", what, value[:100])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await answer_error(send, status, message)


async def answer_error(send: Send, status: int, error: str,
                       headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """An error answer of a middleware, in the result JSON every route uses."""
    body = json.dumps({"success": False, "error": error}, ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
