"""Entry metadata, the archive and review over the HTTP API and the inspector, on a real server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import make_home, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess
from silcrow.store import MemoryStore


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, dict[str, str]]]:
    home = make_home(tmp_path_factory.mktemp("serve") / "home", profiles=("a",))
    keys = tokens(home)
    with ServerProcess(home) as server:
        yield server, keys
        assert server.alive(), server.output()


def _client(server: ServerProcess, token: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60)


def test_details_archive_restore_and_review_over_rest(served: tuple[ServerProcess, dict[str, str]]) -> None:
    server, keys = served
    api = _client(server, keys["a"])
    home: Path = resolve_home(server.home, "a")
    store = MemoryStore(home)
    store.add("user", "User lives in Lisbon", origin="cli")
    assert api.post("/v1/memory/user", json={"content": "User moved to Porto in March"}).json()["success"]
    details = api.get("/v1/memory/details", params={"target": "user"}).json()["details"]["user"]
    assert [d["added_by"]["origin"] for d in details] == ["cli", "rest"]  # journaled as the API that wrote it
    # Reading the notes over the API surfaces them (metadata).
    api.get("/v1/memory/user")
    assert all(d["surfaced_by"] == "tool" for d in store.details("user")["user"])

    found = api.post("/v1/memory/review").json()["findings"]
    assert [f["kind"] for f in found] == ["contradicted"] and found[0]["proposal_id"]
    assert store.entries("user") == ["User lives in Lisbon", "User moved to Porto in March"]

    store.remove("user", "Lisbon", origin="cli")
    items = api.get("/v1/memory/archive", params={"query": "lisbon"}).json()["archive"]
    assert [i["text"] for i in items] == ["User lives in Lisbon"]
    restored = api.post(f"/v1/memory/archive/{items[0]['id']}/restore")
    assert restored.status_code == 200, restored.text
    assert "User lives in Lisbon" in store.entries("user")
    # A restore is a committed add like any other: the recall provider hears of it (on the
    # manager's background worker, after the answer: looked for until it is there).
    deadline = time.monotonic() + 30
    query = {"query": "where does the user live, Lisbon", "k": 5}
    while True:
        hits = api.post("/v1/recall/search", json=query).json()
        if any("User lives in Lisbon" in h["text"] for h in hits["results"]) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert any("User lives in Lisbon" in h["text"] for h in hits["results"]), hits
    assert [r["origin"] for r in store.history("user")][-1] == "rest"
    assert api.post("/v1/memory/archive/nope/restore").status_code == 404
    assert api.get("/v1/memory/archive", params={"target": "both"}).status_code == 400


def test_the_inspector_shows_metadata_and_the_archive(served: tuple[ServerProcess, dict[str, str]]) -> None:
    server, keys = served
    web = _client(server, keys["a"])
    web.headers["X-Silcrow-CSRF"] = "1"
    home = resolve_home(server.home, "a")
    store = MemoryStore(home)
    store.add("memory", "Deploy <b>only</b> on Tuesdays", origin="cli")
    store.remove("memory", "Tuesdays", origin="cli")
    notes = web.get("/ui/notes").text
    assert "added " in notes or "written before" in notes
    panel = web.get("/ui/archive", params={"q": "tuesdays"}).text
    assert "Deploy &lt;b&gt;only&lt;/b&gt; on Tuesdays" in panel and "<b>only" not in panel
    item = store.archived("tuesdays")[0]
    # A write token (what a model holds) cannot restore through the inspector: that is a person's edit.
    assert "Restore" not in panel
    refused = web.post(f"/ui/archive/{item['id']}/restore")
    assert refused.status_code == 403 and "review" in refused.text
    person = _client(server, keys["a_review"])
    person.headers["X-Silcrow-CSRF"] = "1"
    assert "Restore" in person.get("/ui/archive").text
    restored = person.post(f"/ui/archive/{item['id']}/restore")
    assert restored.status_code == 200, restored.text
    assert "Deploy <b>only</b> on Tuesdays" in store.entries("memory")
