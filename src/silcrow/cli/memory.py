"""`silcrow memory ...` (placeholder until the curated-memory CLI lands)."""

from __future__ import annotations

import typer

from silcrow.cli.main import app

memory_app = typer.Typer(help="Curated notes: MEMORY.md and USER.md.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")
