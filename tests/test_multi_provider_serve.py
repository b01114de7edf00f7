"""Several recall providers behind a real `silcrow serve`: the inspector shows each one's health,
REST recalls from both in one fenced block, and with the hosted stand-in shut down the local
memories still come back and the inspector says why the other failed."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from hosted_support import KEY
from serve_support import CONFIG, make_home, tokens
from testing_services import HonchoStandIn

from silcrow._paths import resolve_home
from silcrow.safety import FENCE_OPEN
from silcrow.serve import ServerProcess

CSRF = {"X-Silcrow-CSRF": "1"}
LOCAL_FACT = "The user keeps bees on a rooftop in Lyon"


def test_served_profile_runs_both_providers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    (resolve_home(home, "a") / "config.toml").write_text(
        CONFIG + '[recall]\nproviders = ["local", "honcho"]\n', encoding="utf-8")
    keys = tokens(home)
    with HonchoStandIn(KEY) as service:
        monkeypatch.setenv("HONCHO_API_KEY", KEY)
        monkeypatch.setenv("HONCHO_BASE_URL", service.base_url)
        with ServerProcess(home, "--profile", "a") as server:
            api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a']}"},
                               timeout=60)
            assert api.post("/v1/recall", json={"text": LOCAL_FACT}).status_code == 200
            shown = api.get("/ui/provider").text
            assert "local+honcho" in shown and "<strong>local</strong> available" in shown
            assert "<strong>honcho</strong> available" in shown
            # a note reaches both providers: honcho keeps it as a conclusion, recalled by prefetch
            note = api.post("/v1/memory/user", json={"content": "The user's bees winter in a blue hive"})
            assert note.status_code == 200, note.text
            for _ in range(300):  # the note goes out on the server's background worker
                if service.conclusions:
                    break
                time.sleep(0.1)
            found = api.post("/v1/recall/search", json={"query": "Where are the bees?", "k": 5}).json()
            context = found["context"]
            assert LOCAL_FACT in context and "blue hive" in context and context.count(FENCE_OPEN) == 1
            service.down = True
            service.stop()
            found = api.post("/v1/recall/search", json={"query": "Where are the bees?", "k": 5}).json()
            # local's memories (the note was mirrored there too), honcho's nothing: no context block
            assert found["success"] is True and "context" not in found
            assert LOCAL_FACT in [hit["text"] for hit in found["results"]]
            shown = api.get("/ui/provider").text
            assert "last_error" in shown and "honcho" in shown.split("<strong>honcho</strong>")[1]
            assert server.alive(), server.output()
