"""Two `silcrow serve` processes, each with its own home (as on two hosts), on one PostgreSQL
database serve the same notes, recall memories and sessions."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from serve_support import CONFIG, tokens

from silcrow.serve import ServerProcess


def _host(root: Path, dsn: str) -> Path:
    storage = f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n'
    for home in (root, root / "profiles" / "a", root / "profiles" / "b"):
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(CONFIG + storage, encoding="utf-8")
    return root


@pytest.mark.slow
def test_two_servers_on_one_database_serve_the_same_state(pg_dsn: str, tmp_path: Path) -> None:
    one, two = _host(tmp_path / "host1", pg_dsn), _host(tmp_path / "host2", pg_dsn)
    keys1, keys2 = tokens(one), tokens(two)
    with ServerProcess(one) as first, ServerProcess(two) as second:
        a1 = httpx.Client(base_url=first.url, headers={"Authorization": f"Bearer {keys1['a']}"})
        a2 = httpx.Client(base_url=second.url, headers={"Authorization": f"Bearer {keys2['a']}"})
        b2 = httpx.Client(base_url=second.url, headers={"Authorization": f"Bearer {keys2['b']}"})
        assert a1.post("/v1/memory/memory", json={"content": "Deploys need a green CI run."}).is_success
        assert a2.post("/v1/memory/memory", json={"content": "Staging is eu-west-1."}).is_success
        for client in (a1, a2):
            shown = client.get("/v1/memory/memory").text
            assert "Deploys need a green CI run." in shown and "Staging is eu-west-1." in shown
        assert "Deploys" not in b2.get("/v1/memory/memory").text  # profiles stay apart
        assert a2.post("/v1/memory/undo", json={"target": "memory"}).is_success  # undoes host 2's add
        assert "Staging" not in a1.get("/v1/memory/memory").text
        assert a1.post("/v1/recall", json={"text": "The kiln is in the garage."}).is_success
        found = a2.post("/v1/recall/search", json={"query": "kiln", "k": 3})
        assert found.is_success and "The kiln is in the garage." in found.text, found.text
        assert first.alive() and second.alive()


@pytest.mark.slow
def test_on_postgresql_only_a_review_token_decides_and_every_decision_names_its_token(
        pg_dsn: str, tmp_path: Path) -> None:
    from silcrow.serve import list_tokens
    from silcrow.store import MemoryStore

    home = _host(tmp_path / "host", pg_dsn)
    profile = home / "profiles" / "a"
    (profile / "config.toml").write_text((profile / "config.toml").read_text(encoding="utf-8")
                                         + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    keys = tokens(home)
    ids = {r.name: r.id for r in list_tokens(home)}
    with ServerProcess(home) as server:
        model = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a']}"})
        person = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a_review']}"})
        first = model.post("/v1/memory/user", json={"content": "Works from Lisbon"}).json()["proposal_id"]
        second = model.post("/v1/memory/user", json={"content": "Works from Porto"}).json()["proposal_id"]
        assert model.post(f"/v1/memory/pending/{first}/approve").status_code == 403
        assert person.post(f"/v1/memory/pending/{first}/approve").status_code == 200
        assert person.post(f"/v1/memory/pending/{second}/reject", json={"reason": "no"}).status_code == 200
        [record] = [r for r in person.get("/v1/memory/history").json()["records"] if r["target"] == "user"]
        assert record["by"] == {"client": "rest", "token": "a-review", "token_id": ids["a-review"]}
        assert record["proposal"]["token_id"] == ids["a"]
        store = MemoryStore(profile)
        assert store.entries("user") == ["Works from Lisbon"]
        [rejected] = [p for p in store.proposals.decided() if p.id == second]
        assert rejected.decided_by == {"client": "rest", "token": "a-review", "token_id": ids["a-review"]}
        assert server.alive()
