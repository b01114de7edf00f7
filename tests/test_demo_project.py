"""The project-notes walkthrough of `make demo` runs end to end: two real git work trees, the real
`silcrow` command in each, an agent in one of them, offline, away from ~/.silcrow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from silcrow.demo import WALKTHROUGHS
from silcrow.demo import _project_walkthrough as project_walkthrough

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_walkthrough_shows_each_project_its_own_notes_and_the_users(
    demo_home: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    user_home, scratch = demo_home

    ok = project_walkthrough.run(Console(width=200, force_terminal=False))
    out = ANSI.sub("", capsys.readouterr().out)
    assert ok is True, out
    assert "_project_walkthrough" in WALKTHROUGHS  # `make demo` runs it
    assert "SCRIPTED STAND-IN" in out
    for step in ("1. two git work trees", "2. each project's frozen prompt",
                 "3. an agent session in app writes to the project",
                 "4. the write is on disk in app's PROJECT.md only"):
        assert step in out, step
    # Every check of the table held: the two projects' listing, each prompt's own PROJECT block
    # and the user's (for both work trees), the tool's target, the session's three blocks, the
    # frozen prompt, the write landing in app's notes only, and the next session showing it.
    assert out.count("✓") == 10 and "FAILED" not in out and "exit 1" not in out
    assert "app$ silcrow memory add" in out and "--target project" in out
    assert re.search(r"PROJECT \(notes on the project at \S+/app\)", out)
    assert '"target": "project"' in out  # the model's tool call, shown
    hashes = re.findall(r"request \d: system prompt sha256 ([0-9a-f]{12})", out)
    assert len(hashes) == 3 and len(set(hashes)) == 1
    assert project_walkthrough.AGENT_NOTE in out  # `memory show` in app lists the agent's write
    assert not (user_home / ".silcrow").exists()
    assert [p.name for p in scratch.iterdir() if p.name != ".ses"] == []
