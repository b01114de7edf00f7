"""`silcrow providers`: every installed recall provider, whether it can run, and why not."""

from __future__ import annotations

import json
import sys

import typer
from rich.table import Table
from rich.text import Text

from silcrow.cli.common import console, state
from silcrow.cli.main import app
from silcrow.config import load_settings
from silcrow.errors import ConfigError
from silcrow.recall import ENTRY_POINT_GROUP, available_providers


@app.command("providers")
def providers(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="print the list as JSON"),
) -> None:
    """List recall providers (entry points `silcrow.providers`) and which one is selected."""
    try:
        home = state(ctx).resolved_home()
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--profile'") from None
    selected = load_settings(home).provider
    # Providers get the home so none of them looks at (or creates) the default one.
    rows = available_providers(home=home)
    if as_json:
        data = [{"name": n, "available": ok, "reason": why, "selected": n == selected} for n, ok, why in rows]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    table = Table(title=f"recall providers (entry-point group {ENTRY_POINT_GROUP})")
    table.add_column("name", style="bold cyan")
    table.add_column("available")
    table.add_column("selected")
    table.add_column("why not", overflow="fold")
    for name, ok, why in rows:
        table.add_row(
            name, Text("yes", style="green") if ok else Text("no", style="red"),
            "✓" if name == selected else "", Text(why),
        )
    console.print(table)
    if selected not in {name for name, _, _ in rows}:
        console.print(Text(
            f"the configured provider {selected!r} (`provider` in {home}/config.toml, SILCROW_PROVIDER "
            "or --provider) is not installed", style="yellow",
        ))
