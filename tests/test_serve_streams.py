"""No caller can hold every connection of `silcrow serve`: MCP offers no event stream to hold
open (stateless JSON, GET /mcp is 405), and one token's requests in progress are capped at
its share of the connections (429 past it), so other callers are still answered."""

from __future__ import annotations

import select
import socket
import time
from pathlib import Path

import httpx
from serve_support import make_home, tokens
from test_serve_limits import raw_connections

from silcrow.serve import ServerProcess

LIMIT = 40  # --max-connections of these servers; a token's share is a quarter


def status_of(sock: socket.socket) -> int:
    """The status code of the answer on ``sock`` (read until its status line is in)."""
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0


def test_event_streams_are_refused_so_one_token_cannot_take_the_server(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    with ServerProcess(home, "--max-connections", str(LIMIT)) as server:
        request = (f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAccept: text/event-stream\r\n"
                   f"Authorization: Bearer {keys['a_read']}\r\n\r\n").encode()
        with raw_connections(server.port, LIMIT + 10) as streams:
            for sock in streams:
                sock.sendall(request)
            statuses = [status_of(sock) for sock in streams]
            # What a refused stream says: 405, why, and what to do instead.
            answer = httpx.get(f"{server.url}/mcp", headers={"Authorization": f"Bearer {keys['a_read']}",
                                                              "Accept": "text/event-stream"})
            assert answer.status_code == 405 and answer.headers["allow"] == "POST"
            assert "POST /mcp" in answer.json()["error"]
            for _attempt in range(200):  # until the server has closed the refused streams
                other = httpx.get(f"{server.url}/v1/memory/user",
                                  headers={"Authorization": f"Bearer {keys['b']}"})
                if other.status_code != 503:
                    break
                time.sleep(0.05)
            assert other.status_code == 200, other.text
        # None held open (200 and a stream); past the connection bound some were 503 at once.
        assert 405 in statuses and set(statuses) <= {405, 503}, statuses


def test_one_token_gets_only_its_share_of_the_connections(tmp_path: Path) -> None:
    """A token holding requests open (headers sent, body never) gets 429 past a quarter of the
    connections; a caller of another profile, and another token of its own, are still answered."""
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    share = LIMIT // 4
    with ServerProcess(home, "--max-connections", str(LIMIT), "--read-timeout", "120") as server:
        request = (f"POST /v1/memory/user HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                   f"Authorization: Bearer {keys['a']}\r\nContent-Type: application/json\r\n"
                   "Content-Length: 100\r\n\r\n").encode()
        # One short of the bound: the readiness probe's connection may not be closed yet on a
        # loaded machine, and past the bound the answer is 503 for everyone, not this token's 429.
        opened = LIMIT - 1
        with raw_connections(server.port, opened) as held:
            for sock in held:
                sock.sendall(request)
            refused: dict[socket.socket, int] = {}
            deadline = time.monotonic() + 60  # a bound on waiting, not a measurement
            while len(refused) < opened - share and time.monotonic() < deadline:
                ready, _, _ = select.select([s for s in held if s not in refused], [], [], 1.0)
                for sock in ready:
                    refused[sock] = status_of(sock)
            assert len(refused) == opened - share and set(refused.values()) == {429}, refused.values()
            waiting = [s for s in held if s not in refused]
            assert not select.select(waiting, [], [], 0)[0]  # the share is still held, unanswered
            for token in ("b", "a_review"):
                for _attempt in range(200):  # until the server has closed the refused ones
                    other = httpx.get(f"{server.url}/v1/memory/user",
                                      headers={"Authorization": f"Bearer {keys[token]}"})
                    if other.status_code != 503:
                        break
                    time.sleep(0.05)
                assert other.status_code == 200, (token, other.text)
            over = httpx.get(f"{server.url}/v1/memory/user", headers={"Authorization": f"Bearer {keys['a']}"})
            assert over.status_code == 429 and "requests in progress" in over.json()["error"]
