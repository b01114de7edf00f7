"""The approval gate over a running `silcrow serve`: REST and MCP writes wait, REST approves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from serve_support import CONFIG, http_client, make_home, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess, list_tokens
from silcrow.store import MemoryStore

Served = tuple[ServerProcess, dict[str, str], Path]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = make_home(tmp_path_factory.mktemp("gate") / "home", profiles=("a", "b"))
    profile_a = resolve_home(home, "a")
    (profile_a / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    keys = tokens(home)
    with ServerProcess(home) as server:
        yield server, keys, profile_a
        assert server.alive(), server.output()


def _api(server: ServerProcess, token: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def test_rest_and_mcp_writes_wait_for_approval(served: Served) -> None:
    server, keys, profile_a = served
    api = _api(server, keys["a"])
    added = api.post("/v1/memory/user", json={"content": "Name: Sam"}, headers={"X-Silcrow-Session": "s1"})
    assert added.status_code == 200 and added.json()["pending"] is True
    assert "waiting for the user's approval" in added.json()["message"]

    async def via_mcp() -> str:
        async with http_client(server.url, keys["a"]) as client:
            result = await client.call_tool("memory", {"action": "add", "target": "memory",
                                                        "content": "Deploys with make release"})
            return str(result.content[0].text)  # type: ignore[union-attr]

    mcp_result = json.loads(anyio.run(via_mcp))
    assert mcp_result["pending"] is True
    assert MemoryStore(profile_a).entries("user") == [] and MemoryStore(profile_a).entries("memory") == []

    listed = api.get("/v1/memory/pending").json()["pending"]
    by_id = {item["id"]: item for item in listed}
    rest_item, mcp_item = by_id[added.json()["proposal_id"]], by_id[mcp_result["proposal_id"]]
    token_a = next(r.id for r in list_tokens(profile_a.parent.parent) if r.name == "a")
    assert rest_item["who"] == {"claimed_session": "s1", "client": "rest", "token": "a", "token_id": token_a}
    assert mcp_item["who"]["client"] == "mcp" and mcp_item["who"]["token"] == "a"
    assert rest_item["changes"] == [{"before": None, "after": "Name: Sam"}]

    # Another profile's token sees none of it and cannot decide on it.
    other = _api(server, keys["b"])
    assert other.get("/v1/memory/pending").json()["pending"] == []
    other_person = _api(server, keys["b_review"])
    assert other_person.post(f"/v1/memory/pending/{rest_item['id']}/approve").status_code == 404
    # A read-only token reads the queue but cannot decide.
    reader = _api(server, keys["a_read"])
    assert len(reader.get("/v1/memory/pending").json()["pending"]) == 2
    assert reader.post(f"/v1/memory/pending/{rest_item['id']}/approve").status_code == 403

    # Nor can the write token that proposed them: deciding takes the review scope, a person's.
    assert api.post(f"/v1/memory/pending/{rest_item['id']}/approve").status_code == 403
    assert api.post(f"/v1/memory/pending/{mcp_item['id']}/reject").status_code == 403
    person = _api(server, keys["a_review"])
    approved = person.post(f"/v1/memory/pending/{rest_item['id']}/approve")
    assert approved.status_code == 200 and approved.json()["success"]
    assert MemoryStore(profile_a).entries("user") == ["Name: Sam"]
    rejected = person.post(f"/v1/memory/pending/{mcp_item['id']}/reject", json={"reason": "not now"})
    assert rejected.status_code == 200
    assert api.get("/v1/memory/pending").json()["pending"] == []
    assert person.post(f"/v1/memory/pending/{mcp_item['id']}/approve").status_code == 404
    assert MemoryStore(profile_a).entries("memory") == []
    # Profile b has no gate: its writes apply at once.
    assert other.post("/v1/memory/memory", json={"content": "B fact"}).json().get("pending") is None


def test_a_stale_approval_is_422_and_stays_pending(served: Served) -> None:
    server, keys, profile_a = served
    api = _api(server, keys["a"])
    MemoryStore(profile_a).add("memory", "Editor: vim", origin="cli")
    pid = api.request("DELETE", "/v1/memory/memory", json={"old_text": "vim"}).json()["proposal_id"]
    MemoryStore(profile_a).replace("memory", "vim", "Editor: emacs", origin="cli")
    person = _api(server, keys["a_review"])
    response = person.post(f"/v1/memory/pending/{pid}/approve")
    assert response.status_code == 422 and response.json()["stale"] is True
    [item] = api.get("/v1/memory/pending").json()["pending"]
    assert item["id"] == pid and item["stale"] is True and item["problem"].startswith("No entry in MEMORY.md")
    assert person.post(f"/v1/memory/pending/{pid}/reject").status_code == 200


def test_rest_shows_the_net_effect_and_approval_with_its_base_refuses_when_stale(served: Served) -> None:
    server, keys, profile_a = served
    api, person = _api(server, keys["a"]), _api(server, keys["a_review"])
    store = MemoryStore(profile_a)
    store.add("user", "Drinks tea (zq)", origin="cli")
    store.add("user", "Bank: ACME", origin="cli")
    ops = [{"action": "replace", "old_text": "tea (zq)", "content": "Drinks tea"},
           {"action": "replace", "old_text": "Bank", "content": "Bank: ACME, account zq"},
           {"action": "remove", "old_text": "zq"}]
    pid = api.post("/v1/memory/batch", json={"target": "user", "operations": ops}).json()["proposal_id"]
    [item] = [i for i in api.get("/v1/memory/pending").json()["pending"] if i["id"] == pid]
    assert item["changes"] == [{"before": "Drinks tea (zq)", "after": "Drinks tea"},
                               {"before": "Bank: ACME", "after": None}]
    before = store.entries("user")
    store.add("user", "Lives in Oslo", origin="cli")
    stale = person.post(f"/v1/memory/pending/{pid}/approve", json={"base": item["base"]})
    assert stale.status_code == 422 and stale.json()["stale"] is True
    assert store.entries("user") == [*before, "Lives in Oslo"]
    [again] = [i for i in api.get("/v1/memory/pending").json()["pending"] if i["id"] == pid]
    applied = person.post(f"/v1/memory/pending/{pid}/approve", json={"base": again["base"]})
    assert applied.status_code == 200 and applied.json()["changes"] == again["changes"]
    after = store.entries("user")
    assert "Drinks tea" in after and "Lives in Oslo" in after
    assert not any("Bank" in entry or "zq" in entry for entry in after)
