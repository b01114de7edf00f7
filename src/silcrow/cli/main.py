"""The ``silcrow`` command: one Typer app, one sub-app per command group."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from silcrow.cli._common import AppState, OneLineErrorsGroup, console_err, run_app

__all__ = [
    "main",
]

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
    # Resolved here, once, so a bad --home/--profile is the same usage error for every command.
    ctx.obj = AppState.resolve(home, profile)


GROUPS = ("memory", "recall", "providers", "chat", "sessions", "hermes", "mcp", "serve", "tokens", "db",
          "connect", "hook")


def _register(argv: Sequence[str] = ()) -> None:
    """Import the command groups; each lives in its own module and adds itself to `app`.

    When the command line names one group, only that one is imported: the others pull in
    recall, the agent or the safety tables, and a quick `silcrow memory show` should not
    pay for them. Help, a bad name or no group at all imports every group.
    """
    group = _group(argv)
    wanted = group if group in GROUPS and "--help" not in argv else None
    for group in (wanted,) if wanted else GROUPS:
        try:
            __import__(f"silcrow.cli._{group}")
        except ModuleNotFoundError as exc:
            if exc.name != f"silcrow.cli._{group}":
                raise


def _group(argv: Sequence[str]) -> str | None:
    """The command group the command line names (its first word that is not an option)."""
    words = [a for a in argv if not a.startswith("-")]
    # --home/--profile take a value: skip it to find the group name.
    for flag in ("--home", "--profile"):
        if flag in argv[:-1]:
            value = argv[argv.index(flag) + 1]
            if value in words:
                words.remove(value)
    return words[0] if words else None


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point; no traceback ever reaches the user."""
    args = sys.argv[1:] if argv is None else argv
    _register(args)
    code = run_app(app, args)
    if code and _group(args) == "hook":
        # Claude Code reads exit 2 from a hook as "block": a bad --home must never stop a prompt.
        # The error line is on stderr already.
        code = 0
    if code:
        console_err.file.flush()
    sys.exit(code)
