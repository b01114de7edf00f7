"""Project notes over the servers: REST and MCP over HTTP name the project per request with the
X-Silcrow-Project header, `silcrow mcp` with --project (or the directory it starts in), and the
inspector shows the project's block. A project is a git work tree on the server's machine; a
header naming anything else is refused, and only the project's notes in the home are reached.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from serve_support import http_client, make_home, stdio_in, stdio_params, tokens

from silcrow._paths import resolve_home
from silcrow.home import open_profile
from silcrow.serve import ServerProcess, create_token, silcrow_command

HEADER = "X-Silcrow-Project"


def git_tree(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, timeout=60)
    return path.resolve()


def project_entries(profile: Path, root: Path) -> list[str]:
    """What the library holds as the project's notes (the home's copy, keyed by the root)."""
    return open_profile(profile).notes(project=root).entries("project")


@dataclass
class World:
    server: ServerProcess
    keys: dict[str, str]
    home: Path
    alpha: Path
    beta: Path
    plain: Path

    def api(self, token: str | None = None, project: Path | str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token or self.keys['a']}"}
        if project is not None:
            headers[HEADER] = str(project)
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=60)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("projects")
    home = make_home(root / "home", profiles=("a", "b"))
    keys = tokens(home)
    alpha, beta = git_tree(root / "src" / "alpha"), git_tree(root / "src" / "beta")
    (alpha / "docs").mkdir()
    (alpha / "README.md").write_text("alpha\n", encoding="utf-8")
    plain = root / "plain"
    plain.mkdir()
    keys["alpha_only"] = create_token(home, profile="a", scope="write", name="alpha-only",
                                      projects=[alpha / "docs"])[0]
    with ServerProcess(home) as server:
        yield World(server, keys, home, alpha, beta, plain)
        assert server.alive(), server.output()


def test_rest_writes_and_reads_the_project_the_header_names(world: World) -> None:
    profile = resolve_home(world.home, "a")
    with world.api(project=world.alpha) as alpha, world.api(project=world.beta) as beta:
        added = alpha.post("/v1/memory/project", json={"content": "alpha builds with cargo."})
        assert added.status_code == 200, added.text
        assert beta.post("/v1/memory/project", json={"content": "beta builds with make."}).status_code == 200
        assert alpha.get("/v1/memory/project").json()["entries"] == ["alpha builds with cargo."]
        assert beta.get("/v1/memory/project").json()["entries"] == ["beta builds with make."]
        # a directory inside the work tree is the same project
        with world.api(project=world.alpha / "docs") as inside:
            assert inside.get("/v1/memory/project").json()["entries"] == ["alpha builds with cargo."]
        # the profile's own notes are the same in every project
        assert alpha.post("/v1/memory/user", json={"content": "Prefers short answers."}).status_code == 200
        assert beta.get("/v1/memory/user").json()["entries"] == ["Prefers short answers."]
        # the prompt: the project's block in its own project only
        prompt_alpha = alpha.get("/v1/prompt").json()["prompt"]
        prompt_beta = beta.get("/v1/prompt").json()["prompt"]
        assert "alpha builds with cargo." in prompt_alpha and "beta builds" not in prompt_alpha
        assert "beta builds with make." in prompt_beta and "alpha builds" not in prompt_beta
        history = alpha.get("/v1/memory/history", params={"target": "project"}).json()["records"]
        assert [r["origin"] for r in history] == ["rest"]
        replaced = alpha.patch("/v1/memory/project", json={"old_text": "cargo", "content": "alpha builds "
                                                           "with cargo build --release."})
        assert replaced.status_code == 200, replaced.text
    # kept in the home, keyed by the root: nothing is written into the repository
    assert project_entries(profile, world.alpha) == ["alpha builds with cargo build --release."]
    assert project_entries(profile, world.beta) == ["beta builds with make."]
    assert sorted(p.name for p in world.alpha.iterdir()) == [".git", "README.md", "docs"]
    # profile b has no notes in alpha
    with world.api(world.keys["b"], project=world.alpha) as other:
        assert other.get("/v1/memory/project").json()["entries"] == []


def test_without_a_project_the_project_target_is_422_saying_how(world: World) -> None:
    with world.api() as none:
        for method, body in (("GET", None), ("POST", {"content": "x"})):
            response = none.request(method, "/v1/memory/project", json=body)
            assert response.status_code == 422, response.text
            error = response.json()["error"]
            assert HEADER in error and "project" in error, error
            # only what a client of this server can do: no shell flag, no library argument
            assert "--project" not in error and "project=" not in error and "run inside" not in error, error
        history = none.get("/v1/memory/history", params={"target": "project"})
        assert history.status_code == 422 and HEADER in history.json()["error"], history.text
        batch = none.post("/v1/memory/batch", json={"target": "project",
                                                    "operations": [{"action": "add", "content": "x"}]})
        assert batch.status_code == 422 and HEADER in batch.json()["error"]
        assert none.get("/v1/memory/user").status_code == 200  # the rest works as before


@pytest.mark.parametrize("given, status", [
    ("relative/alpha", 400),
    ("/no/such/directory/anywhere", 422),
    ("{plain}", 422),
    ("{alpha}/../../../../../../../../etc", 422),
    ("{alpha}/README.md", 422),
    ("{alpha}/.git/../../../plain", 422),
    ("{alpha}/\udcff", 400),  # a byte that is not UTF-8
])
def test_a_header_naming_no_project_is_refused(world: World, given: str, status: int) -> None:
    value = given.format(alpha=world.alpha, plain=world.plain)
    raw = value.encode("utf-8", "surrogateescape")
    headers = {"Authorization": f"Bearer {world.keys['a']}".encode(), HEADER.encode(): raw}
    response = httpx.get(f"{world.server.url}/v1/memory/user", headers=headers, timeout=60)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert HEADER in error and "absolute path" in error, error
    if status == 422:
        assert "not a directory inside a git work tree" in error


def test_refusals_of_the_header_say_the_same_whatever_is_there(world: World) -> None:
    errors = set()
    for value in ("/no/such/directory/anywhere", str(world.plain), f"{world.alpha}/README.md"):
        headers = {"Authorization": f"Bearer {world.keys['a']}", HEADER: value}
        response = httpx.get(f"{world.server.url}/v1/memory/user", headers=headers, timeout=60)
        assert response.status_code == 422
        errors.add(response.json()["error"].replace(repr(value), "<path>"))
    assert len(errors) == 1, errors


def test_the_token_is_checked_before_the_project(world: World) -> None:
    headers = {"Authorization": "Bearer slc_0000_not-a-real-token", HEADER: "/no/such/directory"}
    assert httpx.get(f"{world.server.url}/v1/memory/user", headers=headers, timeout=60).status_code == 401


def test_a_token_limited_to_a_project_reaches_only_it(world: World) -> None:
    with world.api(world.keys["alpha_only"], project=world.alpha) as alpha:
        assert alpha.get("/v1/memory/project").status_code == 200
    with world.api(world.keys["alpha_only"], project=world.beta) as beta:
        refused = beta.get("/v1/memory/project")
        assert refused.status_code == 403 and str(world.alpha) in refused.json()["error"]
    listed = subprocess.run([*silcrow_command(), "--home", str(world.home), "tokens", "list", "--json"],
                            capture_output=True, text=True, timeout=60, check=True)
    limited = [t for t in json.loads(listed.stdout) if t["name"] == "alpha-only"]
    assert limited[0]["projects"] == [str(world.alpha)]
    refused = subprocess.run([*silcrow_command(), "--home", str(world.home), "tokens", "create", "--profile",
                              "a", "--project", str(world.plain)], capture_output=True, text=True, timeout=60,
                             check=False)
    assert refused.returncode == 1 and "not a directory inside a git work tree" in refused.stderr
    assert "Traceback" not in refused.stderr and not refused.stdout  # no token printed


async def _call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    return dict(result.structured_content or {})


def test_mcp_over_http_with_the_header(world: World) -> None:
    profile = resolve_home(world.home, "a")

    async def main() -> None:
        async with http_client(world.server.url, world.keys["a"], {HEADER: str(world.beta)}) as client:
            memory = next(t for t in (await client.list_tools()).tools if t.name == "memory")
            assert "project" in memory.input_schema["properties"]["target"]["enum"]
            listed = {str(r.uri) for r in (await client.list_resources()).resources}
            assert "silcrow://memory/PROJECT.md" in listed
            added = await _call(client, "memory", {"action": "add", "target": "project",
                                                    "content": "beta's CI runs on every push."})
            assert added["success"], added
            read = await _call(client, "memory", {"action": "read", "target": "project"})
            assert "beta's CI runs on every push." in read["entries"]
            prompt = await client.read_resource("silcrow://prompt")
            assert "beta's CI runs on every push." in prompt.contents[0].text  # type: ignore[union-attr]
        async with http_client(world.server.url, world.keys["a"]) as client:
            # no project: the tool and the resources are what they were before projects
            memory = next(t for t in (await client.list_tools()).tools if t.name == "memory")
            assert "project" not in memory.input_schema["properties"]["target"]["enum"]
            listed = {str(r.uri) for r in (await client.list_resources()).resources}
            assert "silcrow://memory/PROJECT.md" not in listed
            refused = await _call(client, "memory", {"action": "read", "target": "project"})
            assert not refused["success"] and HEADER in refused["error"]

    anyio.run(main)
    assert "beta's CI runs on every push." in project_entries(profile, world.beta)


def test_mcp_over_stdio_with_project_or_from_its_directory(tmp_path: Path) -> None:
    home = make_home(tmp_path / "home")
    alpha, beta = git_tree(tmp_path / "alpha"), git_tree(tmp_path / "beta")

    async def main() -> None:
        async with Client(stdio_params(home, "--project", str(alpha / "."))) as client:
            added = await _call(client, "memory", {"action": "add", "target": "project",
                                                    "content": "alpha deploys on Fridays."})
            assert added["success"], added
        async with Client(stdio_in(home, beta)) as client:  # no --project: the directory it was started in
            await _call(client, "memory", {"action": "add", "target": "project",
                                           "content": "beta is frozen."})
            read = await _call(client, "memory", {"action": "read", "target": "project"})
            assert read["entries"] == ["beta is frozen."]
        async with Client(stdio_in(home, tmp_path)) as client:
            refused = await _call(client, "memory", {"action": "read", "target": "project"})
            assert not refused["success"] and "--project" in refused["error"]
            assert "started outside any git work tree" in refused["error"]
            assert HEADER not in refused["error"] and "project=" not in refused["error"], refused

    anyio.run(main)
    assert project_entries(home, alpha) == ["alpha deploys on Fridays."]
    assert project_entries(home, beta) == ["beta is frozen."]
    done = subprocess.run([*silcrow_command(), "mcp", "--home", str(home), "--project", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "not a directory inside a git work tree" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_inspector_shows_the_project_block_and_the_projects(world: World) -> None:
    with world.api(world.keys["a"], project=world.beta) as beta:
        assert beta.post("/v1/memory/project", json={"content": "beta ships as a wheel."}).status_code == 200
    with world.api(world.keys["a_review"], project=world.alpha) as alpha:
        alpha.post("/v1/memory/project", json={"content": "alpha <b>uses</b> nightly Rust."})
        notes = alpha.get("/ui/notes")
        assert notes.status_code == 200 and "PROJECT.md" in notes.text
        assert "alpha &lt;b&gt;uses&lt;/b&gt; nightly Rust." in notes.text and "<b>uses" not in notes.text
        assert str(world.alpha) in notes.text and "beta ships" not in notes.text
        assert 'hx-post="/ui/memory/project/add"' in notes.text
        prompt = alpha.get("/ui/prompt")
        assert "nightly Rust" in prompt.text
        listed = alpha.get("/ui/projects")
        assert listed.status_code == 200
        assert str(world.alpha) in listed.text and f'data-project="{world.beta}"' in listed.text
        added = alpha.post("/ui/memory/project/add", data={"content": "alpha's docs are in docs/."},
                           headers={"X-Silcrow-CSRF": "1"})
        assert added.status_code == 200 and "alpha&#x27;s docs are in docs/." in added.text
    with world.api(world.keys["a_review"]) as none:
        assert "PROJECT.md" not in none.get("/ui/notes").text
    assert "alpha's docs are in docs/." in project_entries(resolve_home(world.home, "a"), world.alpha)
