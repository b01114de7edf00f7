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


def free_port(host: str = "127.0.0.1") -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``silcrow serve --home HOME`` on a loopback address (127.0.0.1 unless ``host``) and a free
    port (see module doc)."""

    def __init__(self, home: Path, *extra: str, startup_timeout: float = 60.0,
                 host: str = "127.0.0.1") -> None:
        self.home = home
        self.host = host  # as given to --host ('[::1]' too)
        self._bare = host.strip("[]")
        self.extra = extra
        self.startup_timeout = startup_timeout
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = home / "serve.log"

    @property
    def url(self) -> str:
        host = f"[{self._bare}]" if ":" in self._bare else self._bare
        return f"http://{host}:{self.port}"

    def start(self) -> ServerProcess:
        for _attempt in range(3):  # a port found free may be taken before the child binds it
            self.port = free_port(self._bare)
            with open(os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as log:
                self.proc = subprocess.Popen(
                    [*silcrow_command(), "serve", "--home", str(self.home), "--host", self.host,
                     "--port", str(self.port), *self.extra],
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
