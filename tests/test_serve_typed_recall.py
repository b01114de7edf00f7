"""Every server path reaches recall through the typed API, never through a provider's tool JSON.

Two providers are installed the way pip installs a plugin (a ``*.dist-info`` with
``entry_points.txt`` on the path of a real ``silcrow serve``), both the local provider
underneath: ``zz_spy`` leaves a mark in its home whenever its tool handler runs, and
``zz_toolless`` has the typed calls and no tool JSON at all.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from serve_support import CONFIG, http_client, make_home, tokens

from silcrow._paths import resolve_home
from silcrow.recall import MemoryManager, load_provider, tool_schemas
from silcrow.serve import ServerProcess

PLUGIN = textwrap.dedent(
    """
    from pathlib import Path

    from silcrow.recall.local import LocalProvider

    MARK = "tool-json-calls"

    class SpyProvider(LocalProvider):
        name = "zz_spy"

        def __init__(self, home=None, **kwargs):
            super().__init__(home, **kwargs)
            self.mark = Path(home) / MARK

        def handle_tool_call(self, name, args):
            with self.mark.open("a", encoding="utf-8") as out:
                out.write(name + "\\n")
            return super().handle_tool_call(name, args)

    class ToollessProvider(LocalProvider):
        name = "zz_toolless"

        def get_tool_schemas(self):
            return []

        def handle_tool_call(self, name, args):
            raise AssertionError(f"tool JSON used for {name}")
    """
)
ENTRY_POINTS = ("[silcrow.providers]\nzz_spy = zz_typed_plugin:SpyProvider\n"
                "zz_toolless = zz_typed_plugin:ToollessProvider\n")
MARK = "tool-json-calls"
CSRF = {"X-Silcrow-CSRF": "1"}


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "plugins"
    dist = where / "zz_typed_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (where / "zz_typed_plugin.py").write_text(PLUGIN, encoding="utf-8")
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: zz-typed-plugin\nVersion: 1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(where))
    paths = [str(where), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))  # for the server too
    return where


@pytest.fixture
def served(tmp_path: Path, plugin_path: Path) -> Iterator[tuple[ServerProcess, dict[str, str], Path]]:
    home = make_home(tmp_path / "home", profiles=("a", "b"))
    for profile, provider in (("a", "zz_spy"), ("b", "zz_toolless")):
        (resolve_home(home, profile) / "config.toml").write_text(CONFIG + f'provider = "{provider}"\n',
                                                                 encoding="utf-8")
    with ServerProcess(home) as server:
        yield server, tokens(home), home
        assert server.alive(), server.output()


async def _call(client: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    return dict(result.structured_content)


async def _round_trip(client: Any, fact: str) -> None:
    """recall_add, recall_search, recall_forget by id and by text, over MCP."""
    kept = await _call(client, "recall_add", {"fact": fact})
    found = await _call(client, "recall_search", {"query": "kiln garage", "k": 3})
    assert found["results"][0]["id"] == kept["id"] and found["results"][0]["text"] == fact
    assert await _call(client, "recall_forget", {"id": kept["id"]}) == {"success": True, "removed": 1}
    await _call(client, "recall_add", {"fact": fact})
    assert await _call(client, "recall_forget", {"query": "kiln is in"}) == {"success": True, "removed": 1}


def test_the_spy_marks_a_call_through_its_tool_json(tmp_path: Path, plugin_path: Path) -> None:
    """The spy below sees a call of its tool handler; the agent's manager, like the servers, no
    longer makes one (it calls the typed API), and strips fence tags from the fact it stores."""
    provider = load_provider("zz_spy", home=tmp_path, embedder="none")
    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize("s", home=str(tmp_path))
    fact = "The kiln </memory-context> is warm."
    assert json.loads(manager.handle_tool_call("recall_add", {"fact": fact}))["success"] is True
    assert not (tmp_path / MARK).exists()
    (hit,) = provider.search("kiln", 1).hits
    assert "memory-context" not in hit.text and "kiln" in hit.text
    assert '"success": true' in provider.handle_tool_call("recall_search", {"query": "kiln"})
    manager.shutdown()
    assert (tmp_path / MARK).read_text(encoding="utf-8") == "recall_search\n"


def test_servers_call_the_typed_api_not_the_providers_tool_json(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, home = served
    profile_a = resolve_home(home, "a")

    async def main() -> None:
        async with http_client(server.url, keys["a"]) as client:
            await _round_trip(client, "The kiln is in the garage.")

    anyio.run(main)
    api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a']}"}, timeout=60)
    kept = api.post("/v1/recall", json={"text": "The kiln is in the garage."}).json()
    assert api.post("/v1/recall/search", json={"query": "kiln"}).json()["results"][0]["id"] == kept["id"]
    page = api.post("/ui/recall", data={"query": "kiln garage"}, headers=CSRF)
    assert page.status_code == 200 and "The kiln is in the garage." in page.text
    assert api.delete(f"/v1/recall/{kept['id']}").json()["removed"] == 1
    assert not (profile_a / MARK).exists(), (profile_a / MARK).read_text(encoding="utf-8")


def test_a_provider_with_no_tool_json_gets_every_recall_tool(
        served: tuple[ServerProcess, dict[str, str], Path]) -> None:
    server, keys, _ = served

    async def main() -> None:
        async with http_client(server.url, keys["b"]) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            for schema in tool_schemas():  # the recall tools' own schemas, as for the local provider
                tool = listed[schema["function"]["name"]]
                assert tool.description == schema["function"]["description"]
                assert tool.input_schema == schema["function"]["parameters"]
            await _round_trip(client, "The kiln is in the garage.")

    anyio.run(main)
    page = httpx.post(f"{server.url}/ui/recall", data={"query": "anything"}, timeout=60,
                      headers={**CSRF, "Authorization": f"Bearer {keys['b']}"})
    assert page.status_code == 200 and "No matches." in page.text
