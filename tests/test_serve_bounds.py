"""Bounded bodies and malformed input on every route of a real `silcrow serve` subprocess.

A body is refused past its route's bound before anything buffers or parses it, on the public
routes too (the one-time login needs no token): several large bodies at once, declared or
chunked, leave the server's peak memory where it was. Malformed JSON is a 400 (or 413 past
the bound) that names the problem, never a 500 or a traceback in the log.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import make_home, tokens

from silcrow.serve import ServerProcess
from silcrow.serve._limits import LOGIN_BODY, MAX_BODY

CSRF = {"X-Silcrow-CSRF": "1"}
MiB = 1024 * 1024
Served = tuple[ServerProcess, dict[str, str]]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = make_home(tmp_path_factory.mktemp("bounds") / "home", profiles=("a", "b"))
    keys = tokens(home)
    with ServerProcess(home, "--profile", "a") as server:
        yield server, keys
        assert server.alive(), server.output()
        assert "Traceback" not in server.output(), server.output()


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def _send_large(port: int, path: str, total: int, *, chunked: bool, token: str | None = None) -> bytes:
    """POST ``total`` bytes to ``path`` on a raw socket (declared, or chunked with no length), as
    fast as the server takes them; returns what the server answered (b"" if it only closed)."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "X-Silcrow-CSRF: 1\r\n")
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {total}\r\n"
    piece = b'{"code": "' + b"x" * (MiB - 10)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        try:
            sock.sendall(head.encode("ascii") + b"\r\n")
            sent = 0
            while sent < total:
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except OSError:  # the server answered and closed: the point
            pass
        try:
            return sock.recv(4096)
        except OSError:
            return b""


def test_large_bodies_in_parallel_leave_the_servers_memory_bounded(served: Served) -> None:
    server, keys = served
    assert server.proc is not None
    pid = server.proc.pid
    httpx.get(server.url + "/healthz", timeout=30)
    peak_before = _status_kib(pid, "VmHWM")
    answers: list[bytes] = []
    jobs = [("/ui/login/once", False, None), ("/ui/login/once", True, None),
            ("/healthz", True, None), ("/v1/memory/memory", True, keys["a"]),
            ("/mcp", False, keys["a"]), ("/ui/login/once", False, None)]

    def send(path: str, chunked: bool, token: str | None) -> None:
        answers.append(_send_large(server.port, path, 96 * MiB, chunked=chunked, token=token))

    threads = [threading.Thread(target=send, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    grown = (_status_kib(pid, "VmHWM") - peak_before) / 1024
    # 6 x 96 MiB were sent at once; buffering even one of them would pass this.
    assert grown < 48, f"peak RSS grew by {grown:.0f} MiB"
    assert all(a == b"" or a.startswith(b"HTTP/1.1 413") for a in answers), answers
    assert any(a.startswith(b"HTTP/1.1 413") for a in answers)
    assert httpx.get(server.url + "/healthz", timeout=30).status_code == 200


def test_each_route_class_has_its_bound(served: Served) -> None:
    server, keys = served
    anonymous = httpx.Client(base_url=server.url, timeout=60)
    over_login = {"code": "x" * LOGIN_BODY}
    refused = anonymous.post("/ui/login/once", json=over_login, headers=CSRF)
    assert refused.status_code == 413 and f"over {LOGIN_BODY} bytes" in refused.json()["error"]
    # Chunked, no length declared: counted as it arrives.
    streamed = anonymous.post("/ui/login/once", headers={**CSRF, "content-type": "application/json"},
                              content=iter([b'{"code": "', b"x" * 800, b"y" * 800, b'"}']))
    assert streamed.status_code == 413
    assert anonymous.post("/healthz", content=b"x" * 2048).status_code == 413
    # Under the bound the login answers as before: a wrong code is 401.
    assert anonymous.post("/ui/login/once", json={"code": "nope"}, headers=CSRF).status_code == 401
    api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a']}"}, timeout=60)
    big = api.post("/v1/memory/memory", json={"content": "x" * MAX_BODY})
    assert big.status_code == 413 and f"over {MAX_BODY} bytes" in big.json()["error"]
    assert api.post("/v1/memory/memory", json={"content": "x" * 1000}).status_code == 200


DEEP_LIST = "[" * 3000 + "]" * 3000
DEEP_OBJECT = '{"a":' * 3000 + "1" + "}" * 3000


@pytest.mark.parametrize("path", ["/v1/memory/memory", "/v1/memory/batch", "/v1/recall/search",
                                  "/ui/memory/memory/add", "/ui/recall", "/mcp"])
@pytest.mark.parametrize("body", [DEEP_LIST, DEEP_OBJECT], ids=["list", "object"])
def test_deeply_nested_json_is_a_400_naming_the_problem(served: Served, path: str, body: str) -> None:
    server, keys = served
    client = httpx.Client(base_url=server.url, timeout=60, headers={
        "Authorization": f"Bearer {keys['a_review']}", "content-type": "application/json",
        "accept": "application/json, text/event-stream", **CSRF})
    answer = client.post(path, content=body)
    assert answer.status_code == 400, answer.text
    assert "nested too deeply" in answer.text or "recursion limit" in answer.text, answer.text
    assert "Traceback" not in server.output()


@pytest.mark.parametrize("body", [DEEP_LIST, "[" * 500 + "]" * 500, '{"code": {"nested": "x"}}', "{bad",
                                  '"\\ud800"'])
def test_malformed_login_bodies_are_refused_with_the_reason(served: Served, body: str) -> None:
    server, _ = served
    answer = httpx.post(server.url + "/ui/login/once", content=body, timeout=60,
                        headers={**CSRF, "content-type": "application/json"})
    if len(body) > LOGIN_BODY:
        assert answer.status_code == 413 and "over 1024 bytes" in answer.json()["error"]
    else:
        assert answer.status_code == 400, answer.text
        assert "malformed request" in answer.json()["error"]
    assert "Traceback" not in server.output()
