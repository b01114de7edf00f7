"""A real service's server run as a subprocess by the tests: a free loopback port, the wait until
it answers, its log, and its stop (shared by openviking_support and hindsight_support)."""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import cpu_support
import httpx

from silcrow.testing import ScriptedModelServer


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """``process`` serving ``base_url``, its output in ``log``, its model calls on ``model``."""

    name: str
    base_url: str
    process: subprocess.Popen[bytes]
    model: ScriptedModelServer
    log: Path

    def log_tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.model.stop()

    def wait_until_answers(self, path: str, timeout: float) -> None:
        """Return once GET ``path`` answers 200; stop and raise (with the log) if the server exits
        or does not answer within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                if cpu_support.died_of_sigill(self.process.returncode):  # a skip, not a failure
                    raise cpu_support.illegal_instruction(self.name, "an instruction set this CPU lacks", ())
                raise RuntimeError(f"{self.name} exited ({self.process.returncode}):\n{self.log_tail()}")
            try:
                if httpx.get(self.base_url + path, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"{self.name} did not answer {path} within {timeout:g} s:\n{self.log_tail()}")
