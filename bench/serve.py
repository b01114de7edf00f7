"""Benchmark of the MCP server and the HTTP API against the same operations as library calls.

    .venv/bin/python bench/serve.py [--calls 200] [--requests 200] [--facts 1000] [--embedder onnx]

Prints one JSON object on stdout (progress goes to stderr):

* ``library``: p50/p95 of MemoryStore.add, a memory read (entries + usage)
  and LocalProvider.search, in this process: the baseline;
* ``mcp_stdio`` / ``mcp_http``: p50/p95 of the MCP tool calls ``memory``
  (read, add) and ``recall_search`` through the official SDK client, against
  ``silcrow mcp`` (a child process) and ``silcrow serve`` (``/mcp``);
  ``mcp_stdio_wire``: ``memory read`` with JSON-RPC lines written to the pipe
  directly (the server's latency without the SDK client's own work);
* ``rest``: requests/s and p50/p95 of ``POST /v1/memory/memory`` and
  ``POST /v1/recall/search`` with 1 and with 8 concurrent client processes;
* ``in_process``: the same calls through the server's own code path without a
  transport (the agent's tool router; a curated write is also mirrored into
  recall, queued to a background worker, as in a chat);
* ``overhead``: each served p50 divided by the library p50 and by the
  in-process p50 of the same operation (the cost of the transport alone);
* ``targets``: MCP stdio ``memory read`` p95 <= 5 ms; REST p50 <= 2x the library.

Each surface works on its own profile of one home, filled with the same number
of recall facts, with the embedder a home uses by default (offline MiniLM,
``--embedder onnx``); ``--embedder none`` measures lexical recall only.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from rich.console import Console

from silcrow._paths import resolve_home
from silcrow.recall.local import LocalProvider, RecallRecord
from silcrow.serve import ServerProcess, create_token, open_tenant, silcrow_command
from silcrow.store import MemoryStore

CTX = multiprocessing.get_context("fork")
err = Console(stderr=True)
QUERIES = ["garden tomatoes", "train to work", "birthday party", "python tests", "favourite book"]
WORDS = ("garden tomatoes train work birthday party python tests book coffee dog cat music piano "
         "holiday beach mountain bike recipe soup").split()


def pct(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 3),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 3),
            "n": len(ordered)}


def timed(fn: Callable[[int], object], count: int) -> list[float]:
    samples = []
    for i in range(count):
        start = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - start)
    return samples


async def atimed(fn: Callable[[int], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for i in range(count):
        start = time.perf_counter()
        await fn(i)
        samples.append(time.perf_counter() - start)
    return samples


def prepare(home: Path, facts: int, embedder: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f'embedder = "{embedder}"\nmemory_char_limit = 1000000\n',
                                      encoding="utf-8")
    provider = LocalProvider(home, embedder=embedder)
    provider.initialize("bench", home=home)
    texts = [f"fact {i}: " + " ".join(WORDS[(i * k) % len(WORDS)] for k in (1, 3, 7)) for i in range(facts)]
    provider.ingest([RecallRecord(text=text, kind="fact") for text in texts])
    provider.shutdown()


def library(home: Path, calls: int, embedder: str) -> dict[str, Any]:
    store = MemoryStore(home, memory_char_limit=1_000_000)
    provider = LocalProvider(home, embedder=embedder)
    provider.initialize("bench", home=home)
    provider.search("warm up", 8)
    out = {
        "memory_read": pct(timed(lambda i: (store.entries("user"), store.usage("user")), calls)),
        "memory_add": pct(timed(lambda i: store.add("memory", f"Library fact number {i}."), calls)),
        "recall_search": pct(timed(lambda i: provider.search(QUERIES[i % len(QUERIES)], 8), calls)),
    }
    provider.shutdown()
    return out


def in_process(home: Path, calls: int) -> dict[str, Any]:
    """What a server does per call, without a transport: the agent's tool router, including the
    mirroring of a curated write into recall (queued to the manager's worker, as in a chat)."""
    tenant = open_tenant(home)
    tenant.call("recall_search", {"query": "warm up"})
    def read(i: int) -> object:
        return tenant.call("memory", {"action": "read", "target": "user"})

    def add(i: int) -> object:
        return tenant.call("memory", {"action": "add", "target": "memory",
                                      "content": f"In-process fact {i}."})

    def search(i: int) -> object:
        return tenant.call("recall_search", {"query": QUERIES[i % len(QUERIES)], "k": 8})

    out = {"memory_read": pct(timed(read, calls)), "memory_add": pct(timed(add, calls)),
           "recall_search": pct(timed(search, calls))}
    tenant.close()
    return out


async def mcp_calls(client: Client, calls: int, label: str) -> dict[str, Any]:
    await client.list_tools()
    await client.call_tool("recall_search", {"query": "warm up"})

    async def read(i: int) -> None:
        await client.call_tool("memory", {"action": "read", "target": "user"})

    async def add(i: int) -> None:
        await client.call_tool("memory", {"action": "add", "target": "memory",
                                          "content": f"{label} fact number {i}."})

    async def search(i: int) -> None:
        await client.call_tool("recall_search", {"query": QUERIES[i % len(QUERIES)], "k": 8})

    return {"memory_read": pct(await atimed(read, calls)), "memory_add": pct(await atimed(add, calls)),
            "recall_search": pct(await atimed(search, calls))}


def mcp_stdio(home: Path, calls: int) -> dict[str, Any]:
    command = silcrow_command()
    params = StdioServerParameters(command=command[0], args=[*command[1:], "mcp", "--home", str(home)])

    async def main() -> dict[str, Any]:
        async with Client(params) as client:
            return await mcp_calls(client, calls, "stdio")

    return anyio.run(main)


def stdio_wire(home: Path, calls: int) -> dict[str, Any]:
    """``memory read`` as the server answers it on the pipe: JSON-RPC lines written and read
    directly, so the SDK client's own work is not in the figure."""
    command = silcrow_command()
    proc = subprocess.Popen([*command, "mcp", "--home", str(home)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")
    assert proc.stdin is not None and proc.stdout is not None
    pipe_in, pipe_out = proc.stdin, proc.stdout

    def rpc(message: dict[str, Any]) -> None:
        pipe_in.write(json.dumps(message) + "\n")
        pipe_in.flush()
        if "id" in message:
            json.loads(pipe_out.readline())

    hello = {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "bench", "version": "1"}}
    rpc({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
    rpc({"jsonrpc": "2.0", "method": "notifications/initialized"})
    read = {"name": "memory", "arguments": {"action": "read", "target": "user"}}
    samples = timed(lambda i: rpc({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": read}),
                    calls)
    pipe_in.close()
    proc.wait(timeout=30)
    return {"memory_read": pct(samples)}


def mcp_http(url: str, token: str, calls: int) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
            async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
                return await mcp_calls(client, calls, "http")

    return anyio.run(main)


def _rest_worker(args: tuple[str, str, str, int, int]) -> tuple[list[float], float, float]:
    """One client process: (latencies, start, end); CLOCK_MONOTONIC is shared by processes."""
    url, token, op, count, worker = args
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
        def call(i: int) -> None:
            if op == "memory_add":
                response = client.post("/v1/memory/memory", json={"content": f"REST w{worker} fact {i}."})
            else:
                response = client.post("/v1/recall/search", json={"query": QUERIES[i % len(QUERIES)], "k": 8})
            if response.status_code != 200:
                raise RuntimeError(f"{op}: HTTP {response.status_code}: {response.text}")
        call(-1)  # connection set up outside the timing
        start = time.monotonic()
        samples = timed(call, count)
        return samples, start, time.monotonic()


def rest(url: str, token: str, requests: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for op in ("memory_add", "recall_search"):
        out[op] = {}
        for clients in (1, 8):
            per = max(1, requests // clients)
            with CTX.Pool(clients) as pool:
                results = pool.map(_rest_worker, [(url, token, op, per, w) for w in range(clients)])
            samples = [s for r in results for s in r[0]]
            wall = max(r[2] for r in results) - min(r[1] for r in results)
            out[op][str(clients)] = {**pct(samples), "req_s": round(len(samples) / wall, 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls per operation and surface")
    parser.add_argument("--requests", type=int, default=200, help="REST requests per operation and load")
    parser.add_argument("--facts", type=int, default=1000, help="recall facts in each profile")
    parser.add_argument("--embedder", default="bge",
                        help="bge (the default of a home), onnx (MiniLM), none (lexical), ...")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="silcrow-bench-serve-") as tmp:
        home = Path(tmp) / "home"
        for name in ("lib", "inproc", "stdio", "http"):
            err.print(f"preparing profile {name}: {args.facts} recall facts")
            prepare(resolve_home(home, name), args.facts, args.embedder)
        token = create_token(home, profile="http", name="bench")[0]
        err.print("library calls")
        lib = library(resolve_home(home, "lib"), args.calls, args.embedder)
        err.print("the server's calls in this process")
        inproc = in_process(resolve_home(home, "inproc"), args.calls)
        err.print("MCP over stdio")
        stdio = mcp_stdio(resolve_home(home, "stdio"), args.calls)
        wire = stdio_wire(resolve_home(home, "stdio"), args.calls)
        with ServerProcess(home) as server:
            err.print("MCP over streamable HTTP")
            http = mcp_http(server.url, token, args.calls)
            err.print("REST with 1 and 8 client processes")
            api = rest(server.url, token, args.requests)

    def ratio(served: dict[str, Any], op: str, base: dict[str, Any]) -> float:
        return round(served["p50_ms"] / base[op]["p50_ms"], 2)

    rest_ops = ("memory_add", "recall_search")
    overhead = {
        "vs_library": {
            "mcp_stdio": {op: ratio(stdio[op], op, lib) for op in lib},
            "mcp_http": {op: ratio(http[op], op, lib) for op in lib},
            "rest_1_client": {op: ratio(api[op]["1"], op, lib) for op in rest_ops},
        },
        "vs_in_process": {
            "mcp_stdio": {op: ratio(stdio[op], op, inproc) for op in lib},
            "mcp_http": {op: ratio(http[op], op, inproc) for op in lib},
            "rest_1_client": {op: ratio(api[op]["1"], op, inproc) for op in rest_ops},
        },
    }
    result = {
        "config": {"calls": args.calls, "requests": args.requests, "facts": args.facts,
                   "embedder": args.embedder, "cpus": multiprocessing.cpu_count()},
        "library": lib, "in_process": inproc, "mcp_stdio": stdio, "mcp_stdio_wire": wire, "mcp_http": http,
        "rest": api,
        "overhead": overhead,
        "targets": {
            "mcp_stdio_memory_read_p95_le_5ms": {"sdk_client": stdio["memory_read"]["p95_ms"] <= 5.0,
                                                 "wire": wire["memory_read"]["p95_ms"] <= 5.0},
            "rest_p50_le_2x_library": {op: v <= 2.0
                                       for op, v in overhead["vs_library"]["rest_1_client"].items()},
        },
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
