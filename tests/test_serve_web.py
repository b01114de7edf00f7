"""The web inspector over real HTTP (httpx against a running `silcrow serve`)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import CONFIG, make_home, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess
from silcrow.store import MemoryStore

XSS = "<script>alert('pwned')</script> & <img src=x onerror=alert(1)>"
CSRF = {"X-Silcrow-CSRF": "1"}
Served = tuple[ServerProcess, dict[str, str], Path]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = make_home(tmp_path_factory.mktemp("web") / "home", profiles=("a", "b"))
    profile_a = resolve_home(home, "a")
    (profile_a / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    keys = tokens(home)
    with ServerProcess(home, "--profile", "a") as server:
        yield server, keys, profile_a
        assert server.alive(), server.output()


def _client(server: ServerProcess, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=server.url, headers=headers, timeout=60)


def test_the_token_gate_lets_exactly_the_inspectors_public_paths_through() -> None:
    from silcrow.serve import _auth as auth
    from silcrow.serve import _web as web

    assert web.PUBLIC_PATHS <= auth.PUBLIC_PATHS
    assert not any(p.startswith("/ui/") for p in auth.PUBLIC_PATHS - {"/ui/login/once"})


def test_the_page_is_public_strict_and_holds_no_memory(served: Served) -> None:
    server, _, profile_a = served
    MemoryStore(profile_a).add("user", "Secret-ish: Sam", origin="cli")
    anonymous = _client(server, None)
    page = anonymous.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe" not in csp
    assert "Sam" not in page.text and "<script src=\"/static/htmx.min.js\"" in page.text
    assert not re.search(r"<script>|\son\w+=|style=", page.text)  # nothing inline: CSP would block it
    for name, kind in (("htmx.min.js", "javascript"), ("inspector.js", "javascript"),
                       ("inspector.css", "css")):
        static = anonymous.get(f"/static/{name}")
        assert static.status_code == 200 and kind in static.headers["content-type"]
    assert anonymous.get("/static/tokens.json").status_code == 401  # only the listed files are public
    for path in ("/ui/notes", "/ui/pending", "/ui/whoami", "/ui/prompt", "/ui/sessions", "/ui/provider"):
        assert anonymous.get(path).status_code == 401, path


def test_notes_escape_memory_and_only_show_the_tokens_profile(served: Served) -> None:
    server, keys, profile_a = served
    assert MemoryStore(profile_a).add("memory", XSS, origin="cli", force=True)["success"]
    notes = _client(server, keys["a"]).get("/ui/notes")
    assert notes.status_code == 200
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in notes.text
    assert "<script" not in notes.text and "<img" not in notes.text
    assert "<meter" in notes.text and "MEMORY.md" in notes.text and "USER.md" in notes.text
    assert "Sam" in notes.text
    other = _client(server, keys["b"]).get("/ui/notes")
    assert "Sam" not in other.text and "pwned" not in other.text
    who = _client(server, keys["a_read"]).get("/ui/whoami")
    assert "<strong>a</strong>" in who.text and "read only" in who.text
    prompt = _client(server, keys["a"]).get("/ui/prompt")
    assert "USER PROFILE" in prompt.text and "<script" not in prompt.text


def test_writes_need_the_csrf_header_and_a_review_token(served: Served) -> None:
    server, keys, profile_a = served
    writer, reader = _client(server, keys["a_review"]), _client(server, keys["a_read"])
    form = {"content": "Deploys on Fridays"}
    assert writer.post("/ui/memory/memory/add", data=form).status_code == 403  # no CSRF header
    assert reader.post("/ui/memory/memory/add", data=form, headers=CSRF).status_code == 403
    # A write token (what a model is given) cannot edit here either: it is a person's page.
    model = _client(server, keys["a"]).post("/ui/memory/memory/add", data=form, headers=CSRF)
    assert model.status_code == 403 and "review scope" in model.json()["error"]
    assert "Deploys on Fridays" not in MemoryStore(profile_a).entries("memory")
    added = writer.post("/ui/memory/memory/add", data=form, headers=CSRF)
    # A person's write from the page is applied at once, even with write_policy = "approve".
    assert added.status_code == 200 and "Entry added." in added.text
    assert "Deploys on Fridays" in MemoryStore(profile_a).entries("memory")
    # ... and passed on to recall like every committed note write (the provider hears of it on
    # its manager's worker, so it may take a moment)
    assert _recalled_soon(writer, "Deploys on Fridays")
    edited = writer.post("/ui/memory/memory/replace", headers=CSRF,
                         data={"old_text": "Deploys on Fridays", "content": "Deploys on Mondays"})
    assert edited.status_code == 200 and "Deploys on Mondays" in MemoryStore(profile_a).entries("memory")
    history = writer.get("/ui/notes").text
    assert "was: Deploys on Fridays" in history
    assert "(web · by client &quot;web&quot;, token &quot;a-review&quot; (id " in history
    assert writer.post("/ui/memory/memory/undo", headers=CSRF).status_code == 200
    assert "Deploys on Fridays" in MemoryStore(profile_a).entries("memory")
    removed = writer.post("/ui/memory/memory/remove", data={"old_text": "Deploys on Fridays"}, headers=CSRF)
    assert removed.status_code == 200 and "Deploys on Fridays" not in MemoryStore(profile_a).entries("memory")
    refused = writer.post("/ui/memory/memory/remove", data={"old_text": "no such entry"}, headers=CSRF)
    assert refused.status_code == 200 and 'class="error"' in refused.text and "No entry" in refused.text


def _recalled_soon(client: httpx.Client, text: str, wait: float = 20.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = client.post("/v1/recall/search", json={"query": text, "k": 5}).json()
        if any(text in hit["text"] for hit in found.get("results", [])):
            return True
        time.sleep(0.2)
    return False


def test_pending_proposals_are_shown_and_approved(served: Served) -> None:
    server, keys, profile_a = served
    api = _client(server, keys["a"])
    proposal = api.post("/v1/memory/user", json={"content": "Likes <b>bold</b> tea"}).json()
    assert proposal["pending"]
    shown = api.get("/ui/pending").text
    assert proposal["proposal_id"] in shown and "Likes &lt;b&gt;bold&lt;/b&gt; tea" in shown
    assert "client &quot;rest&quot;" in shown and "token &quot;a&quot; (id " in shown
    assert api.post(f"/ui/pending/{proposal['proposal_id']}/approve", headers=CSRF).status_code == 403
    person = _client(server, keys["a_review"])
    assert person.post(f"/ui/pending/{proposal['proposal_id']}/approve").status_code == 403  # no CSRF
    [base] = re.findall(r'name="base" value="([0-9a-f]+)"', person.get("/ui/pending").text)
    pid = proposal["proposal_id"]
    approved = person.post(f"/ui/pending/{pid}/approve", data={"base": base}, headers=CSRF)
    assert approved.status_code == 200 and "Nothing is waiting" in approved.text
    assert "Likes <b>bold</b> tea" in MemoryStore(profile_a).entries("user")
    second = api.post("/v1/memory/user", json={"content": "Likes coffee"}).json()["proposal_id"]
    rejected = person.post(f"/ui/pending/{second}/reject", data={"reason": "no"}, headers=CSRF)
    assert rejected.status_code == 200 and "Rejected" in rejected.text
    assert "Likes coffee" not in MemoryStore(profile_a).entries("user")


def test_the_inspector_applies_what_it_showed_or_says_stale(served: Served) -> None:
    server, keys, profile_a = served
    api, person = _client(server, keys["a"]), _client(server, keys["a_review"])
    pid = api.post("/v1/memory/memory", json={"content": "Uses a standing desk"}).json()["proposal_id"]
    shown = person.get("/ui/pending").text
    [base] = re.findall(r'name="base" value="([0-9a-f]+)"', shown)
    MemoryStore(profile_a).add("memory", "Works from home", origin="cli")  # the notes change meanwhile
    stale = person.post(f"/ui/pending/{pid}/approve", data={"base": base}, headers=CSRF)
    assert stale.status_code == 200 and "Stale" in stale.text and "review it again" in stale.text
    assert "Uses a standing desk" not in MemoryStore(profile_a).entries("memory")
    [fresh] = re.findall(r'name="base" value="([0-9a-f]+)"', stale.text)  # the list, shown again
    assert fresh != base
    approved = person.post(f"/ui/pending/{pid}/approve", data={"base": fresh}, headers=CSRF)
    assert "Nothing is waiting" in approved.text
    assert "Uses a standing desk" in MemoryStore(profile_a).entries("memory")


def test_recall_search_shows_scores_dates_and_the_fenced_block(served: Served) -> None:
    server, keys, _ = served
    api = _client(server, keys["a"])
    assert api.post("/v1/recall", json={"text": "The user's cat is named Mochi <i>"}).status_code == 200
    found = api.post("/ui/recall", data={"query": "cat named Mochi"}, headers=CSRF)
    assert found.status_code == 200
    assert "<table>" in found.text and "Mochi &lt;i&gt;" in found.text
    assert re.search(r"<td>\d\.\d{3}</td>", found.text)  # a score
    assert "&lt;memory-context&gt;" in found.text  # the block the agent would get, as text
    sessions = api.get("/ui/sessions", params={"q": "anything"})
    assert sessions.status_code == 200
    assert "local" in api.get("/ui/provider").text
    checked = api.post("/ui/provider/check", headers=CSRF)
    assert checked.status_code == 200 and "local: ok" in checked.text and "forget" in checked.text
    assert _client(server, keys["a_read"]).post("/ui/provider/check", headers=CSRF).status_code == 403


def test_the_one_time_link_logs_in_once(served: Served) -> None:
    server, _, _ = served
    match = re.search(r"/#once=([A-Za-z0-9_-]+)", server.output())
    assert match, server.output()
    anonymous = _client(server, None)
    assert anonymous.post("/ui/login/once", json={"code": match.group(1)}).status_code == 403  # no CSRF
    first = anonymous.post("/ui/login/once", json={"code": match.group(1)}, headers=CSRF)
    assert first.status_code == 200
    token = first.json()["token"]
    assert "<strong>a</strong>" in _client(server, token).get("/ui/whoami").text  # the --profile served
    again = anonymous.post("/ui/login/once", json={"code": match.group(1)}, headers=CSRF)
    assert again.status_code == 401 and "used already" in again.json()["error"]
