"""`silcrow connect` and what a cloned repository can plant: symbolic links in a project (never
followed in project scope), and a config nested too deep to edit (a clear refusal)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_coding_connect import run

SETTINGS = '{\n  "model": "opus"\n}\n'


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The user's home, silcrow's home, and a project cloned into the user's home."""
    home = tmp_path / "user"
    project = home / "src" / "cloned"
    project.mkdir(parents=True)
    return home, tmp_path / "silcrow", project


def _refused(done: object, link: Path, points: str) -> None:
    stderr = getattr(done, "stderr", "")
    assert getattr(done, "returncode", None) == 1, stderr
    assert f"{link} is a symbolic link to {points}" in stderr, stderr
    assert "drop --scope project" in stderr and "nothing was changed" in stderr
    assert "Traceback" not in stderr and "internal error" not in stderr


@pytest.mark.parametrize("dry", [False, True])
def test_a_dangling_mcp_json_link_creates_nothing_outside_the_project(
        places: tuple[Path, Path, Path], tmp_path: Path, dry: bool) -> None:
    home, silcrow_home, project = places
    outside = tmp_path / "elsewhere" / "planted.json"
    outside.parent.mkdir()
    (project / ".mcp.json").symlink_to(outside)
    done = run(home, silcrow_home, "connect", "claude-code", "--scope", "project", "--no-hooks",
               *(["--dry-run"] if dry else []), cwd=project)
    _refused(done, project / ".mcp.json", str(outside))
    assert str(outside) in done.stderr  # where the write would have gone
    assert not outside.exists() and sorted(p.name for p in outside.parent.iterdir()) == []
    assert (project / ".mcp.json").is_symlink()


def test_a_claude_dir_linked_to_the_users_keeps_the_hooks_out_of_the_user_settings(
        places: tuple[Path, Path, Path]) -> None:
    home, silcrow_home, project = places
    user_settings = home / ".claude" / "settings.json"
    user_settings.parent.mkdir()
    user_settings.write_text(SETTINGS, encoding="utf-8")
    (project / ".claude").symlink_to(home / ".claude")
    done = run(home, silcrow_home, "connect", "claude-code", "--scope", "project", cwd=project)
    _refused(done, project / ".claude", str(home / ".claude"))
    assert str(user_settings) in done.stderr
    assert user_settings.read_text(encoding="utf-8") == SETTINGS
    assert not (project / ".mcp.json").exists()  # refused before anything was written
    # the hooks only: refused the same way
    hook = run(home, silcrow_home, "connect", "claude-code", "--scope", "project", "--hook", "session-end",
               cwd=project)
    _refused(hook, project / ".claude", str(home / ".claude"))
    assert user_settings.read_text(encoding="utf-8") == SETTINGS


def test_a_cursor_dir_link_and_a_relative_link_are_refused(places: tuple[Path, Path, Path]) -> None:
    home, silcrow_home, project = places
    (home / ".cursor").mkdir()
    (project / ".cursor").symlink_to("../../../.cursor")  # relative: named as written
    done = run(home, silcrow_home, "connect", "cursor", "--scope", "project", cwd=project)
    _refused(done, project / ".cursor", "../../../.cursor")
    assert list((home / ".cursor").iterdir()) == []
    inside = project / ".cursor2"
    inside.mkdir()
    (project / ".cursor").unlink()
    (project / ".cursor").mkdir()
    (project / ".cursor" / "mcp.json").symlink_to(inside / "mcp.json")  # even one inside the project
    done = run(home, silcrow_home, "connect", "cursor", "--scope", "project", cwd=project)
    _refused(done, project / ".cursor" / "mcp.json", str(inside / "mcp.json"))


def test_without_links_project_scope_still_works(places: tuple[Path, Path, Path]) -> None:
    home, silcrow_home, project = places
    done = run(home, silcrow_home, "connect", "claude-code", "--scope", "project", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "silcrow" in json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert (project / ".claude" / "settings.json").is_file()


def test_a_user_config_behind_a_link_is_named_where_the_write_lands(
        places: tuple[Path, Path, Path], tmp_path: Path) -> None:
    home, silcrow_home, _ = places
    dotfiles = tmp_path / "dotfiles" / "claude.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(SETTINGS, encoding="utf-8")
    (home / ".claude.json").symlink_to(dotfiles)
    dry = run(home, silcrow_home, "connect", "claude-code", "--no-hooks", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith(f"--- {dotfiles}\n+++ {dotfiles}\n")
    done = run(home, silcrow_home, "connect", "claude-code", "--no-hooks")
    assert done.returncode == 0, done.stderr
    assert f"the file changed is {dotfiles}" in done.stdout
    assert "silcrow" in dotfiles.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [".claude.json", ".cursor/mcp.json", ".claude/settings.json"])
def test_a_config_nested_too_deep_is_refused_by_name(places: tuple[Path, Path, Path], name: str) -> None:
    home, silcrow_home, _ = places
    config = home / name
    config.parent.mkdir(parents=True, exist_ok=True)
    deep = '{"mcpServers": {}, "x": ' + "[" * 500 + "]" * 500 + "}\n"
    config.write_text(deep, encoding="utf-8")
    client = "cursor" if "cursor" in name else "claude-code"
    args = ["--hook", "session-start"] if "settings" in name else ["--no-hooks"]
    done = run(home, silcrow_home, "connect", client, *args)
    assert done.returncode == 1, done.stderr
    assert f"{config} is deeper than silcrow edits" in done.stderr and "200 levels" in done.stderr
    assert "nothing was changed" in done.stderr
    assert "RecursionError" not in done.stderr and "internal error" not in done.stderr
    assert config.read_text(encoding="utf-8") == deep
