"""The web inspector in a real browser: Playwright driving Debian's Chromium against `silcrow serve`.

Logs in with the keyboard, adds/edits/removes an entry and checks the store, approves a proposal
the agent made, searches recall, and checks that a stored XSS attempt stays text and that the
page raises no CSP violation, at 360 px wide. Screenshots of the main views go to
``$SILCROW_SCREENSHOTS`` (default: the test's temporary directory).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import CONFIG, make_home, tokens

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium "
                                                   "(apt-get install chromium; .ci/run installs it)")]

XSS = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, str, Path]]:
    home = make_home(tmp_path_factory.mktemp("browser") / "home", profiles=("a",))
    profile_a = resolve_home(home, "a")
    (profile_a / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    keys = tokens(home)
    with ServerProcess(home, "--profile", "a") as server:
        yield server, keys["a_review"], profile_a  # a person's token: the page decides and edits


@pytest.fixture(scope="module")
def page(site: tuple[ServerProcess, str, Path]) -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 360, "height": 800})
        tab = context.new_page()
        tab.problems = []  # console errors (a CSP violation is one) and page errors
        tab.on("console", lambda m: tab.problems.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: tab.problems.append(str(e)))
        yield tab
        browser.close()


def _shot(page: Any, name: str, tmp_path: Path, full_page: bool = True) -> None:
    folder = Path(os.environ.get("SILCROW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"inspector-{name}.png"), full_page=full_page)


def test_the_inspector_end_to_end(site: tuple[ServerProcess, str, Path], page: Any, tmp_path: Path) -> None:
    server, token, profile_a = site
    store = MemoryStore(profile_a)
    assert store.add("memory", XSS, origin="cli", force=True)["success"]
    assert store.add("user", "Name: Sam", origin="cli")["success"]

    page.goto(server.url + "/")
    page.wait_for_selector("#token:focus")  # the login form takes the keyboard focus
    page.keyboard.type(token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#notes .entries li")
    assert page.inner_text("#who").startswith("profile a")
    # The stored XSS attempt is shown as text and ran nothing.
    assert page.evaluate("window.pwned") is None
    assert XSS in page.inner_text("#notes")
    assert page.evaluate("document.documentElement.scrollWidth") <= 361  # usable at 360 px
    _shot(page, "notes", tmp_path)

    # Add, edit and remove an entry; each time the store changes.
    page.fill("#add-memory", "Deploys with make release")
    page.click("#notes form.add button")
    page.wait_for_selector("#notes .ok")
    assert "Deploys with make release" in MemoryStore(profile_a).entries("memory")
    item = page.locator("#notes .entries li", has_text="Deploys with make release")
    item.locator("summary", has_text="Edit").click()
    item.locator("textarea").fill("Deploys with make ship")
    item.locator("button", has_text="Save").click()
    page.wait_for_selector("#notes .ok:has-text('Entry replaced.')")
    assert "Deploys with make ship" in MemoryStore(profile_a).entries("memory")
    page.locator("#notes .entries li", has_text="Deploys with make ship").locator(
        "button", has_text="Remove").click()
    page.wait_for_selector("#notes .ok:has-text('Entry removed.')")
    assert "Deploys with make ship" not in MemoryStore(profile_a).entries("memory")

    # The agent proposes a write (write_policy = "approve"); the page approves it.
    from silcrow.agent import Agent

    script = [{"tool_calls": [{"name": "memory", "arguments": {
        "action": "add", "target": "user", "content": "Prefers <em>short</em> answers"}}]},
        {"content": "I asked to remember that."}]
    with ScriptedModelServer(script, default={"content": "ok"}) as model:
        agent = Agent("scripted", base_url=model.base_url, api_key="x", home=profile_a, provider="none",
                      write_policy="approve")
        try:
            agent.run_turn("Keep answers short, please.")
        finally:
            agent.close()
    assert "Prefers <em>short</em> answers" not in MemoryStore(profile_a).entries("user")
    page.reload()
    page.wait_for_selector("#pending .proposal")
    assert "Prefers <em>short</em> answers" in page.inner_text("#pending")
    assert 'client "agent"' in page.inner_text("#pending")  # a caller's label, quoted
    _shot(page, "pending", tmp_path)
    page.set_viewport_size({"width": 1000, "height": 760})
    _shot(page, "desktop", tmp_path, full_page=False)  # the picture in docs/inspector.md
    page.set_viewport_size({"width": 360, "height": 800})
    page.locator("#pending button", has_text="Approve").click()
    page.wait_for_selector("#pending :text('Nothing is waiting for approval.')")
    assert "Prefers <em>short</em> answers" in MemoryStore(profile_a).entries("user")
    page.wait_for_selector("#prompt pre:has-text('Prefers <em>short</em> answers')")

    # Recall search: scores, dates and the fenced block.
    import httpx

    httpx.post(f"{server.url}/v1/recall", json={"text": "The user's cat is named Mochi."},
               headers={"Authorization": f"Bearer {token}"}, timeout=60).raise_for_status()
    page.fill("#recall-q", "cat named Mochi")
    page.press("#recall-q", "Enter")
    page.wait_for_selector("#recall-results table")
    assert "<memory-context>" in page.inner_text("#recall-results pre")
    _shot(page, "recall", tmp_path)
    page.fill("#sessions-q", "answers short")
    page.press("#sessions-q", "Enter")
    page.wait_for_selector("#sessions li:has-text('Keep answers short')")
    assert page.evaluate("window.pwned") is None
    # No CSP violation, no script error (the first, token-less probe of /ui/whoami is a 401 by design).
    assert [p for p in page.problems if "status of 401" not in p] == []


def test_a_wrong_token_is_refused_and_nothing_is_shown(site: tuple[ServerProcess, str, Path],
                                                       page: Any) -> None:
    server, _, _ = site
    page.goto(server.url + "/")
    page.evaluate("window.sessionStorage.clear()")
    page.goto(server.url + "/")
    page.wait_for_selector("#token:focus")
    page.keyboard.type("slc_nope_not-a-token")
    page.keyboard.press("Enter")
    page.wait_for_selector("#flash:not([hidden])")
    assert page.is_hidden("#app") and "Sam" not in page.content()


def test_the_one_time_link_logs_in_and_log_out_revokes_its_token(site: tuple[ServerProcess, str, Path],
                                                                  page: Any) -> None:
    import re

    from silcrow.serve import list_tokens

    server, _, profile_a = site
    home = profile_a.parent.parent
    link = re.search(r"http://\S+/#once=[A-Za-z0-9_-]+", server.output())
    assert link, server.output()
    page.goto(server.url + "/")
    page.evaluate("window.sessionStorage.clear()")
    page.goto("about:blank")  # from "/", the link would only change the hash: no new page load
    page.goto(link.group(0))
    page.wait_for_selector("#notes .entries")
    assert "review" in page.inner_text("#who")
    [made] = [r for r in list_tokens(home) if r.login]
    secret = page.evaluate("window.sessionStorage.getItem('silcrow-token')")
    page.click("#logout")
    page.wait_for_selector("#flash:has-text('revoked')")
    assert page.is_hidden("#app")
    assert made.id not in {r.id for r in list_tokens(home)}
    import httpx

    assert httpx.get(f"{server.url}/ui/whoami", headers={"Authorization": f"Bearer {secret}"},
                     timeout=30).status_code == 401
