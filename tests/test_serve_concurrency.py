"""Many writers on one home: 8 HTTP client processes and 2 MCP stdio servers, 100 writes each.

Each writer works on its own entries in blocks of four (add A, add B, replace A
with its v2, remove B), so the final file is known exactly: any lost update
leaves a B behind or an A without v2. Meanwhile the test reads the file
over and over: it must always parse into whole entries.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from serve_support import make_home, stdio_params, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess
from silcrow.store import MemoryStore
from silcrow.store._document import parse, shape_problems

HTTP_WRITERS = 8
MCP_WRITERS = 2
BLOCKS = 25  # x 4 operations = 100 writes per writer
ENTRY = re.compile(r"w\d+ b\d+ [AB]( v2)?")

WORKER = r'''
import sys

def blocks(me):
    for b in range(BLOCKS):
        a, bb = f"w{me} b{b} A", f"w{me} b{b} B"
        yield {"action": "add", "content": a}
        yield {"action": "add", "content": bb}
        yield {"action": "replace", "old_text": a, "content": a + " v2"}
        yield {"action": "remove", "old_text": bb}

def http(url, token, me):
    import httpx
    routes = {"add": "POST", "replace": "PATCH", "remove": "DELETE"}
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as client:
        for op in blocks(me):
            body = {k: v for k, v in op.items() if k != "action"}
            response = client.request(routes[op["action"]], "/v1/memory/memory", json=body)
            if response.status_code != 200:
                sys.exit(f"writer {me}: {op} -> {response.status_code} {response.text}")

def mcp(command, args, me):
    import anyio
    from mcp import Client, StdioServerParameters

    async def main():
        async with Client(StdioServerParameters(command=command, args=args)) as client:
            for op in blocks(me):
                result = await client.call_tool("memory", {"target": "memory", **op})
                if result.is_error:
                    sys.exit(f"writer {me}: {op} -> {result.structured_content}")

    anyio.run(main)

mode, me = sys.argv[1], int(sys.argv[2])
if mode == "http":
    http(sys.argv[3], sys.argv[4], me)
else:
    mcp(sys.argv[3], sys.argv[4:], me)
'''


def test_no_lost_update_and_the_file_always_parses(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    script = tmp_path / "worker.py"
    script.write_text(f"BLOCKS = {BLOCKS}\n{WORKER}", encoding="utf-8")
    memory = resolve_home(home, "a") / "memories" / "MEMORY.md"
    with ServerProcess(home) as server:
        params = stdio_params(home, "--profile", "a")
        workers = [
            subprocess.Popen([sys.executable, str(script), "http", str(w), server.url, keys["a"]],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
            for w in range(HTTP_WRITERS)
        ] + [
            subprocess.Popen([sys.executable, str(script), "mcp", str(HTTP_WRITERS + w), params.command,
                              *params.args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
            for w in range(MCP_WRITERS)
        ]
        reads = 0
        deadline = time.monotonic() + 600
        while any(w.poll() is None for w in workers) and time.monotonic() < deadline:
            if memory.exists():
                raw = memory.read_text(encoding="utf-8")
                assert not shape_problems(raw, 100_000), raw
                assert all(ENTRY.fullmatch(entry) for entry in parse(raw)), raw
                reads += 1
            time.sleep(0.01)
        failures = [w.communicate(timeout=60)[1] for w in workers if w.wait(timeout=60) != 0]
        assert not failures, failures
        assert server.alive()
    writers = HTTP_WRITERS + MCP_WRITERS
    expected = {f"w{w} b{b} A v2" for w in range(writers) for b in range(BLOCKS)}
    store = MemoryStore(resolve_home(home, "a"))
    final = store.entries("memory")
    assert len(final) == len(expected) and set(final) == expected
    assert len(store.history("memory")) == writers * BLOCKS * 4  # every write journaled once
    assert reads > 10  # the reader really ran alongside the writers
