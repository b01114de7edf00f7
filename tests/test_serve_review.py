"""A model cannot approve itself: the review scope, over a real `silcrow serve` subprocess.

With ``write_policy = "approve"``, the token `silcrow tokens create` gives by default (write)
proposes but can neither decide a proposal (REST, the inspector) nor edit through the
inspector nor undo; a review token (a person's) can, and every write and decision names the
token (name and id) that made it; the session a caller claims is shown as claimed.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from serve_support import CONFIG, http_client, make_home

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess, list_tokens, silcrow_command, tokens_path
from silcrow.store import MemoryStore

CSRF = {"X-Silcrow-CSRF": "1"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*silcrow_command(), *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, check=False)


class Served:
    def __init__(self, server: ServerProcess, home: Path, profile: Path, model: str, model_id: str,
                 person: str, person_id: str) -> None:
        self.server, self.home, self.profile = server, home, profile
        self.model, self.model_id, self.person, self.person_id = model, model_id, person, person_id

    def client(self, token: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=60)


def _created(home: Path, *args: str) -> tuple[str, str]:
    """A token from the real `silcrow tokens create`: (secret, id)."""
    made = cli("tokens", "create", "--home", str(home), "--profile", "a", *args)
    assert made.returncode == 0, made.stderr
    found = re.search(r"\(([0-9a-f]{8})\)", made.stderr)
    assert found, made.stderr
    return made.stdout.strip(), found.group(1)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = make_home(tmp_path_factory.mktemp("review") / "home", profiles=("a",))
    profile = resolve_home(home, "a")
    (profile / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    model, model_id = _created(home, "--name", "agent")  # the default: what a model is given
    person, person_id = _created(home, "--name", "me", "--scope", "review")
    with ServerProcess(home, "--profile", "a") as server:
        yield Served(server, home, profile, model, model_id, person, person_id)
        assert server.alive(), server.output()
        assert "Traceback" not in server.output()


def _assert_needs_review(response: httpx.Response, token_name: str) -> None:
    assert response.status_code == 403, response.text
    error = response.json()["error"] if "json" in response.headers["content-type"] else response.text
    assert "review scope" in error and token_name in error and "--scope review" in error, error


def test_the_default_token_cannot_apply_what_the_gate_holds_over_rest(served: Served) -> None:
    model = served.client(served.model)
    proposed = model.post("/v1/memory/user", json={"content": "User is allergic to penicillin"})
    assert proposed.status_code == 200 and proposed.json()["pending"] is True
    pid = proposed.json()["proposal_id"]

    _assert_needs_review(model.post(f"/v1/memory/pending/{pid}/approve"), "agent")
    _assert_needs_review(model.post(f"/v1/memory/pending/{pid}/reject"), "agent")
    # The inspector's routes are as closed to it: deciding, and editing the notes directly.
    _assert_needs_review(model.post(f"/ui/pending/{pid}/approve", headers=CSRF), "agent")
    _assert_needs_review(model.post("/ui/memory/user/add", data={"content": "Name: Mallory"}, headers=CSRF),
                         "agent")
    # Undo is no way around it either: it would step back a person's edits and approvals.
    MemoryStore(served.profile).add("memory", "Deploys on Fridays", origin="cli")
    _assert_needs_review(model.post("/v1/memory/undo", json={"target": "memory"}), "agent")
    assert MemoryStore(served.profile).entries("memory") == ["Deploys on Fridays"]

    assert MemoryStore(served.profile).entries("user") == []
    assert [p["id"] for p in model.get("/v1/memory/pending").json()["pending"]] == [pid]
    # The page shows the proposal to that token but offers no buttons.
    panel = model.get("/ui/pending").text
    assert pid in panel and "/approve" not in panel and "review token" in panel
    assert "<textarea" not in model.get("/ui/notes").text
    assert "proposals only" in model.get("/ui/whoami").text

    person = served.client(served.person)
    approved = person.post(f"/v1/memory/pending/{pid}/approve")
    assert approved.status_code == 200 and approved.json()["success"], approved.text
    assert MemoryStore(served.profile).entries("user") == ["User is allergic to penicillin"]
    [record] = [r for r in person.get("/v1/memory/history").json()["records"] if r["target"] == "user"]
    assert record["by"] == {"client": "rest", "token": "me", "token_id": served.person_id}
    assert record["proposal"]["token"] == "agent" and record["proposal"]["token_id"] == served.model_id


def test_the_default_token_cannot_apply_what_the_gate_holds_over_mcp(served: Served) -> None:
    async def as_the_model() -> tuple[list[str], dict[str, object], list[dict[str, object]]]:
        async with http_client(served.server.url, served.model) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            result = await client.call_tool("memory", {"action": "add", "target": "memory",
                                                       "content": "Ship on Sundays"})
            proposal = json.loads(str(result.content[0].text))  # type: ignore[union-attr]
            # Every tool it has, tried on its own proposal: none applies it.
            tries = []
            for name in names:
                tried = await client.call_tool(name, {"action": "approve", "id": proposal["proposal_id"],
                                                      "proposal_id": proposal["proposal_id"],
                                                      "target": "memory", "query": "Ship"})
                tries.append(tried.structured_content or {})
            return names, proposal, tries

    names, proposal, _ = anyio.run(as_the_model)
    assert proposal["pending"] is True
    assert not any(re.search(r"approve|reject|decide|pending", n) for n in names), names
    assert "Ship on Sundays" not in MemoryStore(served.profile).entries("memory")
    # The token it holds, taken to the REST route, is refused as well.
    model = served.client(served.model)
    _assert_needs_review(model.post(f"/v1/memory/pending/{proposal['proposal_id']}/approve"), "agent")
    pending = {p["id"]: p for p in model.get("/v1/memory/pending").json()["pending"]}
    assert pending[str(proposal["proposal_id"])]["who"]["client"] == "mcp"
    assert pending[str(proposal["proposal_id"])]["who"]["token_id"] == served.model_id
    rejected = served.client(served.person).post(f"/v1/memory/pending/{proposal['proposal_id']}/reject",
                                                 json={"reason": "no"})
    assert rejected.status_code == 200
    assert "Ship on Sundays" not in MemoryStore(served.profile).entries("memory")
    decided = MemoryStore(served.profile).proposals.decided()
    [mine] = [p for p in decided if p.id == proposal["proposal_id"]]
    assert mine.decided_by == {"client": "rest", "token": "me", "token_id": served.person_id}


def test_inspector_edits_name_the_token_in_the_journal(served: Served) -> None:
    person = served.client(served.person)
    added = person.post("/ui/memory/memory/add", data={"content": "Editor: helix"}, headers=CSRF)
    assert added.status_code == 200 and "Editor: helix" in MemoryStore(served.profile).entries("memory")
    record = MemoryStore(served.profile).history("memory")[-1]
    assert record["origin"] == "web"
    assert record["by"] == {"client": "web", "token": "me", "token_id": served.person_id}
    by = f'by client "web", token "me" (id "{served.person_id}")'
    assert html.escape(by) in person.get("/ui/notes").text
    shown = cli("--home", str(served.home), "--profile", "a", "memory", "history")
    assert by in shown.stdout, shown.stdout


def test_a_claimed_session_is_shown_as_claimed(served: Served) -> None:
    model = served.client(served.model)
    pid = model.post("/v1/memory/user", json={"content": "Prefers tea"},
                     headers={"X-Silcrow-Session": "s-42"}).json()["proposal_id"]
    [item] = [p for p in model.get("/v1/memory/pending").json()["pending"] if p["id"] == pid]
    assert item["who"]["claimed_session"] == "s-42" and item["who"].get("session") != "s-42"
    assert "session (claimed) &quot;s-42&quot;" in model.get("/ui/pending").text
    listed = cli("--home", str(served.home), "--profile", "a", "memory", "pending")
    assert 'session (claimed) "s-42"' in listed.stdout, listed.stdout
    assert served.client(served.person).post(f"/v1/memory/pending/{pid}/reject").status_code == 200


def test_the_one_time_link_gives_an_expiring_review_token_and_log_out_revokes_it(served: Served) -> None:
    match = re.search(r"/#once=([A-Za-z0-9_-]+)", served.server.output())
    assert match, served.server.output()
    anonymous = served.client(None)
    login = anonymous.post("/ui/login/once", json={"code": match.group(1)}, headers=CSRF)
    assert login.status_code == 200, login.text
    token = login.json()["token"]
    [record] = [r for r in list_tokens(served.home) if r.name.startswith("inspector-")]
    assert record.scope == "review" and record.login and record.expires_at is not None
    hours = (time.mktime(time.strptime(record.expires_at, "%Y-%m-%dT%H:%M:%SZ"))
             - time.mktime(time.strptime(record.created_at, "%Y-%m-%dT%H:%M:%SZ"))) / 3600
    assert hours == 12  # the documented default
    browser = served.client(token)
    assert "review" in browser.get("/ui/whoami").text
    assert browser.post("/ui/logout").status_code == 403  # no CSRF header: a foreign page cannot
    out = browser.post("/ui/logout", headers=CSRF)
    assert out.status_code == 200 and out.json()["revoked"] is True
    assert browser.get("/ui/whoami").status_code == 401
    assert record.id not in {r.id for r in list_tokens(served.home)}
    # Logging out with a pasted token forgets it in the page only: it may be in use elsewhere.
    person = served.client(served.person)
    kept = person.post("/ui/logout", headers=CSRF)
    assert kept.status_code == 200 and kept.json()["revoked"] is False
    assert person.get("/ui/whoami").status_code == 200


def test_an_expired_token_is_refused_with_the_reason_and_pruned(served: Served) -> None:
    from silcrow.serve._tokens import create_token

    secret, record = create_token(served.home, profile="a", scope="write", name="brief", expires_in=2)
    client = served.client(secret)
    assert client.get("/v1/memory/memory").status_code == 200  # within the 2 s it surely lasts
    time.sleep(3.1)  # it holds through the whole second its stamp names
    refused = client.get("/v1/memory/memory")
    assert refused.status_code == 401
    assert "expired" in refused.json()["error"] and "brief" in refused.json()["error"]
    assert record.id not in tokens_path(served.home).read_text(encoding="utf-8")


def test_a_token_lasts_at_least_what_was_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from silcrow.serve import _tokens

    monkeypatch.setattr(_tokens.time, "time", lambda: 1_000_000.9)  # late in a second
    _, record = _tokens.create_token(tmp_path, profile="a", name="short", expires_in=1)
    assert not record.expired(now=1_000_001.8)  # 0.9 s later: not yet
    assert record.expired(now=1_000_002.0)


def test_tokens_create_gives_review_only_when_asked(tmp_path: Path) -> None:
    plain = cli("tokens", "create", "--home", str(tmp_path), "--name", "plain")
    review = cli("tokens", "create", "--home", str(tmp_path), "--name", "person", "--scope", "review")
    assert plain.returncode == 0 and review.returncode == 0, (plain.stderr, review.stderr)
    assert {r.name: r.scope for r in list_tokens(tmp_path)} == {"plain": "write", "person": "review"}
    assert "never give it to a model" in review.stderr
    listed = cli("tokens", "list", "--home", str(tmp_path))
    assert "review" in listed.stdout and "never" in listed.stdout


def test_link_tokens_last_as_long_as_config_toml_says(tmp_path: Path) -> None:
    from silcrow.errors import ConfigError
    from silcrow.serve._login import OneTimeLogins
    from silcrow.serve._tokens import login_token_seconds

    home = make_home(tmp_path / "home", profiles=("a",))
    assert login_token_seconds(home, "a") == 12 * 3600
    (home / "profiles" / "a" / "config.toml").write_text(CONFIG + "[serve]\nlogin_token_hours = 2\n",
                                                         encoding="utf-8")
    logins = OneTimeLogins(home)
    assert logins.redeem(logins.issue("a")) is not None
    [record] = list_tokens(home)
    lasts = (time.mktime(time.strptime(str(record.expires_at), "%Y-%m-%dT%H:%M:%SZ"))
             - time.mktime(time.strptime(record.created_at, "%Y-%m-%dT%H:%M:%SZ")))
    assert (record.scope, record.login, lasts) == ("review", True, 2 * 3600)
    (home / "profiles" / "a" / "config.toml").write_text(CONFIG + '[serve]\nlogin_token_hours = "2"\n',
                                                         encoding="utf-8")
    with pytest.raises(ConfigError, match="login_token_hours"):
        login_token_seconds(home, "a")
    code = logins.issue("a")
    with pytest.raises(ConfigError, match="login_token_hours"):
        logins.redeem(code)
    (home / "profiles" / "a" / "config.toml").write_text(CONFIG, encoding="utf-8")
    assert logins.redeem(code) is not None  # the bad setting did not use the code up
    assert logins.redeem(code) is None
