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
