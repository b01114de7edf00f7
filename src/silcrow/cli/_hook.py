"""`silcrow hook EVENT`: what Claude Code runs for silcrow's hooks (installed by `silcrow connect`).

It reads the hook's JSON on stdin and always exits 0: a failure is one line on stderr, never a
blocked prompt.
"""

from __future__ import annotations

import sys

import typer

from silcrow.cli._common import app_home
from silcrow.cli.main import app


@app.command("hook", hidden=False)
def hook(
    ctx: typer.Context,
    event: str = typer.Argument(..., metavar="EVENT",
                                help="session-start, user-prompt-submit, pre-compact or session-end"),
) -> None:
    """Run one of silcrow's Claude Code hooks on the hook JSON read from stdin (exit 0 always)."""
    from silcrow.integrations.coding import run_hook

    try:
        result = run_hook(event, sys.stdin.buffer, app_home(ctx))  # read there, bounded
    except Exception as exc:  # the last guard: a hook must not fail the prompt
        sys.stderr.write(f"silcrow: {event} hook failed: {type(exc).__name__}: {exc}\n")
        sys.stderr.flush()
        raise typer.Exit(0) from None
    if result.stdout:
        sys.stdout.write(result.stdout + "\n")
        sys.stdout.flush()
    if result.message:
        sys.stderr.write(result.message + "\n")
        sys.stderr.flush()
