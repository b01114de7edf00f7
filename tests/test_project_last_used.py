"""A project's "last used" is a session's start with its notes (the session-start hook, `silcrow
mcp` starting in it, an agent), never a person's look at them (`silcrow memory show`, `prompt`,
`history`, `projects`): the record is what a person reads to choose what to archive.

Each check first dates the record back a year, so a use is seen whatever the record's own
throttle (one write a minute) would skip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import anyio
import pytest
from agent_support import running_agent
from mcp import Client
from serve_support import stdio_in

from silcrow._projects import project_key
from silcrow.cli.main import main
from silcrow.home import open_profile

SILCROW = Path(sys.executable).parent / "silcrow"
LONG_AGO = "2025-01-01T00:00:00Z"


def git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path.resolve()


def record_file(home: Path, root: Path) -> Path:
    return home / "projects" / project_key(root) / "project.json"


def dated_back(home: Path, root: Path) -> bytes:
    """Set the project's last use a year back; the record's bytes as they are then."""
    path = record_file(home, root)
    record = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**record, "last_used": LONG_AGO}), encoding="utf-8")
    return path.read_bytes()


def last_used(home: Path, root: Path) -> str:
    return str(json.loads(record_file(home, root).read_text(encoding="utf-8"))["last_used"])


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    home, root = tmp_path / "home", git_init(tmp_path / "app")
    open_profile(home, create=True).notes(project=root).add("project", "Tests run with make check.",
                                                            origin="cli")
    return home, root


def test_a_persons_reads_do_not_touch_the_record(
        project: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    home, root = project
    before = dated_back(home, root)
    monkeypatch.setenv("SILCROW_HOME", str(home))
    monkeypatch.chdir(root)
    for args in (("show",), ("show", "-t", "project"), ("prompt",), ("history", "-t", "project"),
                 ("projects",), ("pending",), ("doctor",)):
        with pytest.raises(SystemExit) as done:
            main(["memory", *args])
        assert done.value.code in (0, None), (args, capsys.readouterr())
    assert record_file(home, root).read_bytes() == before


def test_the_session_start_hook_marks_a_use(project: tuple[Path, Path]) -> None:
    home, root = project
    dated_back(home, root)
    payload = {"session_id": str(uuid.uuid4()), "transcript_path": str(root / "t.jsonl"), "cwd": str(root),
               "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run([str(SILCROW), "--home", str(home), "hook", "session-start"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(home.parent)}, check=False)
    assert done.returncode == 0 and "make check" in done.stdout, done.stderr
    assert last_used(home, root) > LONG_AGO


def test_silcrow_mcp_starting_in_the_project_marks_a_use(project: tuple[Path, Path]) -> None:
    home, root = project
    dated_back(home, root)

    async def start() -> None:
        async with Client(stdio_in(home, root)) as client:
            await client.list_tools()

    anyio.run(start)
    assert last_used(home, root) > LONG_AGO


def test_an_agent_in_the_project_marks_a_use(project: tuple[Path, Path]) -> None:
    home, root = project
    dated_back(home, root)
    with running_agent(home, [], project=root) as (agent, _):
        agent.run_turn("hello")
    assert last_used(home, root) > LONG_AGO
