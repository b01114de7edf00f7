"""The servers call the library one way: every REST route, MCP call and inspector panel goes
through the tenant's one entry (the per-profile thread bound), and a failure is answered by one
table (an unexpected one is 500 with a generic message, never 422).

Two recall providers are installed the way pip installs a plugin (a ``*.dist-info`` with
``entry_points.txt`` on the path of a real ``silcrow serve``): ``zz_unopenable`` fails with a
bug of its own when it is opened, and ``zz_blocking`` holds every search until the test lets it
go, writing down for each whether it began before or after that.
"""

from __future__ import annotations

import json
import os
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from serve_support import CONFIG, http_client, make_home, tokens

from silcrow._paths import resolve_home
from silcrow.errors import ReviewRequiredError
from silcrow.home import open_profile
from silcrow.notes import Notes
from silcrow.serve import ServerProcess
from silcrow.serve._errors import UNEXPECTED
from silcrow.serve._limits import TENANT_THREADS

PLUGIN = textwrap.dedent(
    """
    import time
    from pathlib import Path

    from silcrow.recall import Found, MemoryProvider

    class Unopenable(MemoryProvider):
        name = "zz_unopenable"

        def __init__(self, home=None, **kwargs):
            pass

        def is_available(self):
            raise RuntimeError("provider bug: the secret detail 4417")

        def initialize(self, session_id, **context):
            pass

    class Blocking(MemoryProvider):
        '''Each search writes a line ("<query> held" or "<query> released": whether the release
        file was there when it began), then waits for that file.'''

        name = "zz_blocking"

        def __init__(self, home=None, **kwargs):
            self.home = Path(home)

        def is_available(self):
            return True

        def initialize(self, session_id, **context):
            pass

        def search(self, query, k=10):
            release = self.home / "release"
            state = "released" if release.exists() else "held"
            with (self.home / "searches").open("a", encoding="utf-8") as out:
                out.write(f"{query} {state}\\n")
            for _ in range(1200):
                if release.exists():
                    break
                time.sleep(0.05)
            return Found(context="")
    """
)
ENTRY_POINTS = ("[silcrow.providers]\nzz_unopenable = zz_entry_plugin:Unopenable\n"
                "zz_blocking = zz_entry_plugin:Blocking\n")
CSRF = {"X-Silcrow-CSRF": "1"}


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "plugins"
    dist = where / "zz_entry_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (where / "zz_entry_plugin.py").write_text(PLUGIN, encoding="utf-8")
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: zz-entry-plugin\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(where))
    paths = [str(where), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))  # for the server too
    return where


@pytest.fixture
def served(tmp_path: Path, plugin_path: Path) -> Iterator[tuple[ServerProcess, dict[str, str], Path]]:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    for profile, provider in (("a", "zz_unopenable"), ("b", "zz_blocking")):
        (resolve_home(home, profile) / "config.toml").write_text(CONFIG + f'provider = "{provider}"\n',
                                                                 encoding="utf-8")
    sessions = open_profile(resolve_home(home, "a")).sessions()
    with sessions:
        sid = sessions.create(title="pottery")
        sessions.append(sid, {"role": "user", "content": "The kiln in the garage needs a new element."})
    with ServerProcess(home) as server:
        yield server, tokens(home), home
        assert server.alive(), server.output()


def _api(server: ServerProcess, token: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=120)


def test_an_unexpected_failure_is_500_with_a_generic_message_never_422(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, _ = served
    api = _api(server, keys["a"])
    for method, path, body in (("POST", "/v1/recall/search", {"query": "kiln"}),
                               ("POST", "/v1/recall", {"text": "The kiln is in the garage."}),
                               ("DELETE", "/v1/recall/7", None)):
        answer = api.request(method, path, json=body)
        assert answer.status_code == 500, (path, answer.status_code, answer.text)
        assert answer.json() == {"success": False, "error": UNEXPECTED}
        assert "4417" not in answer.text  # what went wrong is for the operator's log
    page = api.post("/ui/recall", data={"query": "kiln"}, headers=CSRF)
    assert page.status_code == 500 and "4417" not in page.text and "failed unexpectedly" in page.text

    async def main() -> None:
        async with http_client(server.url, keys["a"]) as client:
            result = await client.call_tool("recall_search", {"query": "kiln"})
            assert result.is_error
            assert result.structured_content == {"success": False, "error": UNEXPECTED}

    anyio.run(main)
    assert "provider bug: the secret detail 4417" in server.output()  # logged, with its traceback


def test_sessions_are_searched_without_opening_the_recall_provider(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, _ = served
    api = _api(server, keys["a"])
    found = api.get("/v1/sessions/search", params={"q": "kiln element"})
    assert found.status_code == 200, found.text
    result = found.json()
    assert result["success"] and result["count"] == 1 and result["query"] == "kiln element"
    (hit,) = result["results"]
    assert hit["title"] == "pottery" and "kiln" in hit["snippet"].lower()
    assert set(hit) == {"session_id", "title", "date", "snippet", "message_id", "role"}
    page = api.get("/ui/sessions", params={"q": "kiln"})
    assert page.status_code == 200 and "pottery" in page.text
    assert "4417" not in server.output()  # the provider was never opened

    async def main() -> None:  # MCP lists the provider's tools: one that fails costs only those
        async with http_client(server.url, keys["a"]) as client:
            result = await client.call_tool("session_search", {"query": "kiln"})
            assert not result.is_error, result.content
            assert json.loads(result.content[0].text)["count"] == 1

    anyio.run(main)


def test_inspector_calls_wait_their_turn_within_the_profiles_thread_bound(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, home = served
    profile = resolve_home(home, "b")
    searches = profile / "searches"
    api = _api(server, keys["b"])
    answers: list[int] = []

    def call(kind: str, n: int) -> None:
        if kind == "rest":
            answer = api.post("/v1/recall/search", json={"query": f"rest-{n}"})
        else:
            answer = api.post("/ui/recall", data={"query": "inspector"}, headers=CSRF)
        answers.append(answer.status_code)

    def started() -> list[str]:
        return searches.read_text(encoding="utf-8").splitlines() if searches.exists() else []

    def wait_for(count: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while len(started()) < count and time.monotonic() < deadline:
            time.sleep(0.05)

    workers = [threading.Thread(target=call, args=("rest", n)) for n in range(TENANT_THREADS)]
    try:
        for worker in workers:
            worker.start()
        wait_for(TENANT_THREADS, 60)
        assert len(started()) == TENANT_THREADS, started()  # every thread of the profile is taken
        inspector = threading.Thread(target=call, args=("web", 0))
        inspector.start()
        workers.append(inspector)
        wait_for(TENANT_THREADS + 1, 3)  # a call past the bound would have begun by now
    finally:
        (profile / "release").touch()
        for worker in workers:
            worker.join(120)
    lines = started()
    assert sorted(line.split()[1] for line in lines if line.startswith("rest-")) == ["held"] * TENANT_THREADS
    assert [line for line in lines if line.startswith("inspector")] == ["inspector released"], lines
    assert answers == [200] * (TENANT_THREADS + 1)


def test_undo_is_the_notes_permission_a_model_token_lacks_while_writes_wait_for_a_person(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, home = served
    config = resolve_home(home, "b") / "config.toml"
    settings = config.read_text(encoding="utf-8").replace('provider = "zz_blocking"', 'provider = "none"')
    config.write_text(settings + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    notes = Notes(open_profile(resolve_home(home, "b")).store())
    assert notes.may_undo(person=True) and not notes.may_undo(person=False)
    with pytest.raises(ReviewRequiredError, match="takes a person"):
        notes.undo("memory", origin="rest", person=False)
    model = _api(server, keys["b"]).post("/v1/memory/undo", json={"target": "memory"})
    assert model.status_code == 403 and "review scope" in model.json()["error"]
    person = _api(server, keys["b_review"]).post("/v1/memory/undo", json={"target": "memory"})
    assert person.status_code == 422 and "nothing to undo" in person.json()["error"].lower(), person.text
