"""`silcrow providers`: every installed recall provider, whether it can run, and why not."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from silcrow.cli.common import JSON_OPTION, app_home, app_settings, console, print_json
from silcrow.cli.main import app
from silcrow.errors import SilcrowError
from silcrow.recall import ENTRY_POINT_GROUP, available_providers


@app.command("providers")
def providers(
    ctx: typer.Context,
    as_json: bool = JSON_OPTION,
) -> None:
    """List recall providers (entry points `silcrow.providers`) and which one is selected."""
    home, settings = app_home(ctx), app_settings(ctx)
    selected = settings.provider
    # Providers get what `silcrow chat` gives them: the home (so none of them looks at, or
    # creates, the default one) and the configured embedder, so an embedder that cannot run
    # here shows as the reason rather than as "yes" followed by a failing `recall ingest`.
    kwargs: dict[str, Any] = {"home": home}
    embedder_error = ""
    try:
        kwargs["embedder"] = settings.embedder_spec()
    except SilcrowError as exc:  # e.g. embedder_model/embedder_url the backend refuses
        embedder_error = f"the configured embedder {settings.embedder!r} cannot be built: {exc}"
    rows = available_providers(**kwargs)
    if embedder_error:
        rows = [(n, False, embedder_error) if n == "local" else (n, ok, why) for n, ok, why in rows]
    if as_json:
        data = [{"name": n, "available": ok, "reason": why, "selected": n == selected} for n, ok, why in rows]
        print_json(data)
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
