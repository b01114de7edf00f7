"""The real OpenViking server (PyPI ``openviking``, pinned in the Makefile) for the tests, on loopback.

`make test` builds ``.venv-openviking`` (its own virtualenv: its dependencies are not silcrow's).
:func:`start` writes an ``ov.conf`` into a fresh workspace and runs ``openviking-server --config``
from there; its embedding model is silcrow's real MiniLM served over loopback by the
ScriptedModelServer (OpenAI's ``/v1/embeddings`` wire format), and its VLM is that same
server's scripted chat completions (no hosted model here).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from server_process import ServerProcess, free_port

from silcrow.models import get_embedder
from silcrow.testing import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
OPENVIKING_BIN = ROOT / ".venv-openviking" / "bin"
OPENVIKING_VERSION = "0.5.2"
ROOT_KEY = "silcrow-test-root-key"


def _vlm_reply(body: dict[str, Any]) -> dict[str, Any]:
    """What the scripted VLM answers OpenViking: a short plain summary of the last message, or an
    empty JSON object where OpenViking asks for JSON (no memories extracted, nothing invented)."""
    messages = body.get("messages") or [{}]
    last = messages[-1].get("content") or ""
    text = last if isinstance(last, str) else json.dumps(last)
    if "json" in text.casefold() or (body.get("response_format") or {}).get("type") == "json_object":
        return {"content": "{}"}
    return {"content": " ".join(text.split())[:200] or "empty"}


@dataclass
class OpenVikingServer(ServerProcess):
    mode: str = "dev"

    def admin(self, method: str, path: str, **kwargs: Any) -> Any:
        """A call with the root key (api-key mode's admin API)."""
        reply = httpx.request(method, self.base_url + path, headers={"X-API-Key": ROOT_KEY}, timeout=30,
                              **kwargs)
        assert reply.status_code < 300, (reply.status_code, reply.text)
        return reply.json().get("result")

    def user_key(self, account: str, user: str) -> str:
        """A new account with ``user`` as its admin: that user's API key (api-key mode)."""
        body = {"account_id": account, "admin_user_id": user}
        made = self.admin("POST", "/api/v1/admin/accounts", json=body)
        return str(made["user_key"])


def start(workspace: Path, *, mode: str = "dev") -> OpenVikingServer:
    """A fresh OpenViking server in ``mode`` ("dev", "api_key" or "trusted") on a free loopback port."""
    binary = OPENVIKING_BIN / "openviking-server"
    if not binary.exists():
        raise RuntimeError(
            f"{binary} is missing: run `make .venv-openviking/.installed` (or `make test`) first"
        )
    model = ScriptedModelServer(default=_vlm_reply, embedder=get_embedder("onnx")).start()
    port = free_port()
    workspace.mkdir(parents=True, exist_ok=True)
    server: dict[str, Any] = {"host": "127.0.0.1", "port": port}
    if mode != "dev":
        server["root_api_key"] = ROOT_KEY
        server["auth_mode"] = mode
    config = {
        "storage": {"workspace": str(workspace / "data")},
        "embedding": {
            "dense": {
                "provider": "openai",
                "model": "all-MiniLM-L6-v2",
                "api_base": model.base_url,
                "api_key": "loopback",
                "dimension": 384,
                "input": "text",
            }
        },
        "vlm": {"provider": "openai", "model": "silcrow-scripted-stand-in", "api_base": model.base_url,
                "api_key": "loopback", "max_retries": 0},
        "server": server,
    }
    conf = workspace / "ov.conf"
    conf.write_text(json.dumps(config, indent=2), encoding="utf-8")
    log = workspace / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "OPENVIKING"))}
    env["HOME"] = str(workspace)  # never the real ~/.openviking
    with log.open("wb") as out:
        process = subprocess.Popen([str(binary), "--config", str(conf)], cwd=workspace, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
    running = OpenVikingServer("openviking-server", f"http://127.0.0.1:{port}", process, model, log, mode)
    running.wait_until_answers("/health", 180)
    return running
