"""The Claude Code session-start hook in two git work trees: each session gets the notes of the
project its `cwd` is in (PROJECT.md, kept in the home) beside the user's, and nothing of the
other project. The hook JSON is what Claude Code sends (session_id, transcript_path, cwd,
hook_event_name, source); the real Claude Code running it is in test_coding_clients_projects.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from silcrow.home import open_profile

SILCROW = Path(sys.executable).parent / "silcrow"


def git_tree(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, timeout=60)
    return path.resolve()


def session_start(home: Path, cwd: Path) -> str:
    """The context the hook adds for a new session started in ``cwd`` ('' when none)."""
    session = str(uuid.uuid4())
    payload = {"session_id": session, "transcript_path": str(cwd / f"{session}.jsonl"), "cwd": str(cwd),
               "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run([str(SILCROW), "--home", str(home), "hook", "session-start"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(home.parent), "NO_COLOR": "1"}, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def test_each_work_tree_gets_only_its_own_project_notes(tmp_path: Path) -> None:
    home = tmp_path / "silcrow"
    alpha, beta = git_tree(tmp_path / "src" / "alpha"), git_tree(tmp_path / "src" / "beta")
    (alpha / "crates" / "core").mkdir(parents=True)
    profile = open_profile(home, create=True)
    profile.notes().add("user", "Ana prefers short answers.", origin="cli")
    profile.notes(project=alpha).add("project", "alpha is released with cargo-release.", origin="cli")
    profile.notes(project=beta).add("project", "beta's tests need a running Redis.", origin="cli")

    in_alpha = session_start(home, alpha)
    assert "alpha is released with cargo-release." in in_alpha and "Ana prefers short answers." in in_alpha
    assert "Redis" not in in_alpha
    # the block is exactly the project's part of the prompt section the agent gets there
    notes = open_profile(home).notes(project=alpha)
    notes.load()
    assert in_alpha == notes.prompt_section()

    in_beta = session_start(home, beta)
    assert "beta's tests need a running Redis." in in_beta and "Ana prefers short answers." in in_beta
    assert "cargo-release" not in in_beta

    deep = session_start(home, alpha / "crates" / "core")  # anywhere inside the work tree
    assert "alpha is released with cargo-release." in deep and "Redis" not in deep

    outside = session_start(home, tmp_path)
    assert "Ana prefers short answers." in outside
    assert "cargo-release" not in outside and "Redis" not in outside
    # nothing was written into either repository
    assert sorted(p.name for p in alpha.iterdir()) == [".git", "crates"]
    assert sorted(p.name for p in beta.iterdir()) == [".git"]
