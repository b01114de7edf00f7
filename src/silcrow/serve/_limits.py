"""The bounds of ``silcrow serve``: worker threads, request sizes, connections, read time.

One caller must not be able to stall the others. Every library call (files,
SQLite, PostgreSQL, threat scanning, fencing) runs on a worker thread, never
on the event loop; the pool is bounded for the process and per profile, so a
profile whose calls hang (a PostgreSQL that does not answer) keeps at most
:data:`TENANT_THREADS` threads. Uvicorn closes a connection that has not
sent a whole request within :data:`READ_TIMEOUT` seconds (a slowloris guard:
uvicorn itself only times out idle keep-alive connections) and answers 503
past :data:`MAX_CONNECTIONS` open connections, of which one token's requests in progress may take
a quarter and one profile's a half (:func:`caller_limits`, answered 429). MCP over HTTP is
stateless JSON, so the server offers no event stream a caller could hold open (``GET /mcp`` is
405).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

WORKER_THREADS = 32  # the process's worker threads (anyio's default limiter)
TENANT_THREADS = 8  # of those, at most this many for one profile at once
# Bytes of one request body, by route class (checked before anything is buffered or parsed):
MAX_BODY = 1024 * 1024  # every route behind the token (REST, MCP, the inspector's fragments)
LOGIN_BODY = 1024  # the inspector's one-time login: a JSON object holding a 32-character code
PUBLIC_BODY = 1024  # the other public routes (liveness, the page and its files): they take none
MAX_HEAD = 64 * 1024  # bytes of one request line and headers (httptools sets no bound of its own)
READ_TIMEOUT = 20.0  # seconds to receive a whole request (headers and body)
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept
MAX_CONNECTIONS = 256  # open connections before new requests get 503
# Of those, the requests one token, and one profile, may have in progress at once (a quarter and
# a half): past it that caller gets 429, so no caller can hold every connection the others need.
TOKEN_SHARE = 4
PROFILE_SHARE = 2
BACKLOG = 128  # connections the kernel queues before accept


def caller_limits(max_connections: int) -> tuple[int, int]:
    """The requests in progress one token, and one profile, may have at once."""
    return max(1, max_connections // TOKEN_SHARE), max(1, max_connections // PROFILE_SHARE)


_TOO_LARGE_TEXT = b"request line and headers over 64 KiB; send less"
TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
             b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TOO_LARGE_TEXT), _TOO_LARGE_TEXT))


def guarded_protocol(read_timeout: float) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (httptools, else h11) closing a connection whose request is not
    whole within ``read_timeout`` seconds of its first byte (or of the connection), or whose
    request line and headers pass MAX_HEAD bytes (answered 431)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol

    class ReadDeadline(base):
        _deadline: asyncio.TimerHandle | None = None
        _waiting_on: Any = None  # the cycle before the request being read: a new one means its head is in
        _head = 0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if self._deadline is None and (cycle is None or cycle.response_complete):
                self._arm()  # the first bytes of a new request on a kept-alive connection
            super().data_received(data)
            cycle = self.cycle
            if self._deadline is not None and cycle is self._waiting_on:  # still reading the head
                self._head += len(data)
                if self._head > MAX_HEAD and not self.transport.is_closing():
                    self.transport.write(TOO_LARGE)
                    self.transport.close()
                    return
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                self._disarm()  # the whole request is in: the app may take its time

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._waiting_on, self._head = self.cycle, 0
            self._deadline = self.loop.call_later(read_timeout, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return ReadDeadline
