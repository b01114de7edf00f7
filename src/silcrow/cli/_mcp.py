"""`silcrow mcp`: serve one home's memory to an MCP client over stdio."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from silcrow._paths import resolve_home
from silcrow.cli._common import state
from silcrow.cli.main import app
from silcrow.errors import ConfigError

_HOME_HELP = "silcrow home (default: the global --home, $SILCROW_HOME or ~/.silcrow)"
_PROFILE_HELP = "serve <home>/profiles/NAME (default: the global --profile)"


def served_home(ctx: typer.Context, home: str | None, profile: str | None) -> Path:
    """The home a serving command works on: its own options first, then the global ones."""
    root = state(ctx)
    try:
        return resolve_home(home or root.home, profile or root.profile).absolute()
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--profile'") from None


def served_project(given: str | None) -> Path | None:
    """The project root ``--project DIR`` names (checked as a server checks a client's), else
    the one holding the current directory (None outside any git work tree)."""
    from silcrow._projects import find_project
    from silcrow.serve import ProjectRefused, project_of

    if given is None:
        return find_project(Path.cwd())
    try:
        return project_of(os.path.abspath(os.path.expanduser(given)), where="--project")
    except ProjectRefused as exc:
        raise typer.BadParameter(str(exc), param_hint="'--project'") from None


# What a refusal of target "project" tells a client of `silcrow mcp` started outside any work tree
# (a header means nothing on stdio).
STDIO_NO_PROJECT = ("this server (`silcrow mcp`) was started outside any git work tree",
                    "start it inside one, or add --project DIR to its command in the client's MCP settings")


@app.command("mcp")
def mcp(
    ctx: typer.Context,
    home: str = typer.Option(None, "--home", help=_HOME_HELP),
    profile: str = typer.Option(None, "--profile", help=_PROFILE_HELP),
    project: str = typer.Option(None, "--project", metavar="DIR",
                                help="serve the notes of the project (git work tree) holding DIR too "
                                "(default: the one holding the current directory, if any)"),
) -> None:
    """Serve memory over MCP on stdin/stdout (for Claude Code, Claude Desktop, Cursor, ...)."""
    from silcrow.serve import require_server_stack

    require_server_stack("silcrow mcp")
    import anyio

    from silcrow.serve import open_tenant, run_stdio, stdio_server

    root = served_project(project)
    tenant = open_tenant(served_home(ctx, home, profile), no_project=STDIO_NO_PROJECT).at(root)
    try:
        if root is not None:  # a client's session starts here: the project's notes are in use
            tenant.notes().note_session_start()
        # uvloop where it is installed: every message crosses the event loop several times.
        anyio.run(run_stdio, stdio_server(tenant), backend_options={"use_uvloop": _has_uvloop()})
    finally:
        tenant.close()


def _has_uvloop() -> bool:
    import importlib.util

    return importlib.util.find_spec("uvloop") is not None
