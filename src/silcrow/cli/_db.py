"""`silcrow db migrate|status|import|export`: the shared PostgreSQL backend from a shell.

The database is the one the selected home is set to use (``[storage]`` in
its config.toml, or ``SILCROW_DATABASE_URL``), or the one ``--dsn`` names.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.text import Text

from silcrow._paths import validate_profile
from silcrow.cli._common import EXIT_USAGE, app_home, console, error
from silcrow.cli.main import app
from silcrow.config import ENV_VARS, locate
from silcrow.db import Database
from silcrow.errors import ConfigError, SilcrowError
from silcrow.home import open_profile

if TYPE_CHECKING:
    from silcrow.transfer import Counts

ENV = next(var for var, key in ENV_VARS.items() if key == "storage.dsn")

db_app = typer.Typer(
    help="Shared PostgreSQL storage: migrate the schema, import a home, export one back.",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")

_DSN = typer.Option(
    None, "--dsn", help=f"PostgreSQL DSN (default: ${ENV}, then [storage] dsn in config.toml)"
)
_JSON = typer.Option(False, "--json", help="print the result as JSON")


def _database(ctx: typer.Context, dsn: str | None) -> Database:
    home = app_home(ctx)
    url = open_profile(home, dsn=dsn).storage.dsn
    if url is None:
        raise error(
            f"no database is configured for {home}: give --dsn postgresql://..., set {ENV}, "
            'or put [storage] backend = "postgres" and dsn = "..." in its config.toml'
        )
    from silcrow import schema

    return schema.database(str(url))


def _profile_name(name: str | None) -> str | None:
    """A ``--profile-name`` that ``--profile`` could select; another one would strand the data."""
    if name is None:
        return None
    try:
        return validate_profile(name)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc)) from None


def _report(data: dict[str, Any], as_json: bool, line: str) -> None:
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        console.print(Text(line))


@db_app.command("migrate")
def migrate(ctx: typer.Context, dsn: str | None = _DSN, as_json: bool = _JSON) -> None:
    """Apply the schema migrations this silcrow needs (safe to run again, from any host)."""
    from silcrow import schema

    db = _database(ctx, dsn)
    try:
        done = schema.migrate(db)
    except SilcrowError as exc:
        raise error(str(exc)) from None
    data = {"database": db.where, "applied": done, "schema_version": schema.SCHEMA_VERSION}
    line = (f"applied migration(s) {', '.join(map(str, done))}" if done else "already up to date") + (
        f"; {db.where} is at schema version {schema.SCHEMA_VERSION}"
    )
    _report(data, as_json, line)


@db_app.command("status")
def status(ctx: typer.Context, dsn: str | None = _DSN, as_json: bool = _JSON) -> None:
    """Show the schema version and what the database holds; exit 1 when it needs `db migrate`."""
    from silcrow import schema
    from silcrow.db import applied

    db = _database(ctx, dsn)
    try:
        with db.connect() as conn:
            have = applied(conn)
        schema.check_schema(db)
    except SilcrowError as exc:
        raise error(str(exc)) from None
    data = {"database": db.where, "schema_version": max(v for v, _ in have), "migrations": have}
    _report(data, as_json, f"{db.where}: schema version {data['schema_version']}, up to date")


@db_app.command("import")
def import_(
    ctx: typer.Context,
    from_home: Path = typer.Option(..., "--from-home", help="the files home to load (e.g. ~/.silcrow)"),
    profile_name: str = typer.Option(
        None, "--profile-name", help="profile of the notes (default: the home's)", callback=_profile_name
    ),
    dsn: str | None = _DSN,
    as_json: bool = _JSON,
) -> None:
    """Load a files home (notes, journal, recall.db, sessions.db, langgraph.db) into the database."""
    from silcrow.transfer import import_home

    home = from_home.expanduser()
    profile = profile_name or locate(home)[1]
    try:
        validate_profile(profile)
    except ConfigError as exc:
        raise error(f"{exc}; give the profile to import it as with --profile-name", EXIT_USAGE) from None
    db, counts = _transfer(ctx, dsn, import_home, home, profile)
    data = {"database": db.where, "from_home": str(home), "profile": profile, **asdict(counts)}
    _report(data, as_json, f"imported {home} as profile {profile!r} into {db.where}: {_summary(counts)}")


@db_app.command("export")
def export(
    ctx: typer.Context,
    to_home: Path = typer.Option(..., "--to-home", help="a new or empty directory to write the home to"),
    profile_name: str = typer.Option("default", "--profile-name", help="profile of the notes to write",
                                      callback=_profile_name),
    dsn: str | None = _DSN,
    as_json: bool = _JSON,
) -> None:
    """Write the database's notes (of one profile), recall memories, sessions and LangGraph items as a
    files home."""
    from silcrow.transfer import export_home

    home = to_home.expanduser()
    db, counts = _transfer(ctx, dsn, export_home, home, profile_name)
    data = {"database": db.where, "to_home": str(home), "profile": profile_name, **asdict(counts)}
    _report(data, as_json, f"exported profile {profile_name!r} of {db.where} to {home}: {_summary(counts)}")


def _transfer(
    ctx: typer.Context,
    dsn: str | None,
    move: Callable[[Database, Path, str], Counts],
    home: Path,
    profile: str,
) -> tuple[Database, Counts]:
    db = _database(ctx, dsn)
    try:
        return db, move(db, home, profile)
    except SilcrowError as exc:
        raise error(str(exc)) from None


def _summary(counts: Any) -> str:
    return ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in asdict(counts).items())
