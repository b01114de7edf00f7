"""The inspector's projects in a real browser (Playwright driving Debian's Chromium, as
test_serve_browser.py does): the Projects panel lists the profile's projects with notes; "Show"
sends that project in the X-Silcrow-Project header from then on, so the notes panel gains its
PROJECT.md (whose add form writes to it) and the prompt its block; "Show no project" takes them
away; a project whose root is gone since is dropped with a message, and the page goes on.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import make_home, tokens

from silcrow._paths import resolve_home
from silcrow.home import open_profile
from silcrow.serve import ServerProcess

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium "
                                                   "(apt-get install chromium; .ci/run installs it)")]


def _git_tree(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, timeout=60)
    return path.resolve()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, Any]]:
    home = make_home(tmp_path / "home", profiles=("a",))
    profile = resolve_home(home, "a")
    alpha, beta = _git_tree(tmp_path / "src" / "alpha"), _git_tree(tmp_path / "src" / "beta")
    opened = open_profile(profile)
    opened.notes().add("user", "Sam reviews on Mondays.", origin="cli")
    opened.notes(project=alpha).add("project", "alpha's <b>docs</b> build with mkdocs.", origin="cli")
    opened.notes(project=beta).add("project", "beta is archived next year.", origin="cli")
    with ServerProcess(home, "--profile", "a") as server:
        yield {"server": server, "token": tokens(home)["a_review"], "profile": profile, "alpha": alpha,
               "beta": beta}


def test_a_project_is_chosen_shown_written_and_dropped(site: dict[str, Any]) -> None:
    alpha, beta, profile = site["alpha"], site["beta"], site["profile"]
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(site["server"].url + "/")
        page.wait_for_selector("#token:focus")
        page.keyboard.type(site["token"])
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#projects button[data-project='{alpha}']")
        assert "No project is shown" in page.inner_text("#projects")
        assert "PROJECT.md" not in page.inner_text("#notes")

        page.click(f"#projects button[data-project='{alpha}']")
        page.wait_for_selector("#notes section[aria-label='PROJECT.md']")
        assert str(alpha) in page.inner_text("#who")
        notes = page.inner_text("#notes")
        assert "alpha's <b>docs</b> build with mkdocs." in notes and "beta is archived" not in notes
        page.wait_for_selector("#prompt pre:has-text('mkdocs')")
        assert "beta is archived" not in page.inner_text("#prompt")
        assert page.evaluate("document.documentElement.scrollWidth") <= 361  # usable at 360 px

        page.fill("#add-project", "alpha's CI runs on every tag.")
        page.click("#notes section[aria-label='PROJECT.md'] form.add button")
        page.wait_for_selector("#notes .ok")
        written = open_profile(profile).notes(project=alpha).entries("project")
        assert "alpha's CI runs on every tag." in written

        page.click(f"#projects button[data-project='{beta}']")
        page.wait_for_selector("#notes section[aria-label='PROJECT.md']:has-text('beta is archived')")
        assert "mkdocs" not in page.inner_text("#notes")

        page.click("#projects button[data-project='']")
        page.wait_for_selector("#projects :text('No project is shown')")
        page.wait_for_selector("#notes section[aria-label='USER.md']")
        assert "PROJECT.md" not in page.inner_text("#notes")

        # the shown project's root goes away: the page drops it, says why, and goes on without it
        page.click(f"#projects button[data-project='{beta}']")
        page.wait_for_selector("#notes section[aria-label='PROJECT.md']")
        shutil.rmtree(beta)
        page.reload()
        page.wait_for_selector("#flash:has-text('X-Silcrow-Project')")
        page.wait_for_selector("#notes section[aria-label='USER.md']")
        assert "PROJECT.md" not in page.inner_text("#notes")
        assert "root gone" in page.inner_text("#projects")
        browser.close()
    # no CSP violation, no script error: only the token-less first probe (401, by design) and the
    # refused probe of the gone project (422)
    assert [p for p in problems if "status of 401" not in p and "status of 422" not in p] == [], problems
