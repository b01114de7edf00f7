"""The servers survive bad input: malformed JSON-RPC, clients that vanish mid-call, damaged files."""

from __future__ import annotations

import json
import select
import socket
import subprocess
from pathlib import Path
from typing import Any

import httpx
from serve_support import make_home, stdio_params, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess
from silcrow.store import MemoryStore

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def read_call(target: str = "user", rid: int = 9) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "memory", "arguments": {"action": "read", "target": target}}}


class RawStdio:
    """`silcrow mcp` driven line by line, to send what no well-behaved client would."""

    def __init__(self, home: Path) -> None:
        params = stdio_params(home)
        self.proc = subprocess.Popen([params.command, *params.args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     encoding="utf-8")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 30.0) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        return json.loads(self.proc.stdout.readline()) if ready else None


def test_stdio_survives_malformed_json_rpc(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home")
    MemoryStore(home).add("user", "User is Sam.")
    server = RawStdio(home)
    try:
        server.send("this is not JSON at all")
        garbage = server.reply()  # answered, as JSON-RPC asks, not dropped
        assert garbage is not None and garbage["id"] is None and garbage["error"]["code"] == -32700
        server.send(json.dumps(INIT))
        first = server.reply()
        assert first is not None and first["id"] == 1 and "result" in first
        server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        server.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "mem')
        cut = server.reply()
        assert cut is not None and cut["error"]["code"] == -32700
        server.send(json.dumps({"hello": "world"}))
        not_rpc = server.reply()
        assert not_rpc is not None and not_rpc["id"] is None and not_rpc["error"]["code"] == -32600
        server.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}))
        assert server.reply() == {"jsonrpc": "2.0", "id": 3, "error": {
            "code": -32601, "message": "Method not found", "data": "no/such/method"}}
        server.send(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                                "params": {"name": "memory", "arguments": "not an object"}}))
        bad_params = server.reply()
        assert bad_params is not None and bad_params["id"] == 4 and bad_params["error"]["code"] == -32602
        server.send(json.dumps(read_call()))
        answer = server.reply()
        assert answer is not None and answer["result"]["structuredContent"]["entries"] == ["User is Sam."]
    finally:
        assert server.proc.stdin is not None
        server.proc.stdin.close()
        assert server.proc.wait(timeout=30) == 0  # a clean exit when the client goes away


def test_stdio_client_gone_mid_call(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home")
    server = RawStdio(home)
    server.send(json.dumps(INIT))
    assert server.reply() is not None
    server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    add = {"action": "add", "target": "memory", "content": "Written at exit."}
    server.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                            "params": {"name": "memory", "arguments": add}}))
    assert server.proc.stdin is not None
    server.proc.stdin.close()  # gone before the answer
    assert server.proc.wait(timeout=30) == 0
    assert "Traceback" not in (server.proc.stderr.read() if server.proc.stderr else "")
    store = MemoryStore(home)
    assert store.entries("memory") in ([], ["Written at exit."])  # all or nothing, never torn
    assert all(report["ok"] for report in store.doctor())


def _half_request(port: int, head: bytes, body: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head + body)
    # closed without reading a byte of the answer


def test_http_survives_malformed_json_rpc_and_vanishing_clients(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    auth = {"Authorization": f"Bearer {keys['a']}"}
    with ServerProcess(home) as server:
        mcp = f"{server.url}/mcp"
        garbage = httpx.post(mcp, content=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/li',
                             headers={**MCP_HEADERS, **auth})
        assert garbage.status_code == 400 and garbage.json()["error"]["code"] == -32700
        not_rpc = httpx.post(mcp, json={"hello": "world"}, headers={**MCP_HEADERS, **auth})
        assert not_rpc.status_code == 400 and "error" in not_rpc.json()

        # a whole MCP write sent, then the socket closed before the answer
        call = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "memory", "arguments": {"action": "add", "target": "memory",
                                            "content": "Sent by a client that left."}}}).encode()
        head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {keys['a']}"
                f"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                f"Content-Length: {len(call)}\r\n\r\n").encode()
        _half_request(server.port, head, call)
        # a REST body cut short: promised 1000 bytes, sent 12
        _half_request(server.port, (f"POST /v1/memory/memory HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    f"Authorization: Bearer {keys['a']}\r\nContent-Type: application/json\r\n"
                                    "Content-Length: 1000\r\n\r\n").encode(), b'{"content": ')

        # The token is checked (on a worker thread) before the body is read, so a client gone by
        # then has its call dropped unread; one read already runs to its end. Never half of it.
        store = MemoryStore(resolve_home(home, "a"))
        assert store.entries("memory") in ([], ["Sent by a client that left."])
        assert httpx.get(f"{server.url}/v1/memory/memory", headers=auth).json()["entry_count"] in (0, 1)
        assert all(report["ok"] for report in store.doctor())
        assert server.alive()


def test_damaged_memory_files_are_reported_not_fatal(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    auth = {"Authorization": f"Bearer {keys['a']}"}
    memories = resolve_home(home, "a") / "memories"
    memories.mkdir(parents=True)
    # hand-edited: bytes that are not UTF-8 and a delimiter with stray spaces
    (memories / "MEMORY.md").write_bytes(b"Good entry.\n\xff\xfe broken\n \xc2\xa7 \nThird part.")
    with ServerProcess(home) as server:
        api = httpx.Client(base_url=server.url, headers=auth, timeout=30)
        read = api.get("/v1/memory/memory").json()
        assert read["success"] and read["entry_count"] == 1 and "Good entry." in read["entries"][0]
        added = api.post("/v1/memory/memory", json={"content": "Fresh fact."}).json()
        assert "not valid UTF-8" in json.dumps(added)  # said in the result, not swallowed
        assert "silcrow memory doctor" in json.dumps(added)

        (memories / "USER.md").mkdir()  # a directory where the file should be
        # A file that cannot be read is 409 on every route that meets it (one table).
        user = api.get("/v1/memory/user")
        assert user.status_code == 409 and "USER.md" in user.json()["error"]
        assert api.post("/v1/memory/user", json={"content": "x"}).status_code == 409
        prompt = api.get("/v1/prompt")
        assert prompt.status_code == 409 and "USER.md" in prompt.json()["error"]
        assert api.get("/v1/memory/memory").status_code == 200  # the other file still serves
        (memories / "USER.md").rmdir()
        assert api.post("/v1/memory/user", json={"content": "User is back."}).status_code == 200
        assert server.alive()
