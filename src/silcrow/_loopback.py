"""Start and stop of the loopback HTTP stand-ins (the scripted model, the hosted services).

One implementation so that every stand-in starts on a thread of its own, keeps its port
across a restart (a client built before an outage must reach it after), and stops
without leaving a thread behind.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Self


class LoopbackServer:
    """A threaded HTTP server on ``host:port`` (0: a free port) serving ``handler_class()``."""

    thread_name = "stand-in"
    server_class: type[ThreadingHTTPServer] = ThreadingHTTPServer

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._host, self._port = host, port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    def start(self) -> Self:
        if self._httpd is None:
            httpd = self.server_class((self._host, self._port), self.handler_class())
            self._httpd = httpd
            self._port = httpd.server_address[1]
            self._thread = threading.Thread(
                target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name=self.thread_name, daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
