"""`silcrow connect CLIENT`: silcrow's MCP server (and Claude Code hooks) in a coding agent's config."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.text import Text

from silcrow._paths import resolve_home
from silcrow.cli._common import EXIT_USAGE, JSON_OPTION, app_home, console, error, guarded, print_json, state
from silcrow.cli.main import app

_CLIENT_HELP = "claude-code, codex or cursor"


@app.command("connect")
def connect(
    ctx: typer.Context,
    client: str = typer.Argument(..., metavar="CLIENT", help=_CLIENT_HELP),
    remove: bool = typer.Option(False, "--remove", help="take silcrow out of the client's config again"),
    dry_run: bool = typer.Option(False, "--dry-run", help="show the exact change as a diff; write nothing"),
    scope: str = typer.Option(
        "user", "--scope", help="user: the client's config in your home directory; project: the one in"
        " the current directory (.mcp.json and .claude/settings.json, or .cursor/mcp.json)",
    ),
    hooks: bool = typer.Option(True, "--hooks/--no-hooks", help="Claude Code: add (or remove) the hooks too"),
    hook: list[str] = typer.Option(
        None, "--hook", metavar="EVENT", help="Claude Code: only this hook (session-start,"
        " user-prompt-submit, pre-compact, session-end; repeatable); the MCP server is left as it is",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Add silcrow's MCP server (and for Claude Code its hooks) to a coding agent's own config,
    pointing at this home and profile; --remove undoes it."""
    from silcrow.integrations.coding import CLIENTS, HOOK_EVENTS, Target, apply, plan, silcrow_command

    if client not in CLIENTS:
        raise error(f"unknown client {client!r}; use {', '.join(CLIENTS)}", EXIT_USAGE)
    if scope not in ("user", "project"):
        raise error(f"--scope {scope!r}: use user or project", EXIT_USAGE)
    if scope == "project" and client == "codex":
        raise error("Codex keeps MCP servers only in its user config (~/.codex/config.toml); drop --scope",
                    EXIT_USAGE)
    unknown = [h for h in hook or () if h not in HOOK_EVENTS]
    if unknown:
        raise error(f"unknown hook {unknown[0]!r}; use {', '.join(HOOK_EVENTS)}", EXIT_USAGE)
    if hook and client != "claude-code":
        raise error("--hook is for claude-code: only Claude Code gets silcrow's hooks", EXIT_USAGE)
    root = state(ctx)
    base = resolve_home(root.home, None).absolute()
    target = Target(client=client, command=silcrow_command(base, root.profile), scope=scope,
                    hooks=tuple(hook) if hook else (tuple(HOOK_EVENTS) if hooks else ()))
    home = app_home(ctx)
    with guarded():
        changes = plan(target, remove=remove, state_home=home, mcp=not hook)
        backups = [] if dry_run else apply(changes, client=client, state_home=home, remove=remove)
    changed = [c for c in changes if c.changed]
    if as_json:
        print_json({"client": client, "remove": remove, "dry_run": dry_run,
                    "backups": [str(b) for b in backups],
                    "changes": [{"file": str(c.path), "writes": str(c.writes), "changed": c.changed,
                                 "what": c.what, "diff": c.diff()} for c in changes]})
        return
    if dry_run:
        for change in changed:  # the exact diff, written as it is (no wrapping, no markup)
            sys.stdout.write(change.diff())
        sys.stdout.flush()
        if not changed:
            console.print(Text(f"nothing to change: {client} is {'not ' if remove else ''}connected already"))
        return
    if not changed:
        verb = "has no silcrow entries" if remove else "is connected already"
        files = ", ".join(_short(c.path) for c in changes)
        console.print(Text(f"{client} {verb} ({files}); nothing changed"))
        return
    for change in changed:
        done = "deleted" if change.after is None else ("created" if change.before is None else "updated")
        through = f" (a link: the file changed is {change.writes})" if change.writes != change.path else ""
        console.print(Text(f"{done} {_short(change.path)}{through}: {'; '.join(change.what)}"))
    if backups:
        console.print(Text(f"backup{'s' if len(backups) > 1 else ''}: {', '.join(str(b) for b in backups)}"))
    if not remove:
        console.print(Text(f"restart {client} to load it; undo with `silcrow connect {client} --remove"
                           f"{' --scope project' if scope == 'project' else ''}`"))


def _short(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)
