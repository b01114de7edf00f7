"""``silcrow connect``: silcrow's MCP server (and Claude Code hooks) in a coding agent's own config.

Each client keeps its MCP servers in a file of its own:

- **Claude Code**: user scope in ``~/.claude.json`` (top-level ``mcpServers``), project scope
  in ``<project>/.mcp.json``; hooks in ``~/.claude/settings.json`` or
  ``<project>/.claude/settings.json`` (``hooks.<Event>``: a list of matcher groups, each with
  ``{"type": "command", "command", "timeout"}`` hooks). The server entry has the shape
  ``claude mcp add`` writes: ``{"type": "stdio", "command", "args", "env"}``.
- **Codex CLI**: ``~/.codex/config.toml`` (``$CODEX_HOME``), a ``[mcp_servers.silcrow]`` table
  with ``command`` and ``args``, as ``codex mcp add`` writes it.
- **Cursor**: ``~/.cursor/mcp.json`` or ``<project>/.cursor/mcp.json``, ``mcpServers``.

Only silcrow's own entries are touched: JSON is edited as text (:mod:`._jsonedit`) and TOML is
appended to and cut from as text, checked with tomlkit, so comments, order and formatting stay.
Before a file that exists is changed, a copy goes to ``<home>/backups/connect/``. What connect
created (a file, an ``mcpServers`` object, a hook list) is noted in ``<home>/connect.json`` so
that ``--remove`` takes out exactly that and leaves the file as it was, byte for byte.

A user's config kept behind a symbolic link (a dotfiles repository) is changed through it, and
every diff names the file the write lands in. In project scope a link is never followed: a
cloned repository may carry ``.mcp.json`` or ``.claude`` as a link to anywhere (``~/.claude``, a
path that does not exist yet), so a link on the way from the project to a config is refused,
naming the link and where it points, before anything is read or written.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from silcrow._atomic import replace_file
from silcrow._private import private_dir, write_private
from silcrow.errors import ConnectError
from silcrow.integrations.coding import _jsonedit as jsonedit

__all__ = ["CLIENTS", "Change", "HOOK_EVENTS", "Target", "apply", "plan", "silcrow_command"]

CLAUDE_CODE, CODEX, CURSOR = "claude-code", "codex", "cursor"
CLIENTS = (CLAUDE_CODE, CODEX, CURSOR)
SERVER_NAME = "silcrow"
CODEX_STARTUP_TIMEOUT = 30
#: The Claude Code hook events silcrow handles: its CLI name -> (Claude Code's event, timeout in s).
HOOK_EVENTS: dict[str, tuple[str, int]] = {
    "session-start": ("SessionStart", 30),
    "user-prompt-submit": ("UserPromptSubmit", 30),
    "pre-compact": ("PreCompact", 120),
    "session-end": ("SessionEnd", 120),
}
_STATE = "connect.json"


@dataclass
class Change:
    """One file ``connect`` would change: its text before and after (None: no such file)."""

    path: Path
    before: str | None
    after: str | None
    what: list[str] = field(default_factory=list)  # what changes, in words
    created: list[list[str]] = field(default_factory=list)  # containers connect adds (JSON paths)
    shared: bool = False  # a project's file, meant to be committed: created 0644 (a user's: 0600)
    dirs: list[Path] = field(default_factory=list)  # directories made for it (by apply)
    blank: str | None = None  # what an existing file held that had no JSON in it (spaces, nothing)
    confined: Path | None = None  # the project it must stay in, no link on the way (project scope)

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def writes(self) -> Path:
        """The file the change lands in: the path itself, or the file its symbolic link names."""
        return Path(os.path.realpath(self.path)) if self.path.is_symlink() else self.path

    def diff(self) -> str:
        """The exact change as a unified diff (empty when nothing changes)."""
        old = [] if self.before is None else self.before.splitlines(keepends=True)
        new = [] if self.after is None else self.after.splitlines(keepends=True)
        name = str(self.writes)
        lines = difflib.unified_diff(old, new, fromfile=name if self.before is not None else "/dev/null",
                                     tofile=name if self.after is not None else "/dev/null")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                       for line in lines)


@dataclass(frozen=True)
class Target:
    """Where one client's config lives and what silcrow puts there."""

    client: str
    command: tuple[str, ...]  # how to run silcrow, with --home (and --profile)
    scope: str = "user"  # "user" or "project"
    project: Path = field(default_factory=Path.cwd)
    user_home: Path = field(default_factory=Path.home)
    hooks: tuple[str, ...] = tuple(HOOK_EVENTS)  # the Claude Code hooks to add or remove

    def mcp_file(self) -> Path:
        if self.client == CLAUDE_CODE:
            return self.project / ".mcp.json" if self.scope == "project" else self.user_home / ".claude.json"
        if self.client == CODEX:
            codex_home = os.environ.get("CODEX_HOME")
            base = Path(codex_home).expanduser() if codex_home else self.user_home / ".codex"
            return base / "config.toml"
        if self.client == CURSOR:
            base = self.project if self.scope == "project" else self.user_home
            return base / ".cursor" / "mcp.json"
        raise ConnectError(f"unknown client {self.client!r}; use one of {', '.join(CLIENTS)}")

    def settings_file(self) -> Path:
        base = self.project if self.scope == "project" else self.user_home
        return base / ".claude" / "settings.json"

    def server(self) -> dict[str, Any]:
        server: dict[str, Any] = {"command": self.command[0], "args": list(self.command[1:]) + ["mcp"]}
        if self.client == CODEX:
            # Codex gives a server 10 s to start by default; silcrow's first start on a busy machine
            # (Python, the MCP SDK, the home's stores) can take longer.
            server["startup_timeout_sec"] = CODEX_STARTUP_TIMEOUT
        return server

    def hook_command(self, event: str) -> str:
        return shlex.join([*self.command, "hook", event])


def silcrow_command(home: Path, profile: str | None) -> tuple[str, ...]:
    """How a client starts this silcrow for ``home`` (and ``profile``): the ``silcrow`` script of
    this installation by its absolute path, so the client needs no PATH and gets this version."""
    script = Path(sys.executable).parent / "silcrow"
    run_main = "from silcrow.cli.main import main; main()"
    exe = [str(script)] if script.is_file() else [sys.executable, "-c", run_main]
    args = [*exe, "--home", str(home.absolute())]
    if profile:
        args += ["--profile", profile]
    return tuple(args)


# -- planning ----------------------------------------------------------------------------------


def plan(target: Target, *, remove: bool, state_home: Path, mcp: bool = True) -> list[Change]:
    """The changes ``connect`` (or ``--remove``) makes to ``target``'s files; nothing is written."""
    state = _load_state(state_home)
    changes: list[Change] = []
    confined = target.project if target.scope == "project" else None
    for wanted in ([target.mcp_file()] if mcp else []) + \
            ([target.settings_file()] if target.client == CLAUDE_CODE and target.hooks else []):
        if confined is not None:
            _check_no_link(confined, wanted)
    if mcp:
        path = target.mcp_file()
        before = _read(path)
        if target.client == CODEX:
            change = _toml_change(path, before, target, remove, state.get(str(path), {}))
        else:
            change = _json_server_change(path, before, target, remove, state.get(str(path), {}))
        changes.append(change)
    if target.client == CLAUDE_CODE and target.hooks:
        path = target.settings_file()
        changes.append(_hooks_change(path, _read(path), target, remove, state.get(str(path), {})))
    for change in changes:
        change.shared = target.scope == "project" and change.path.name != "settings.json"
        change.confined = confined
    return changes


def _check_no_link(project: Path, path: Path) -> None:
    """Refuse ``path`` when it, or a directory on the way to it from ``project``, is a symbolic
    link: a repository's link would send the write outside the project."""
    current = project
    for part in path.relative_to(project).parts:
        current = current / part
        if not current.is_symlink():
            if not current.exists():
                return  # nothing below a missing directory can be a link yet
            continue
        points = os.readlink(current)
        lands = os.path.realpath(path)
        kind = "directory" if part != path.name else "file"
        raise ConnectError(
            f"{current} is a symbolic link to {points}, so the change to {path} would be written to "
            f"{lands}, outside what this project holds; in project scope connect follows no link (a "
            f"cloned repository can carry one). Replace the link with a real {kind}, or connect in "
            "your user config (drop --scope project); nothing was changed")


def _read(path: Path) -> str | None:
    try:
        # Bytes decoded as they are: read_text would turn CRLF line ends into LF, and the file
        # written back (and the one --remove leaves) would no longer be the user's bytes.
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise ConnectError(f"{path} is not UTF-8 text ({exc}); fix or move it, then try again") from exc
    except OSError as exc:
        raise ConnectError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _refused(problem: str) -> ConnectError:
    return ConnectError(f"{problem}; fix it by hand, nothing was changed")


def _parsed(path: Path, text: str) -> jsonedit.Node:
    try:
        root = jsonedit.parse(text)
    except jsonedit.TooDeep as exc:
        raise _refused(f"{path} is deeper than silcrow edits: {exc}") from exc
    except ValueError as exc:
        raise _refused(f"{path} is not valid JSON ({exc})") from exc
    if root.kind != "object":
        raise _refused(f"{path} holds a JSON {root.kind}, not an object")
    return root


def _ensure(path: Path, text: str | None, keys: list[str], leaf: str, value: Any,
            created: list[list[str]]) -> str:
    """``text`` with ``value`` under ``keys`` + [``leaf``], adding missing objects (noted in
    ``created``); an existing ``leaf`` is replaced."""
    if text is None or not text.strip():
        created.append([])  # the whole file
        doc: dict[str, Any] = {}
        cursor = doc
        for depth, key in enumerate(keys):
            cursor = cursor.setdefault(key, {})
            created.append(keys[:depth + 1])
        cursor[leaf] = value
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    node = _parsed(path, text)
    for depth, key in enumerate(keys):
        member = node.get(key)
        if member is None:
            nested: Any = {leaf: value}
            for inner in reversed(keys[depth + 1:]):
                nested = {inner: nested}
            created.extend(keys[:d + 1] for d in range(depth, len(keys)))
            return jsonedit.insert(text, node, nested, key)
        if member.value.kind != "object":
            raise ConnectError(f"'{'.'.join(keys[:depth + 1])}' in {path} is not a JSON object; "
                               "fix it by hand, nothing was changed")
        node = member.value
    existing = node.get(leaf)
    if existing is None:
        return jsonedit.insert(text, node, value, leaf)
    if jsonedit.value_of(text, existing.value) == value:
        return text
    return jsonedit.replace(text, existing.value, value)


def _shown(server: dict[str, Any]) -> str:
    return shlex.join([server["command"], *server["args"]])


def _prune(path: Path, text: str, created: list[list[str]], blank: str | None = None) -> str | None:
    """``text`` without the containers connect created that are empty now; when connect wrote
    the whole file and nothing else is left in it, what the file held before (``blank``: an
    empty file kept), else None (connect created it)."""
    for keys in sorted((k for k in created if k), key=len, reverse=True):
        parent = jsonedit.find(text, keys[:-1])
        if parent is None or parent.kind != "object":
            continue
        index = next((i for i, m in enumerate(parent.members) if m.key == keys[-1]), None)
        if index is None:
            continue
        value = parent.members[index].value
        if value.kind in ("object", "array") and not value.members:
            text = jsonedit.remove(text, parent, index)
    if [] in created:
        root = _parsed(path, text)
        if not root.members:
            return blank
    return text


def _json_server_change(path: Path, before: str | None, target: Target, remove: bool,
                        state: dict[str, Any]) -> Change:
    change = Change(path, before, before)
    entry = target.server()
    if target.client == CLAUDE_CODE:  # the shape `claude mcp add` writes
        entry = {"type": "stdio", **entry, "env": {}}
    if not remove:
        created: list[list[str]] = []
        change.after = _ensure(path, before, ["mcpServers"], SERVER_NAME, entry, created)
        change.created = created
        if before is not None and not before.strip():
            change.blank = before
        if change.changed:
            change.what.append(f"MCP server '{SERVER_NAME}': {_shown(entry)}")
        return change
    if before is None:
        return change
    _parsed(path, before)
    servers = jsonedit.find(before, ["mcpServers"])
    if servers is None or servers.kind != "object":
        return change
    index = next((i for i, m in enumerate(servers.members) if m.key == SERVER_NAME), None)
    if index is None:
        return change
    change.after = _prune(path, jsonedit.remove(before, servers, index), state.get("created", []),
                          state.get("blank"))
    change.what.append(f"MCP server '{SERVER_NAME}' removed")
    return change


def _hooks_change(path: Path, before: str | None, target: Target, remove: bool,
                  state: dict[str, Any]) -> Change:
    change = Change(path, before, before)
    text = before
    if text is not None and text.strip():
        _parsed(path, text)  # refused here, before any edit, if it is not a JSON object
    created: list[list[str]] = []
    for name in target.hooks:
        event, timeout = HOOK_EVENTS[name]
        ours = target.hook_command(name)
        group = {"hooks": [{"type": "command", "command": ours, "timeout": timeout}]}
        groups = jsonedit.find(text, ["hooks", event]) if text is not None and text.strip() else None
        if groups is not None and groups.kind != "array":
            raise _refused(f"'hooks.{event}' in {path} is not a list")
        mine = [i for i, m in enumerate(groups.members) if _is_our_group(text or "", m.value, name)] \
            if groups is not None else []
        if remove:
            for index in reversed(mine):
                assert text is not None
                fresh = jsonedit.find(text, ["hooks", event])
                assert fresh is not None
                text = jsonedit.remove(text, fresh, index)
            if mine:
                change.what.append(f"hook {event} removed")
            continue
        if groups is not None and len(mine) == 1 and \
                jsonedit.value_of(text or "", groups.members[mine[0]].value) == group:
            continue  # already there
        for index in reversed(mine):  # an older silcrow hook (another home): replaced
            assert text is not None
            fresh = jsonedit.find(text, ["hooks", event])
            assert fresh is not None
            text = jsonedit.remove(text, fresh, index)
        if text is None or not text.strip():
            created.append([])
            text = json.dumps({"hooks": {event: [group]}}, indent=2) + "\n"
            created += [["hooks"], ["hooks", event]]
        else:
            root = _parsed(path, text)
            hooks = root.get("hooks")
            if hooks is None:
                text = jsonedit.insert(text, root, {event: [group]}, "hooks")
                created += [["hooks"], ["hooks", event]]
            elif hooks.value.kind != "object":
                raise _refused(f"'hooks' in {path} is not a JSON object")
            elif (existing := hooks.value.get(event)) is None:
                text = jsonedit.insert(text, hooks.value, [group], event)
                created.append(["hooks", event])
            else:
                text = jsonedit.insert(text, existing.value, group)
        change.what.append(f"hook {event}: {ours}")
    if remove and text is not None and text != before:
        text = _prune(path, text, state.get("created", []), state.get("blank"))
    change.after = text
    change.created = created
    if not remove and before is not None and not before.strip():
        change.blank = before
    return change


def _is_our_group(text: str, node: jsonedit.Node, name: str) -> bool:
    """A matcher group that holds only silcrow's hook for ``name`` (any home)."""
    value = jsonedit.value_of(text, node)
    hooks = value.get("hooks") if isinstance(value, dict) else None
    if not isinstance(hooks, list) or len(hooks) != 1 or not isinstance(hooks[0], dict):
        return False
    # silcrow's hook command, whatever home or installation it names: "<...silcrow...> hook EVENT"
    command = str(hooks[0].get("command", ""))
    return "silcrow" in command and command.split()[-2:] == ["hook", name]


# -- Codex: TOML -------------------------------------------------------------------------------


def _toml_block(server: dict[str, Any]) -> str:
    import tomlkit

    return tomlkit.dumps({"mcp_servers": {SERVER_NAME: server}})


def _toml_doc(path: Path, text: str) -> Any:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        return tomlkit.parse(text)
    except TOMLKitError as exc:
        raise _refused(f"{path} is not valid TOML ({exc})") from exc


def _toml_change(path: Path, before: str | None, target: Target, remove: bool,
                 state: dict[str, Any]) -> Change:
    change = Change(path, before, before)
    text = before or ""
    doc = _toml_doc(path, text)
    servers = doc.get("mcp_servers")
    current = servers.get(SERVER_NAME) if hasattr(servers, "get") else None
    if servers is not None and not hasattr(servers, "get"):
        raise _refused(f"'mcp_servers' in {path} is not a table")
    if remove:
        if current is None:
            return change
        change.after = _cut_toml(path, text, current.unwrap())
        if change.after == "" and [] in state.get("created", []):
            change.after = None  # connect made the file: remove takes it away again
        change.what.append(f"MCP server '{SERVER_NAME}' removed")
        return change
    wanted = target.server()
    if current is not None and current.unwrap() == wanted:
        return change
    if current is not None:
        text = _cut_toml(path, text, current.unwrap())
        doc = _toml_doc(path, text)
        servers = doc.get("mcp_servers")
    if servers is not None and getattr(servers, "is_inline_table", lambda: False)() \
            or type(servers).__name__ == "InlineTable":
        raise ConnectError(f"'mcp_servers' in {path} is an inline table; write it as [mcp_servers.NAME] "
                           "tables, or add silcrow to it by hand")
    block = _toml_block(wanted)
    if before is None:
        change.created.append([])
    # One newline before the block, always: a blank line after a file that ends in a newline, a
    # line break after one that does not. Cutting "\n" + block gives back the very same bytes.
    after = text + "\n" + block if text else block
    check = _toml_doc(path, after).get("mcp_servers", {}).get(SERVER_NAME)
    if check is None or check.unwrap() != wanted:
        raise ConnectError(f"could not add [mcp_servers.{SERVER_NAME}] to {path} safely; add it by hand")
    change.after = after
    change.what.append(f"MCP server '{SERVER_NAME}': {_shown(wanted)}")
    return change


def _cut_toml(path: Path, text: str, server: dict[str, Any]) -> str:
    """``text`` without silcrow's ``[mcp_servers.silcrow]`` block: the exact inverse of appending
    it where it is found as connect wrote it, else through tomlkit."""
    block = _toml_block(server)
    if text == block:
        return ""
    at = text.find("\n" + block)
    if at >= 0 and (at + 1 + len(block) == len(text) or text[at + 1 + len(block)] == "["):
        return text[:at] + text[at + 1 + len(block):]
    import tomlkit

    doc = _toml_doc(path, text)
    del doc["mcp_servers"][SERVER_NAME]
    if not doc["mcp_servers"]:
        del doc["mcp_servers"]
    return tomlkit.dumps(doc)


# -- writing -----------------------------------------------------------------------------------


def apply(changes: Sequence[Change], *, client: str, state_home: Path, remove: bool) -> list[Path]:
    """Write ``changes`` (each file atomically, an existing one backed up first); returns the backups."""
    state = _load_state(state_home)
    backups: list[Path] = []
    for change in changes:  # checked again: a link may have appeared since plan() read the files
        if change.confined is not None and change.changed:
            _check_no_link(change.confined, change.path)
    for change in changes:
        if not change.changed:
            continue
        key = str(change.path)
        if change.before is not None:
            backups.append(_backup(change.path, change.before, client, state_home))
        if change.after is None:
            change.path.unlink()
            for folder in state.get(key, {}).get("dirs", []):  # deepest first, each only if empty
                with contextlib.suppress(OSError):
                    Path(folder).rmdir()
        else:
            # Through a symbolic link (a config kept in a dotfiles repository): the file it points
            # at is changed, the link stays.
            real = change.writes
            mode = _mode(real, change.shared)
            change.dirs = _make_parents(real.parent)
            replace_file(real, change.after, mode=mode)
        if remove:
            entry = state.get(key, {})
            left = [k for k in entry.get("created", []) if _still_there(change.after, k)]
            if left and change.after is not None:
                state[key] = {**entry, "created": left}
            else:
                state.pop(key, None)
        else:
            entry = state.get(key, {"created": []})
            entry["created"] = [*entry.get("created", []), *(k for k in change.created
                                                              if k not in entry.get("created", []))]
            if change.dirs:
                entry["dirs"] = [str(d) for d in change.dirs]
            if change.blank is not None:
                entry["blank"] = change.blank
            state[key] = entry
    _save_state(state_home, state)
    return backups


def _make_parents(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; returns the ones made, deepest first."""
    made: list[Path] = []
    level = folder
    while not level.exists():
        made.append(level)
        level = level.parent
    folder.mkdir(parents=True, exist_ok=True)
    return made


def _still_there(text: str | None, keys: list[str]) -> bool:
    if text is None:
        return False
    if not keys:
        return bool(text.strip())  # a file given back empty is the user's again
    try:
        return jsonedit.find(text, keys) is not None
    except ValueError:  # TOML: only the file itself is noted
        return False


def _mode(path: Path, shared: bool) -> int:
    """The file's own mode when it exists; a new one is private unless it is a project's."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o644 if shared else 0o600


def _backup(path: Path, text: str, client: str, state_home: Path) -> Path:
    folder = private_dir(state_home / "backups" / "connect", home=state_home)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    name = f"{stamp}-{client}-{path.name.lstrip('.')}"
    target, n = folder / name, 1
    while target.exists():
        n += 1
        target = folder / f"{name}.{n}"
    write_private(target, text.encode("utf-8"))
    return target


def _load_state(home: Path) -> dict[str, Any]:
    try:
        data = json.loads((home / _STATE).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_state(home: Path, state: dict[str, Any]) -> None:
    private_dir(home)
    if not state:
        (home / _STATE).unlink(missing_ok=True)
        return
    replace_file(home / _STATE, json.dumps(state, indent=2, sort_keys=True) + "\n")
