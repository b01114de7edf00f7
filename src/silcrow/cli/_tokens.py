"""`silcrow tokens create|list|revoke`: bearer tokens for `silcrow serve`, one profile each."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer
from rich.table import Table
from rich.text import Text

from silcrow._paths import resolve_home
from silcrow.cli._common import console, console_err, error, state
from silcrow.cli.main import app
from silcrow.errors import ConfigError

tokens_app = typer.Typer(help="API tokens for `silcrow serve` (stored hashed in <home>/tokens.json).",
                         no_args_is_help=True)
app.add_typer(tokens_app, name="tokens")


class Scope(StrEnum):
    read = "read"
    write = "write"
    review = "review"


def _home(ctx: typer.Context, home: str | None) -> str:
    return str(resolve_home(home or state(ctx).home).absolute())


@tokens_app.command("create")
def create(
    ctx: typer.Context,
    profile: str = typer.Option(None, "--profile", help="the profile this token reaches (default: the "
                                "global --profile, else the home itself)"),
    scope: Scope = typer.Option(Scope.write, "--scope", help="read: look only; write: also change memory "
                                "(held for approval with write_policy = \"approve\"); review: also approve "
                                "and reject proposals and edit in the inspector (a person's: never give it "
                                "to a model)"),
    name: str = typer.Option(None, "--name", help="a label to find it by (default token-<id>)"),
    home: str = typer.Option(None, "--home", help="silcrow home (default: the global --home)"),
    project: list[str] = typer.Option(None, "--project", metavar="DIR",
                                      help="the only project (git work tree holding DIR) its requests "
                                      "may name in X-Silcrow-Project; repeatable (default: any)"),
) -> None:
    """Make a token and print it once (only its hash is stored)."""
    from pathlib import Path

    from silcrow.serve import create_token

    try:
        secret, record = create_token(Path(_home(ctx, home)), profile=profile or state(ctx).profile,
                                      scope=scope.value, name=name, projects=project or None)
    except ConfigError as exc:
        raise error(str(exc)) from None
    sys.stdout.write(secret + "\n")
    sys.stdout.flush()
    note = (" It can approve the model's proposals: keep it for a person, never give it to a model."
            if record.scope == "review" else "")
    where = f", in project {', '.join(record.projects)} only" if record.projects else ""
    console_err.print(Text(f"token {record.name} ({record.id}): {record.scope} access to profile "
                           f"{record.profile or '(default)'}{where}. It is shown only now: keep it somewhere "
                           "safe." + note, style="dim"), soft_wrap=True, highlight=False)


@tokens_app.command("list")
def list_(
    ctx: typer.Context,
    home: str = typer.Option(None, "--home", help="silcrow home (default: the global --home)"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable output"),
) -> None:
    """List tokens (never the secrets)."""
    from pathlib import Path

    from silcrow.serve import list_tokens, printable

    try:
        records = list_tokens(Path(_home(ctx, home)))
    except ConfigError as exc:
        raise error(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps([r.public() for r in records], indent=2) + "\n")
        return
    if not records:
        console.print(Text("no tokens yet: create one with `silcrow tokens create --profile NAME`",
                           style="dim"))
        return
    table = Table()
    for column in ("id", "name", "profile", "scope", "projects", "created (UTC)", "expires (UTC)"):
        table.add_column(column)
    for r in records:
        expires = (r.expires_at or "never") + (" (expired)" if r.expired() else "")
        projects = "any" if r.projects is None else ", ".join(r.projects)
        # a name (or anything) written into tokens.json by hand must not drive the terminal
        table.add_row(*(Text(printable(v)) for v in (r.id, r.name, r.profile or "(default)", r.scope,
                                                     projects, r.created_at, expires)))
    console.print(table)


@tokens_app.command("revoke")
def revoke(
    ctx: typer.Context,
    token: str = typer.Argument(..., metavar="ID_OR_NAME", help="the id or name from `silcrow tokens list`"),
    home: str = typer.Option(None, "--home", help="silcrow home (default: the global --home)"),
) -> None:
    """Revoke a token; a running server refuses it from its next request."""
    from pathlib import Path

    from silcrow.serve import printable, revoke_token

    try:
        record = revoke_token(Path(_home(ctx, home)), token)
    except ConfigError as exc:
        raise error(str(exc)) from None
    console.print(Text(f"revoked token {printable(record.name)} ({record.id})"), highlight=False)
