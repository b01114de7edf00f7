"""The supermemory provider with the 3.x client (Hermes' plugin uses it) against the v3/v4 stand-in.

The 3.x package lives in ``.venv/supermemory3`` (``make test`` puts it there), apart from the
5.x one installed in the venv; a subprocess puts it first on PYTHONPATH, so the provider
imports the 3.x client for real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from testing_services import SupermemoryStandIn

ROOT = Path(__file__).resolve().parents[1]
CLIENT3 = ROOT / ".venv" / "supermemory3"

SCRIPT = r"""
import importlib.metadata, json, pathlib, sys
from silcrow.recall.contract import check_provider_contract
from silcrow.providers.supermemory import SupermemoryProvider

url, home = sys.argv[1], pathlib.Path(sys.argv[2])
env = {"SUPERMEMORY_API_KEY": "test-key", "SUPERMEMORY_BASE_URL": url}
check_provider_contract(SupermemoryProvider(home / "contract", environ=env), home / "contract")
p = SupermemoryProvider(home, environ={**env, "SUPERMEMORY_CONTAINER_TAG": "apart"})  # not the contract's
p.initialize("s-1", home=home)
p.sync_turn("I adopted a cat and my cat is called Miso.", "Noted.", session_id="s-1")
p.on_memory_write("add", "user", "The user drinks green tea every morning")
tool = lambda name, **a: json.loads(p.handle_tool_call(name, a))
print(json.dumps({
    "version": importlib.metadata.version("supermemory"),
    "api": type(p.api).__name__,
    "recall": p.prefetch("What is my cat called?"),
    "search": tool("supermemory_search", query="green tea"),
    "profile": tool("supermemory_profile"),
    "forget": tool("supermemory_forget", query="green tea"),
    "after": tool("supermemory_search", query="green tea"),
    "trip": p.round_trip("silcrow probe 3x"),
}))
"""


def test_the_3x_client_speaks_the_v3_v4_api(tmp_path: Path) -> None:
    if not (CLIENT3 / ".complete").exists():
        pytest.fail(f"{CLIENT3} is missing: run `make .venv/supermemory3/.complete` (or `make test`)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(CLIENT3), os.environ.get("PYTHONPATH", "")])}
    with SupermemoryStandIn("test-key") as service:
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, service.base_url, str(tmp_path)],
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        assert out["version"].startswith("3.") and out["api"] == "SupermemoryApiV3"
        assert "Miso" in out["recall"]
        assert out["search"]["count"] == 1 and "green tea" in out["search"]["results"][0]["content"]
        assert out["profile"]["static_count"] == 1
        assert out["forget"]["forgotten"] is True and out["after"]["count"] == 0
        assert out["trip"]["found"] is True
        assert service.violations == []
        paths = service.paths()
        assert paths and all(p.startswith(("/v3/", "/v4/")) for p in paths), paths  # never the v5 routes
