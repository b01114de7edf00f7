"""The ``silcrow`` command: one Typer app, one sub-app per command group."""

from __future__ import annotations

import sys

import typer

from silcrow.cli.common import AppState, OneLineErrorsGroup, console_err, run_app

app = typer.Typer(
    name="silcrow",
    cls=OneLineErrorsGroup,  # usage errors are one line, exit 2, for every command group
    help="Memory for LLM agents: curated notes, long-term recall, and an agent loop.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _root(
    ctx: typer.Context,
    home: str = typer.Option(
        None, "--home", help="silcrow home (default $SILCROW_HOME or ~/.silcrow)"
    ),
    profile: str = typer.Option(None, "--profile", help="use <home>/profiles/NAME"),
) -> None:
    ctx.obj = AppState(home=home, profile=profile)


def _register() -> None:
    # Each command group lives in its own module and adds itself to `app`.
    from silcrow.cli import memory  # noqa: F401

    for optional in ("recall", "providers", "chat", "sessions", "db"):
        try:
            __import__(f"silcrow.cli.{optional}")
        except ModuleNotFoundError as exc:
            if exc.name != f"silcrow.cli.{optional}":
                raise


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point; no traceback ever reaches the user."""
    _register()
    code = run_app(app, sys.argv[1:] if argv is None else argv)
    if code:
        console_err.file.flush()
    sys.exit(code)
