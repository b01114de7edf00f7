"""`silcrow connect CLIENT` then `--remove` gives back the client's config byte for byte, also
for files with CRLF line ends and for an empty server list holding spaces or a comment (which
connect must not drop either)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_coding_connect import homes, run  # noqa: F401  (homes: a fixture)

from silcrow.integrations.coding import _jsonedit as jsonedit

CASES = [
    ("claude-code", ".claude.json", '{\r\n  "numStartups": 3,\r\n  "mcpServers": {}\r\n}\r\n'),
    ("codex", ".codex/config.toml",
     '# mine\r\nmodel = "o3"\r\n\r\n[mcp_servers.docs]\r\ncommand = "npx"\r\n'),
    ("cursor", ".cursor/mcp.json", '{\n  "mcpServers": { /* added by hand later */ }\n}\n'),
    ("cursor", ".cursor/mcp.json", '{"mcpServers": { }}'),
    ("claude-code", ".claude.json", '{\n  "mcpServers": {\n    // none yet\n  },\n  "theme": "dark"\n}\n'),
]


@pytest.mark.parametrize(("client", "name", "text"), CASES)
def test_connect_then_remove_gives_back_the_same_bytes(
        homes: tuple[Path, Path], client: str, name: str, text: str) -> None:  # noqa: F811
    home, silcrow_home = homes
    path = home / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    done = run(home, silcrow_home, "connect", client, "--no-hooks")
    assert done.returncode == 0, done.stderr
    after = path.read_bytes().decode("utf-8")
    if "//" not in after and "/*" not in after and name.endswith(".json"):
        assert "silcrow" in json.loads(after)["mcpServers"]
    for line in text.splitlines(keepends=True):  # nothing of the user's was rewritten
        if "mcpServers" not in line:
            assert line in after, (line, after)
    assert "added by hand later" in after or "added by hand later" not in text
    removed = run(home, silcrow_home, "connect", client, "--remove", "--no-hooks")
    assert removed.returncode == 0, removed.stderr
    assert path.read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("inside", ["", " ", " /* none */ ", "\n    // later\n  "])
def test_insert_into_an_empty_object_keeps_what_it_held(inside: str) -> None:
    text = '{\n  "mcpServers": {' + inside + '},\n  "a": 1\n}\n'
    servers = jsonedit.find(text, ["mcpServers"])
    assert servers is not None
    added = jsonedit.insert(text, servers, {"command": "x"}, "silcrow")
    if inside.strip():
        assert inside.strip() in added
    again = jsonedit.find(added, ["mcpServers"])
    assert again is not None
    assert jsonedit.remove(added, again, 0) == text


@pytest.mark.parametrize(("client", "name"), [
    ("codex", ".codex/config.toml"), ("claude-code", ".claude.json"), ("cursor", ".cursor/mcp.json")])
def test_a_config_kept_behind_a_symbolic_link_is_changed_through_it(
        homes: tuple[Path, Path], tmp_path: Path, client: str, name: str) -> None:  # noqa: F811
    home, silcrow_home = homes
    dotfiles = tmp_path / "dotfiles" / name.replace("/", "_")
    dotfiles.parent.mkdir()
    text = 'model = "o3"\n' if name.endswith(".toml") else '{\n  "theme": "dark"\n}\n'
    dotfiles.write_text(text, encoding="utf-8")
    link = home / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(dotfiles)
    done = run(home, silcrow_home, "connect", client, "--no-hooks")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and "silcrow" in dotfiles.read_text(encoding="utf-8")
    removed = run(home, silcrow_home, "connect", client, "--remove", "--no-hooks")
    assert removed.returncode == 0, removed.stderr
    assert link.is_symlink() and dotfiles.read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("client", ["claude-code", "cursor"])
@pytest.mark.parametrize("blank", ["", "\n", "  \n\n"])
def test_an_empty_config_file_is_given_back_empty_not_deleted(
        homes: tuple[Path, Path], client: str, blank: str) -> None:  # noqa: F811
    home, silcrow_home = homes
    files = [home / ".claude.json", home / ".claude" / "settings.json"] if client == "claude-code" \
        else [home / ".cursor" / "mcp.json"]
    for path in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(blank, encoding="utf-8")
    assert run(home, silcrow_home, "connect", client).returncode == 0
    assert all("silcrow" in p.read_text(encoding="utf-8") for p in files)
    removed = run(home, silcrow_home, "connect", client, "--remove")
    assert removed.returncode == 0, removed.stderr
    assert [p.read_bytes() for p in files] == [blank.encode("utf-8")] * len(files)
    assert not (silcrow_home / "connect.json").exists()
