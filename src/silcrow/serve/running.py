"""Run ``silcrow serve`` / ``silcrow mcp`` as child processes: for the demo, the benchmark, the tests.

:class:`ServerProcess` starts ``silcrow serve`` on a free loopback port, waits
(bounded) until ``/healthz`` answers, and stops it on exit.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

from silcrow.errors import SilcrowError


def silcrow_command() -> list[str]:
    """How to run this interpreter's ``silcrow`` (the console script when it is installed)."""
    script = Path(sys.executable).with_name("silcrow")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from silcrow.cli.main import main; main()"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``silcrow serve --home HOME`` on 127.0.0.1 and a free port (see module doc)."""

    def __init__(self, home: Path, *extra: str, startup_timeout: float = 60.0) -> None:
        self.home = home
        self.extra = extra
        self.startup_timeout = startup_timeout
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = home / "serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        for _attempt in range(3):  # a port found free may be taken before the child binds it
            self.port = free_port()
            with open(os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as log:
                self.proc = subprocess.Popen(
                    [*silcrow_command(), "serve", "--home", str(self.home), "--port", str(self.port),
                     *self.extra],
                    stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"})
            if self._wait_healthy():
                return self
            self.stop()
        raise SilcrowError(f"silcrow serve did not start; its output: {self.output()}")

    def _wait_healthy(self) -> bool:
        deadline = time.monotonic() + self.startup_timeout
        assert self.proc is not None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        return False

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
