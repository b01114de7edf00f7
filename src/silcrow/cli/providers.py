"""`silcrow providers`: every recall provider, whether it can run and why not; `check NAME` tries one."""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.table import Table
from rich.text import Text

from silcrow.cli.common import console, fail, state
from silcrow.cli.main import app
from silcrow.config import load_settings
from silcrow.errors import ConfigError, SilcrowError
from silcrow.recall import ENTRY_POINT_GROUP, MemoryProvider, available_providers, load_provider

T = TypeVar("T")

providers_app = typer.Typer(
    help="List recall providers (entry points `silcrow.providers`) and which one is selected; "
    "`check NAME` makes one real round trip.",
    invoke_without_command=True,
)
app.add_typer(providers_app, name="providers")


def _home(ctx: typer.Context) -> Path:
    try:
        return state(ctx).resolved_home()
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--profile'") from None


def _provider_kwargs(home: Path) -> tuple[dict[str, Any], str]:
    """What `silcrow chat` gives providers: the home (so none of them looks at, or creates, the
    default one) and the configured embedder; an embedder that cannot be built is the reason."""
    settings = load_settings(home)
    kwargs: dict[str, Any] = {"home": home}
    try:
        kwargs["embedder"] = settings.embedder_spec()
    except SilcrowError as exc:  # e.g. embedder_model/embedder_url the backend refuses
        return kwargs, f"the configured embedder {settings.embedder!r} cannot be built: {exc}"
    return kwargs, ""


@providers_app.callback()
def providers(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="print the list as JSON"),
) -> None:
    """List recall providers and which one is selected (see also `silcrow providers check NAME`)."""
    if ctx.invoked_subcommand is not None:
        return
    home = _home(ctx)
    selected = load_settings(home).provider
    kwargs, embedder_error = _provider_kwargs(home)
    rows = available_providers(**kwargs)
    if embedder_error:
        rows = [(n, False, embedder_error) if n == "local" else (n, ok, why) for n, ok, why in rows]
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
            name,
            Text("yes", style="green") if ok else Text("no", style="red"),
            "✓" if name == selected else "",
            Text(why),
        )
    console.print(table)
    if selected not in {name for name, _, _ in rows}:
        console.print(
            Text(
                f"the configured provider {selected!r} (`provider` in {home}/config.toml, SILCROW_PROVIDER "
                "or --provider) is not installed",
                style="yellow",
            )
        )


def _timed(timings: dict[str, Any], step: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    value = fn()
    timings[f"{step}_ms"] = round((time.perf_counter() - start) * 1000, 1)
    return value


def _round_trip(provider: MemoryProvider, text: str) -> dict[str, Any]:
    """Write, search and forget ``text``; latencies per step. Raises SilcrowError on failure."""
    trip = getattr(provider, "round_trip", None)
    if callable(trip):
        result = trip(text)
        return dict(result) if isinstance(result, dict) else {}
    add, search, forget = (getattr(provider, n, None) for n in ("add_fact", "search", "forget"))
    if not (callable(add) and callable(search) and callable(forget)):
        raise SilcrowError(f"provider {provider.name!r} offers no round-trip check (no round_trip method)")
    timings: dict[str, Any] = {}
    ref = _timed(timings, "write", lambda: add(text))
    hits = _timed(timings, "search", lambda: search(text, 5))
    timings["found"] = any(text in str(getattr(h, "text", h)) for h in hits)
    _timed(timings, "forget", lambda: forget(ref))
    return timings


@providers_app.command("check")
def check(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="the provider to try, e.g. honcho"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """One real round trip (write, search, forget a probe memory) with latencies, or the service's error."""
    home = _home(ctx)
    kwargs, embedder_error = _provider_kwargs(home)
    if embedder_error and name == "local":
        fail(embedder_error)
    provider = load_provider(name, **kwargs)
    if not provider.is_available():
        fail(f"{name} cannot run here: {provider.unavailable_reason() or 'is_available() is False'}")
    probe = f"silcrow providers check probe {uuid.uuid4().hex[:12]}"
    try:
        provider.initialize("silcrow-providers-check", home=str(home))
        result = _round_trip(provider, probe)
    except SilcrowError as exc:
        fail(f"{name} round trip failed: {exc}")
    finally:
        try:
            provider.shutdown()
        except Exception:  # the round trip's outcome is what matters here
            pass
    result = {"provider": name, "ok": True, **result}
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
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
