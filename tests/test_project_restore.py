"""An archived project's notes are listed (`memory projects --archived`) and put back
(`memory projects restore ROOT|KEY|NAME`), whole; refused, nothing changed, when the project
has notes of its own again. Real git work trees, the files home and a real PostgreSQL."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_support import run_cli

from silcrow._projects import project_key
from silcrow.errors import StoreError
from silcrow.home import Profile, open_profile


def git_init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path.resolve()


def _archive_and_restore(profile: Profile, one: Path, two: Path) -> None:
    notes = profile.notes(project=one)
    notes.add("project", "First life.", origin="api")
    notes.add("project", "Builds with make.", origin="api")
    profile.notes(project=two).add("project", "Two stays.", origin="api")
    assert profile.archived_projects() == []
    profile.archive_project(str(one))
    assert [p["root"] for p in profile.projects()] == [str(two)]
    shelved = profile.archived_projects()
    assert [(a["root"], a["key"], a["entries"]) for a in shelved] == [(str(one), project_key(one), 2)]
    assert shelved[0]["archived"] and shelved[0]["name"].startswith(project_key(one) + "-")
    # restored by its root: the notes, their journal and the listing come back
    restored = profile.restore_project(str(one))
    assert restored["name"] == shelved[0]["name"]
    assert profile.notes(project=one).entries("project") == ["First life.", "Builds with make."]
    assert [r["action"] for r in profile.notes(project=one).history("project")] == ["add", "add"]
    assert {p["root"] for p in profile.projects()} == {str(one), str(two)}
    assert profile.archived_projects() == []
    # archived again, then notes made afresh in the project: a restore is refused, nothing moved
    profile.archive_project(project_key(one))
    profile.notes(project=one).add("project", "Second life.", origin="api")
    with pytest.raises(StoreError, match="has notes of its own now") as refused:
        profile.restore_project(project_key(one))
    assert "archive" in str(refused.value)
    assert profile.notes(project=one).entries("project") == ["Second life."]
    assert len(profile.archived_projects()) == 1
    # with those archived too, the most recent archive is what the root restores; the older by name
    profile.archive_project(str(one))
    older, newer = sorted(profile.archived_projects(), key=lambda a: a["archived"] + a["name"])
    profile.restore_project(str(one))
    assert profile.notes(project=one).entries("project") == ["Second life."]
    profile.archive_project(str(one))
    profile.restore_project(older["name"])
    assert profile.notes(project=one).entries("project") == ["First life.", "Builds with make."]
    with pytest.raises(StoreError, match="no archived project at '/nowhere'"):
        profile.restore_project("/nowhere")


def test_an_archived_project_is_listed_and_restored(tmp_path: Path) -> None:
    one, two = git_init(tmp_path / "one"), git_init(tmp_path / "two")
    _archive_and_restore(open_profile(tmp_path / "home"), one, two)


def test_an_archived_project_is_listed_and_restored_on_postgresql(tmp_path: Path, pg_dsn: str) -> None:
    one, two = git_init(tmp_path / "one"), git_init(tmp_path / "two")
    _archive_and_restore(open_profile(tmp_path / "home", dsn=pg_dsn), one, two)


def test_a_restore_whose_root_is_gone_still_puts_the_notes_back(tmp_path: Path) -> None:
    one = git_init(tmp_path / "one")
    profile = open_profile(tmp_path / "home")
    profile.notes(project=one).add("project", "Kept.", origin="api")
    profile.archive_project(str(one))
    one.rename(tmp_path / "elsewhere")
    profile.restore_project(str(one))
    assert [(p["root"], p["exists"], p["entries"]) for p in profile.projects()] == [(str(one), False, 1)]


def silcrow(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, *args)


def test_the_cli_lists_archives_and_restores_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "250")
    web = git_init(tmp_path / "web")
    monkeypatch.chdir(tmp_path)
    run = lambda *args: silcrow(capsys, "memory", *args)  # noqa: E731
    code, out, _ = run("projects", "--archived")
    assert code == 0 and "no archived project" in out
    assert run("add", "Web fact.", "-t", "project", "--project", str(web))[0] == 0
    assert run("projects", "archive", str(web))[0] == 0
    code, out, _ = run("projects", "--archived")
    assert code == 0 and str(web) in out and "1 entry" in out and "archived " in out
    code, out, _ = run("projects", "--archived", "--json")
    assert [a["root"] for a in json.loads(out)] == [str(web)]
    code, out, err = run("projects", "restore", str(web))
    assert code == 0 and "Restored the notes of" in out, err
    code, out, _ = run("show", "--json", "-t", "project", "--project", str(web))
    assert json.loads(out)["project"]["entries"] == ["Web fact."]
    run("projects", "archive", str(web))
    run("add", "Web again.", "-t", "project", "--project", str(web))
    code, _, err = run("projects", "restore", str(web))
    assert code == 1 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert "has notes of its own now" in err and "nothing was restored" in err
    code, _, err = run("projects", "restore", "/nowhere")
    assert code == 1 and "memory projects --archived" in err
