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


# -- recall in a project: no snippet of another project's sessions --------------------------------

def prompt_submit(home: Path, cwd: Path, prompt: str) -> str:
    """The recalled context the user-prompt-submit hook adds for ``prompt`` in ``cwd``."""
    payload = {"session_id": str(uuid.uuid4()), "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
               "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    done = subprocess.run([str(SILCROW), "--home", str(home), "hook", "user-prompt-submit"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(home.parent), "NO_COLOR": "1"}, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def _sessions_of_two_projects(home: Path, alpha: Path, beta: Path) -> None:
    """Imported coding sessions of each project (their turns record the session's working
    directory, as `silcrow recall import` and the ingest hooks store them), and a memory that
    names no project."""
    from silcrow.recall.local import RecallRecord

    provider = open_profile(home).provider()
    assert provider is not None
    provider.initialize("seed", home=str(home))
    try:
        provider.ingest([  # type: ignore[attr-defined]
            RecallRecord(text="The deploy script failed because the alpha release token expired.",
                         kind="turn", session_id="s-alpha", speaker="assistant",
                         metadata={"client": "claude-code", "project": str(alpha / "crates" / "core")}),
            RecallRecord(text="The deploy script failed because the beta staging host ran out of disk.",
                         kind="turn", session_id="s-beta", speaker="assistant",
                         metadata={"client": "claude-code", "project": str(beta)}),
            RecallRecord(text="The deploy script failed on the laptop because the VPN was down.",
                         kind="turn", session_id="s-chat", speaker="assistant"),
        ])
    finally:
        provider.shutdown()


def _check_scoped_recall(home: Path, alpha: Path, beta: Path, outside: Path) -> None:
    prompt = "why did the deploy script fail?"
    in_alpha = prompt_submit(home, alpha, prompt)
    assert "alpha release token" in in_alpha and "VPN was down" in in_alpha
    assert "beta staging host" not in in_alpha
    in_beta = prompt_submit(home, beta / "sub", prompt)  # a directory inside beta's work tree
    assert "beta staging host" in in_beta and "VPN was down" in in_beta and "alpha release" not in in_beta
    everywhere = prompt_submit(home, outside, prompt)  # outside any project: no project to keep to
    assert all(t in everywhere for t in ("alpha release token", "beta staging host", "VPN was down"))


def test_recall_in_a_project_leaves_out_other_projects_sessions(tmp_path: Path) -> None:
    home = tmp_path / "silcrow"
    alpha, beta = git_tree(tmp_path / "src" / "alpha"), git_tree(tmp_path / "src" / "beta")
    (beta / "sub").mkdir()
    open_profile(home, create=True)
    _sessions_of_two_projects(home, alpha, beta)
    _check_scoped_recall(home, alpha, beta, tmp_path)


def test_recall_in_a_project_leaves_out_other_projects_sessions_on_postgresql(
        tmp_path: Path, pg_dsn: str) -> None:
    home = tmp_path / "silcrow"
    alpha, beta = git_tree(tmp_path / "src" / "alpha"), git_tree(tmp_path / "src" / "beta")
    (beta / "sub").mkdir()
    home.mkdir()
    config = f'[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n'
    (home / "config.toml").write_text(config, encoding="utf-8")
    _sessions_of_two_projects(home, alpha, beta)
    _check_scoped_recall(home, alpha, beta, tmp_path)
