"""`silcrow providers`: every recall provider, whether it can run and why not; `check NAME` tries one."""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

import typer
from rich.table import Table
from rich.text import Text

from silcrow.cli._common import (
    JSON_OPTION,
    app_home,
    app_profile,
    app_settings,
    console,
    error,
    guarded,
    print_json,
)
from silcrow.cli.main import app
from silcrow.config import Settings
from silcrow.errors import SilcrowError
from silcrow.recall import ENTRY_POINT_GROUP, available_providers, load_provider, round_trip

T = TypeVar("T")

providers_app = typer.Typer(
    help="List recall providers (entry points `silcrow.providers`) and which one is selected; "
    "`check NAME` makes one real round trip.",
    invoke_without_command=True,
)
app.add_typer(providers_app, name="providers")


def _provider_kwargs(ctx: typer.Context) -> tuple[dict[str, Any], str]:
    """What `silcrow chat` gives providers: the home (so none of them looks at, or creates, the
    default one) and the configured embedder; an embedder that cannot be built is the reason."""
    settings: Settings = app_settings(ctx)
    kwargs: dict[str, Any] = {"home": app_home(ctx)}
    try:
        kwargs["embedder"] = settings.embedder_spec()
    except SilcrowError as exc:  # e.g. embedder_model/embedder_url the backend refuses
        return kwargs, f"the configured embedder {settings.embedder!r} cannot be built: {exc}"
    return kwargs, ""


@providers_app.callback()
def providers(
    ctx: typer.Context,
    as_json: bool = JSON_OPTION,
) -> None:
    """List recall providers and which are selected (see also `silcrow providers check NAME`)."""
    if ctx.invoked_subcommand is not None:
        return
    home, selected = app_home(ctx), app_settings(ctx).recall_providers
    kwargs, embedder_error = _provider_kwargs(ctx)
    rows = available_providers(**kwargs)
    if embedder_error:
        rows = [(n, False, embedder_error) if n == "local" else (n, ok, why) for n, ok, why in rows]
    if as_json:
        print_json(
            [{"name": n, "available": ok, "reason": why, "selected": n in selected} for n, ok, why in rows]
        )
        return
    table = Table(title=f"recall providers (entry-point group {ENTRY_POINT_GROUP})")
    table.add_column("name", style="bold cyan")
    table.add_column("available")
    table.add_column("selected")
    table.add_column("why not", overflow="fold")
    for name, ok, why in rows:
        table.add_row(
            name,
            Text("yes", style="green") if ok else Text("no", style="red"),
            "✓" if name in selected else "",
            Text(why),
        )
    console.print(table)
    for missing in [name for name in selected if name not in {row[0] for row in rows}]:
        console.print(
            Text(
                f"the configured provider {missing!r} (`provider` or `providers` in {home}/config.toml, "
                "SILCROW_PROVIDER(S) or --provider) is not installed",
                style="yellow",
            )
        )


@providers_app.command("check")
def check(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="the provider to try, e.g. honcho"),
    as_json: bool = JSON_OPTION,
) -> None:
    """One real round trip (write, search, forget a probe memory) with latencies, or the service's error."""
    home = app_home(ctx)
    kwargs, embedder_error = _provider_kwargs(ctx)
    if embedder_error and name == "local":
        raise error(embedder_error)
    provider = load_provider(name, **kwargs)
    if not provider.is_available():
        raise error(f"{name} cannot run here: {provider.unavailable_reason() or 'is_available() is False'}")
    probe = f"silcrow providers check probe {uuid.uuid4().hex[:12]}"
    try:
        provider.initialize("silcrow-providers-check", home=str(home))
        result = round_trip(provider, probe)
    except SilcrowError as exc:
        raise error(f"{name} round trip failed: {exc}") from None
    finally:
        try:
            provider.shutdown()
        except Exception:  # the round trip's outcome is what matters here
            pass
    result = {"provider": name, "ok": True, **result}
    if as_json:
        print_json(result)
        return
    found = "found" if result.get("found") else "not found yet (the service may index asynchronously)"
    console.print(
        Text.assemble(
            (f"{name}: ", "bold cyan"),
            ("ok ", "green"),
            f"write {result.get('write_ms')} ms, search {result.get('search_ms')} ms ({found}), "
            f"forget {result.get('forget_ms')} ms",
        )
    )


@providers_app.command("status")
def status(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
    """How each selected recall provider is doing: available or why not, what it holds, queued
    writes, its last error and timings."""
    from silcrow._paths import recall_db
    from silcrow.recall import ProviderSet

    with guarded():
        profile = app_profile(ctx)
        provider = profile.provider()
        # The local provider opens (creates) its database when initialised: only one that exists.
        # An unavailable provider is kept: the status says why.
        local_opens = profile.storage.shared or recall_db(profile.path).exists()
        initialize = provider is not None and (provider.name != "local" or local_opens)
        manager = profile.recall("silcrow-status", provider=provider if provider is not None else "none",
                                 initialize=False, available_only=False)
        try:
            if isinstance(provider, ProviderSet):
                manager.initialize("silcrow-status", home=str(profile.path),
                                   skip=() if local_opens else ("local",))
            elif initialize:
                manager.initialize("silcrow-status", home=str(profile.path))
            found = manager.recall_status()
        finally:
            manager.shutdown()
    if as_json:
        print_json(found)
        return
    for one in found.get("providers") or [found]:
        _print_status(one)


def _print_status(found: dict[str, Any]) -> None:
    """One provider's status: its name, available or why not, then its other facts."""
    name = found.get("provider") or "none"
    state = Text("available", style="green") if found.get("available") else Text(
        f"unavailable: {found.get('reason') or 'unknown'}", style="red")
    console.print(Text.assemble((str(name), "bold cyan"), "  ", state,
                                ("  (external: secrets are redacted before they are sent)"
                                 if found.get("external") and found.get("provider") else "", "dim")))
    for key, value in found.items():
        if key not in ("provider", "available", "reason", "external", "counters") and value not in (None, ""):
            console.print(Text(f"  {key}: {value}"), soft_wrap=True)
