"""`silcrow connect claude-code|codex|cursor`: entries added to the clients' own config files and
taken out again, leaving every other byte as it was.

The file shapes follow what the real clients write: `claude mcp add` (Claude Code 2.1.197:
``~/.claude.json`` and ``.mcp.json``, ``{"type": "stdio", "command", "args", "env"}``) and
`codex mcp add` (Codex 0.171: ``[mcp_servers.NAME]`` with ``command`` and ``args``); the real
clients reading what connect writes is tested in test_coding_clients_real.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

SILCROW = Path(sys.executable).parent / "silcrow"

CODEX_WITH_COMMENTS = """\
# my codex config
model = "o3"  # the model I use

[mcp_servers.docs]
command = "npx"   # keep this comment
args = ["-y", "docs-mcp"]

[profiles.fast]
model = "o4-mini"
"""

CLAUDE_JSON = """\
{
    "numStartups": 12,
    "mcpServers": {
        "github": {"type": "stdio", "command": "gh-mcp", "args": [], "env": {}}
    },
    "projects": {
        "/home/ana/src/tidepool": {"allowedTools": []}
    }
}
"""

CURSOR_JSONC = """\
{
  // servers I use every day
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/sse" }, /* hosted */
  }
}
"""

SETTINGS_WITH_HOOKS = """\
{
  "model": "opus",
  "hooks": {
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/log-prompt.sh"
          }
        ]
      }
    ]
  }
}
"""


def run(
    home: Path, silcrow_home: Path, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "SILCROW_HOME": str(silcrow_home),
        "NO_COLOR": "1",
        "COLUMNS": "300",
    }
    env.pop("CODEX_HOME", None)
    return subprocess.run(
        [str(SILCROW), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or home,
        timeout=120,
        check=False,
    )


@pytest.fixture
def homes(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "user"
    home.mkdir()
    return home, tmp_path / "silcrow"


def _write(path: Path, text: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path.read_bytes()


def test_codex_connect_then_remove_is_byte_identical_with_comments_and_other_servers(
    homes: tuple[Path, Path],
) -> None:
    home, silcrow_home = homes
    config = home / ".codex" / "config.toml"
    before = _write(config, CODEX_WITH_COMMENTS)
    done = run(home, silcrow_home, "connect", "codex")
    assert done.returncode == 0, done.stderr
    text = config.read_text(encoding="utf-8")
    assert text.startswith(CODEX_WITH_COMMENTS)  # everything that was there, untouched
    parsed = tomllib.loads(text)
    assert parsed["mcp_servers"]["docs"] == {"command": "npx", "args": ["-y", "docs-mcp"]}
    assert parsed["mcp_servers"]["silcrow"] == {
        "command": str(SILCROW),
        "args": ["--home", str(silcrow_home), "mcp"],
        "startup_timeout_sec": 30,
    }
    backups = list((silcrow_home / "backups" / "connect").iterdir())
    assert [b.read_bytes() for b in backups] == [before]
    again = run(home, silcrow_home, "connect", "codex")
    assert "connected already" in again.stdout and config.read_text(encoding="utf-8") == text  # idempotent
    removed = run(home, silcrow_home, "connect", "codex", "--remove")
    assert removed.returncode == 0, removed.stderr
    assert config.read_bytes() == before


@pytest.mark.parametrize("ending", ["", "\n\n"])
def test_codex_files_without_a_final_newline_or_with_blank_lines_come_back_the_same(
    homes: tuple[Path, Path], ending: str
) -> None:
    home, silcrow_home = homes
    config = home / ".codex" / "config.toml"
    before = _write(config, CODEX_WITH_COMMENTS.rstrip("\n") + ending)
    assert run(home, silcrow_home, "connect", "codex").returncode == 0
    assert tomllib.loads(config.read_text(encoding="utf-8"))["mcp_servers"]["silcrow"]["args"][-1] == "mcp"
    assert run(home, silcrow_home, "connect", "codex", "--remove").returncode == 0
    assert config.read_bytes() == before


def test_when_the_file_did_not_exist_remove_deletes_what_connect_created(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    for client, files in (
        ("codex", [home / ".codex" / "config.toml"]),
        ("cursor", [home / ".cursor" / "mcp.json"]),
        ("claude-code", [home / ".claude.json", home / ".claude" / "settings.json"]),
    ):
        assert run(home, silcrow_home, "connect", client).returncode == 0
        assert all(f.is_file() for f in files)
        removed = run(home, silcrow_home, "connect", client, "--remove")
        assert removed.returncode == 0, removed.stderr
        assert not any(f.exists() for f in files), client
    assert sorted(p.name for p in home.iterdir()) == []  # the directories connect made are gone too
    assert not (silcrow_home / "connect.json").exists()


def test_claude_code_user_config_keeps_its_formatting_and_other_servers(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    before = _write(home / ".claude.json", CLAUDE_JSON)
    settings_before = _write(home / ".claude" / "settings.json", SETTINGS_WITH_HOOKS)
    done = run(home, silcrow_home, "--profile", "work", "connect", "claude-code")
    assert done.returncode == 0, done.stderr
    data = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    assert list(data) == ["numStartups", "mcpServers", "projects"]
    assert data["mcpServers"]["github"]["command"] == "gh-mcp"
    # the shape `claude mcp add` writes, pointing at this home and profile
    assert data["mcpServers"]["silcrow"] == {
        "type": "stdio",
        "command": str(SILCROW),
        "args": ["--home", str(silcrow_home), "--profile", "work", "mcp"],
        "env": {},
    }
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert settings["model"] == "opus"
    prompt_hooks = settings["hooks"]["UserPromptSubmit"]
    assert prompt_hooks[0]["hooks"][0]["command"] == "~/bin/log-prompt.sh"  # the user's own hook stays first
    commands = {
        event: [h["command"] for group in groups for h in group["hooks"]]
        for event, groups in settings["hooks"].items()
    }
    assert commands["SessionStart"] == [f"{SILCROW} --home {silcrow_home} --profile work hook session-start"]
    assert commands["UserPromptSubmit"][1].endswith("hook user-prompt-submit")
    assert set(commands) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    ours = [
        h
        for groups in settings["hooks"].values()
        for g in groups
        for h in g["hooks"]
        if "silcrow" in h["command"]
    ]
    assert len(ours) == 4 and all(h["type"] == "command" and h["timeout"] >= 30 for h in ours)
    # the profile's own state: the remove must be run with the same profile, as connect was
    removed = run(home, silcrow_home, "--profile", "work", "connect", "claude-code", "--remove")
    assert removed.returncode == 0, removed.stderr
    assert (home / ".claude.json").read_bytes() == before
    assert (home / ".claude" / "settings.json").read_bytes() == settings_before


def test_one_hook_can_be_removed_and_added_back(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    settings_file = home / ".claude" / "settings.json"
    _write(settings_file, SETTINGS_WITH_HOOKS)
    assert run(home, silcrow_home, "connect", "claude-code").returncode == 0
    full = settings_file.read_bytes()
    done = run(home, silcrow_home, "connect", "claude-code", "--remove", "--hook", "user-prompt-submit")
    assert done.returncode == 0, done.stderr
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    assert [g["hooks"][0]["command"] for g in settings["hooks"]["UserPromptSubmit"]] == [
        "~/bin/log-prompt.sh"
    ]
    assert "SessionStart" in settings["hooks"]
    assert "silcrow" in json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]
    assert run(home, silcrow_home, "connect", "claude-code", "--hook", "user-prompt-submit").returncode == 0
    assert settings_file.read_bytes() == full


def test_cursor_project_config_with_comments(homes: tuple[Path, Path], tmp_path: Path) -> None:
    home, silcrow_home = homes
    project = tmp_path / "repo"
    config = project / ".cursor" / "mcp.json"
    before = _write(config, CURSOR_JSONC)
    done = run(home, silcrow_home, "connect", "cursor", "--scope", "project", cwd=project)
    assert done.returncode == 0, done.stderr
    text = config.read_text(encoding="utf-8")
    assert "// servers I use every day" in text and "/* hosted */" in text
    assert '"silcrow": {' in text
    assert (
        run(home, silcrow_home, "connect", "cursor", "--scope", "project", "--remove", cwd=project).returncode
        == 0
    )
    assert config.read_bytes() == before


def test_a_compact_one_line_file_stays_one_line_and_comes_back(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    before = _write(home / ".cursor" / "mcp.json", '{"mcpServers":{"a":{"command":"x"}}}')
    assert run(home, silcrow_home, "connect", "cursor").returncode == 0
    text = (home / ".cursor" / "mcp.json").read_text(encoding="utf-8")
    assert "\n" not in text and json.loads(text)["mcpServers"]["silcrow"]["args"][-1] == "mcp"
    assert run(home, silcrow_home, "connect", "cursor", "--remove").returncode == 0
    assert (home / ".cursor" / "mcp.json").read_bytes() == before


def test_dry_run_prints_the_exact_diff_and_writes_nothing(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    config = home / ".codex" / "config.toml"
    before = _write(config, CODEX_WITH_COMMENTS)
    done = run(home, silcrow_home, "connect", "codex", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert config.read_bytes() == before and not silcrow_home.exists()
    assert done.stdout.startswith(f"--- {config}\n+++ {config}\n@@ ")
    added = [
        line[1:] for line in done.stdout.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    assert added == [
        "",
        "[mcp_servers.silcrow]",
        f'command = "{SILCROW}"',
        f'args = ["--home", "{silcrow_home}", "mcp"]',
        "startup_timeout_sec = 30",
    ]
    # applying the diff with patch(1) gives exactly what connect writes
    patched = home / "patched.toml"
    patched.write_bytes(before)
    subprocess.run(["patch", "-s", str(patched)], input=done.stdout, text=True, check=True)
    assert run(home, silcrow_home, "connect", "codex").returncode == 0
    assert patched.read_bytes() == config.read_bytes()


def test_connect_for_another_home_replaces_the_entry(homes: tuple[Path, Path], tmp_path: Path) -> None:
    home, silcrow_home = homes
    assert run(home, silcrow_home, "connect", "cursor").returncode == 0
    other = tmp_path / "other-home"
    assert run(home, silcrow_home, "--home", str(other), "connect", "cursor").returncode == 0
    servers = json.loads((home / ".cursor" / "mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert list(servers) == ["silcrow"] and servers["silcrow"]["args"] == ["--home", str(other), "mcp"]


def test_a_broken_config_is_refused_and_left_alone(homes: tuple[Path, Path]) -> None:
    home, silcrow_home = homes
    before = _write(home / ".claude.json", '{"mcpServers": {"a": 1,}, oops}')
    done = run(home, silcrow_home, "connect", "claude-code", "--no-hooks")
    assert done.returncode == 1
    assert (
        "is not valid JSON" in done.stderr
        and "line 1" in done.stderr
        and "nothing was changed" in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert (home / ".claude.json").read_bytes() == before
    toml_before = _write(home / ".codex" / "config.toml", "mcp_servers = 3\n")
    refused = run(home, silcrow_home, "connect", "codex")
    assert refused.returncode == 1 and "'mcp_servers'" in refused.stderr
    assert (home / ".codex" / "config.toml").read_bytes() == toml_before
    settings_before = _write(home / ".claude" / "settings.json", "// not JSON at all\n[1, 2")
    hooks = run(home, silcrow_home, "connect", "claude-code", "--hook", "session-start")
    assert hooks.returncode == 1 and "settings.json is not valid JSON" in hooks.stderr
    assert "Traceback" not in hooks.stderr and "internal error" not in hooks.stderr
    assert (home / ".claude" / "settings.json").read_bytes() == settings_before
    usage = run(home, silcrow_home, "connect", "vscode")
    assert usage.returncode == 2 and "claude-code, codex, cursor" in usage.stderr


# -- the text splicing underneath, on any JSON document ------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    doc=st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    key=st.text(min_size=1, max_size=6),
    value=json_values,
)
def test_insert_then_remove_gives_back_the_same_text(
    doc: dict[str, object], indent: object, key: str, value: object
) -> None:
    from silcrow.integrations.coding import _jsonedit as jsonedit

    text = json.dumps(doc, indent=indent) + "\n"  # type: ignore[arg-type]
    if key in doc:
        return
    root = jsonedit.parse(text)
    added = jsonedit.insert(text, root, value, key)
    assert json.loads(added) == {**doc, key: value}
    again = jsonedit.parse(added)
    index = next(i for i, m in enumerate(again.members) if m.key == key)
    assert jsonedit.remove(added, again, index) == text
