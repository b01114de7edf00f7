"""`silcrow serve` under attack: no token means closed, and every route checks Host and Origin.

Each test starts the real server on loopback and talks to it with httpx or the
MCP SDK's client, as an attacker's browser or a stray local process would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from serve_support import http_client, make_home, tokens
from test_serve_http import ROUTES

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess, revoke_token, silcrow_command, tokens_path
from silcrow.store import MemoryStore

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
MCP_HEADERS = {"accept": "application/json, text/event-stream"}


def every_route(url: str, headers: dict[str, str]) -> list[tuple[str, httpx.Response]]:
    """Each REST route and the MCP endpoint, called once with ``headers``."""
    with httpx.Client(base_url=url, headers=headers, timeout=30) as http:
        answers = [(f"{m} {p}", http.request(m, p, json=b)) for m, p, b in ROUTES]
        answers.append(("POST /mcp", http.post("/mcp", json=PING, headers=MCP_HEADERS)))
    return answers


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- zero tokens: closed, never open -------------------------------------------------------------

def test_revoking_the_last_token_closes_every_route(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    with ServerProcess(home) as server:
        assert every_route(server.url, bearer(keys["a"]))[0][1].status_code == 200
        for name in ("a", "a-read", "a-review", "b", "b-review"):
            revoke_token(home, name)
        for headers in ({}, bearer(keys["a"])):  # anonymous, and a token that was valid
            for route, answer in every_route(server.url, headers):
                assert answer.status_code == 503, (route, answer.text)
                assert "silcrow tokens create" in answer.json()["error"], route
        assert MemoryStore(resolve_home(home, "a")).entries("memory") == []  # nothing was written
        assert "no API token exists" in server.output()  # the operator sees why, once
        assert server.output().count("no API token exists") == 1
        fresh = tokens(home)  # a new token: served again, never open
        assert every_route(server.url, {})[0][1].status_code == 401
        assert httpx.get(f"{server.url}/v1/memory/user", headers=bearer(fresh["b"])).status_code == 200


def test_missing_or_corrupt_token_file_fails_closed_without_naming_it(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    path = tokens_path(home)
    with ServerProcess(home) as server:
        good = path.read_bytes()
        path.rename(path.with_suffix(".moved"))
        for route, answer in every_route(server.url, bearer(keys["a"])):
            assert answer.status_code == 503, (route, answer.text)
        path.write_text("{not json", encoding="utf-8")
        for headers in ({}, bearer(keys["a"])):
            for route, answer in every_route(server.url, headers):
                assert answer.status_code == 503, (route, answer.text)
                assert str(home) not in answer.text and "tokens.json" not in answer.text, route
        assert str(path) in server.output()  # the log names the file for the operator
        path.write_bytes(good)
        assert httpx.get(f"{server.url}/v1/memory/user", headers=bearer(keys["a"])).status_code == 200


def test_loopback_without_tokens_is_closed_unless_started_with_no_auth(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a",))
    with ServerProcess(home, "--profile", "a") as server:
        assert "every request is refused" in server.output()
        for route, answer in every_route(server.url, {}):
            assert answer.status_code == 503, (route, answer.text)
            assert "silcrow tokens create" in answer.json()["error"]
    assert MemoryStore(resolve_home(home, "a")).entries("user") == []


@pytest.mark.parametrize("host,with_token", [("127.0.0.1", True), ("0.0.0.0", False)])
def test_no_auth_is_refused_with_tokens_or_off_loopback(tmp_path: Path, host: str, with_token: bool) -> None:
    import subprocess

    home = make_home(tmp_path / "home", profiles=("a",))
    if with_token:
        tokens(home)
    refused = subprocess.run([*silcrow_command(), "serve", "--home", str(home), "--host", host, "--port", "1",
                              "--no-auth"], capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "--no-auth" in refused.stderr


# -- Host and Origin (DNS rebinding) -------------------------------------------------------------

def test_foreign_host_or_origin_is_refused_on_every_route(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    MemoryStore(resolve_home(home, "a")).add("user", "User's door code is 4321.")
    with ServerProcess(home) as server:
        port = server.port
        auth = bearer(keys["a"])
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}",
                     f"localhost.evil:{port}", f"127.0.0.1.nip.io:{port}"):
            for route, answer in every_route(server.url, {**auth, "Host": host}):
                assert answer.status_code == 421, (host, route, answer.text)
                assert "door code" not in answer.text
            for path in ("/healthz", "/docs", "/openapi.json", "/any/later/page"):
                assert httpx.get(f"{server.url}{path}", headers={"Host": host}).status_code == 421, path
        for origin in ("http://evil.example", f"http://evil.example:{port}", "null",
                       f"http://127.0.0.1:{port + 1}", f"https://localhost.evil:{port}"):
            for route, answer in every_route(server.url, {**auth, "Origin": origin}):
                assert answer.status_code == 403, (origin, route, answer.text)
        assert MemoryStore(resolve_home(home, "a")).entries("memory") == []  # no write got through
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            answer = httpx.get(f"{server.url}/v1/memory/user", headers={**auth, "Host": host,
                                                                       "Origin": f"http://{host}"})
            assert answer.status_code == 200, (host, answer.text)
        assert "evil.example" in server.output()  # logged for the operator


def _mcp_read(url: str, token: str) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        async with http_client(url, token) as client:
            result = await client.call_tool("memory", {"action": "read", "target": "user"})
            return dict(result.structured_content or {})

    return anyio.run(main)


def test_other_loopback_addresses_and_proxy_names(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    MemoryStore(resolve_home(home, "a")).add("user", "User is Sam.")
    with ServerProcess(home, "--allow-host", "memory.internal", host="127.0.0.2") as server:
        assert _mcp_read(server.url, keys["a"])["entries"] == ["User is Sam."]  # MCP on 127.0.0.2
        auth = bearer(keys["a"])
        assert httpx.get(f"{server.url}/v1/memory/user", headers=auth).status_code == 200
        proxied = {**auth, "Host": "memory.internal", "Origin": "https://memory.internal"}
        assert httpx.get(f"{server.url}/v1/memory/user", headers=proxied).status_code == 200
        mcp = f"{server.url}/mcp"
        assert httpx.post(mcp, json=PING, headers={**proxied, **MCP_HEADERS}).status_code == 200
        rebound = {**auth, "Host": f"evil.example:{server.port}"}
        assert httpx.post(mcp, json=PING, headers={**rebound, **MCP_HEADERS}).status_code == 421
        assert httpx.get(f"{server.url}/v1/memory/user", headers=rebound).status_code == 421


def test_ipv6_loopback_starts_and_checks_host(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    keys = tokens(home)
    with ServerProcess(home, host="[::1]") as server:  # as a user types it
        assert server.url == f"http://[::1]:{server.port}"
        assert _mcp_read(server.url, keys["a"])["success"]
        auth = bearer(keys["a"])
        assert httpx.get(f"{server.url}/v1/memory/user", headers=auth).status_code == 200
        evil = {**auth, "Host": f"evil.example:{server.port}"}
        assert httpx.get(f"{server.url}/v1/memory/user", headers=evil).status_code == 421


def test_json_errors_of_the_guard_are_plain(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home")
    with ServerProcess(home) as server:
        answer = httpx.get(f"{server.url}/healthz", headers={"Host": "evil.example"})
        body = json.loads(answer.text)
        assert body["success"] is False and "--allow-host" in body["error"]
        assert os.fspath(home) not in answer.text


def test_the_inspector_page_is_behind_the_same_guard(tmp_path: Path) -> None:
    """The web inspector is mounted on the served app, so Host, Origin and token checks cover it."""
    home = make_home(tmp_path / "home", profiles=("a",))
    keys = tokens(home)
    MemoryStore(resolve_home(home, "a")).add("user", "User's door code is 4321.")
    with ServerProcess(home) as server:
        auth = {**bearer(keys["a"]), "X-Silcrow-CSRF": "1"}
        pages = ("/", "/ui/notes", "/ui/prompt", "/ui/pending", "/ui/sessions")
        for path in pages:
            answer = httpx.get(f"{server.url}{path}", headers={**auth, "Host": f"evil.example:{server.port}"})
            assert answer.status_code == 421, (path, answer.text)
            assert "door code" not in answer.text
        cross_site = httpx.post(f"{server.url}/ui/memory/user/add", data={"content": "planted"},
                                headers={**auth, "Origin": "http://evil.example"})
        assert cross_site.status_code == 403, cross_site.text
        assert httpx.get(f"{server.url}/ui/notes").status_code == 401  # no token: nothing shown
        notes = httpx.get(f"{server.url}/ui/notes", headers=bearer(keys["a"]))
        assert notes.status_code == 200 and "door code" in notes.text
        assert [e for e in MemoryStore(resolve_home(home, "a")).entries("user") if "planted" in e] == []


def test_no_auth_is_refused_with_a_proxy_name(tmp_path: Path) -> None:
    """--allow-host is for a reverse proxy, which brings callers from anywhere to the loopback
    port: with --no-auth they would all get write access without a token."""
    import subprocess

    home = make_home(tmp_path / "home", profiles=("a",))
    refused = subprocess.run([*silcrow_command(), "serve", "--home", str(home), "--port", "1", "--no-auth",
                              "--allow-host", "memory.example.com"],
                             capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "--no-auth" in refused.stderr and "--allow-host" in refused.stderr
    with ServerProcess(home, "--no-auth", "--allow-host", "localhost") as server:  # a loopback name is fine
        assert httpx.get(f"{server.url}/v1/memory/user").status_code == 200
