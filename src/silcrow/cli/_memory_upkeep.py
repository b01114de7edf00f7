"""`silcrow memory archive | restore | review` and `show --details`: keeping the notes clean.

Part of the ``memory`` group (see :mod:`silcrow.cli._memory`); the work is the store's
(:meth:`~silcrow.notes.Notes.details`, ``archived``, ``restore``, ``consolidate``).
"""

from __future__ import annotations

from typing import Any

import typer
from rich.text import Text

from silcrow.cli._common import JSON_OPTION, app_profile, console, console_err, guarded, print_json, safe_text
from silcrow.cli._memory_kit import (
    PROJECT_OPTION,
    Target,
    _open_notes,
    _preview,
    _report,
    _target_option,
    _when,
    memory_app,
)
from silcrow.store import author_label as label


@memory_app.command("archive")
def archive(
    ctx: typer.Context,
    query: str = typer.Argument(None, help="only items holding every word of this (any case)"),
    target: Target | None = _target_option(None, "memory, user or project; all when omitted"),
    as_json: bool = JSON_OPTION,
    to_recall: bool = typer.Option(False, "--to-recall",
                                   help="also keep the archived entries in long-term recall (once each)"),
    project: str | None = PROJECT_OPTION,
) -> None:
    """List entries that left the notes (removed, replaced, evicted, edited away), newest first."""
    store = _open_notes(ctx)
    with guarded():
        if to_recall:
            mirrored = _mirror_to_recall(ctx, store)
            console_err.print(Text(f"{mirrored} archived {'entry' if mirrored == 1 else 'entries'} "
                                   "added to long-term recall", style="dim"))
        items = store.archived(query, target=None if target is None else target.value)
    if as_json:
        print_json(items)
        return
    if not items:
        console.print(Text("(nothing archived" + (" matches" if query else " yet") + ")", style="dim"))
        return
    for item in items:
        console.print(Text.assemble(
            (str(item["id"]), "bold cyan"), "  ", (_when(item.get("archived")), "dim"), "  ",
            (str(item.get("target")), "bold"), f" {item.get('why')}", (f" by {label(item.get('by'))}", "dim"),
        ), soft_wrap=True)
        console.print(Text(f"    {_preview(str(item.get('text', '')), 200)}"), soft_wrap=True)
        if item.get("replaced_by"):
            became = _preview(str(item["replaced_by"]), 200)
            console.print(Text(f"    → {became}", style="dim"), soft_wrap=True)
    console_err.print(Text("restore one with `silcrow memory restore ID`", style="dim"))


@memory_app.command("restore")
def restore(
    ctx: typer.Context, item_id: str = typer.Argument(..., help="the id `memory archive` shows"),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Add an archived entry back to its file (through the normal write path)."""
    store = _open_notes(ctx)
    with guarded():
        result = store.restore(item_id, origin="cli")
    _report(result)


@memory_app.command("review")
def review(
    ctx: typer.Context,
    as_json: bool = JSON_OPTION,
    rules_only: bool = typer.Option(False, "--rules-only",
                                    help="judge pairs and word merges by rule even when a model is "
                                         "configured"),
    unused_days: int = typer.Option(180, "--unused-days", min=1, max=36500,
                                    help="propose archiving entries nothing surfaced or changed "
                                         "for this long"),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Find near-duplicate, contained, contradicted and long-unused entries, and propose fixes.

    Each finding becomes a pending proposal with its reason; nothing is applied until you
    approve it (`silcrow memory pending`, `approve`, `reject`)."""
    store = _open_notes(ctx)
    with guarded():
        findings = run_review(ctx, store, rules_only=rules_only, unused_days=unused_days)
    if as_json:
        print_json(findings)
        return
    skipped = [f for f in findings if f.get("declined")]
    findings = [f for f in findings if not f.get("declined")]
    if not findings:
        console.print(Text("nothing to propose: no duplicates, contradictions or long-unused entries"
                           + (" (besides what you rejected before)" if skipped else ""), style="dim"))
    if skipped:
        console.print(Text(f"skipped {len(skipped)} finding{'s' if len(skipped) != 1 else ''} you rejected "
                           "before: their entries have not changed since (a change to one of them "
                           "lets the review ask again)", style="dim"), soft_wrap=True)
    if not findings:
        return
    for finding in findings:
        mark = ("already pending" if finding.get("already_pending")
                else f"proposal {finding.get('proposal_id')}")
        console.print(Text.assemble((f"{finding['kind']}", "bold yellow"), f" in {finding['target']}: ",
                                    (mark, "cyan")), soft_wrap=True)
        console.print(Text(f"    {safe_text(str(finding['reason']))}"), soft_wrap=True)
    console_err.print(Text("nothing was changed: review them with `silcrow memory pending`", style="dim"))


def run_review(ctx: typer.Context, store: Any, *, rules_only: bool = False,
               unused_days: int = 180) -> list[dict[str, Any]]:
    """The review pass with this profile's embedder and, when one is configured, its model."""
    profile = app_profile(ctx)
    settings = profile.settings
    embed = settings.embed_function()
    merge = decide = None
    if not rules_only and (settings.base_url or settings.api_key):
        from silcrow.agent import LLMClient, model_judge, model_merge

        client = LLMClient(settings.model, base_url=settings.base_url, api_key=settings.api_key,
                           max_retries=0, timeout=30)
        merge, decide = model_merge(client), model_judge(client)
    findings: list[dict[str, Any]] = store.consolidate(embed=embed, merge=merge, decide=decide,
                                                       unused_days=unused_days)
    return findings


def _mirror_to_recall(ctx: typer.Context, store: Any) -> int:
    from silcrow.errors import ConfigError

    profile = app_profile(ctx)
    provider = profile.provider()
    if provider is None:
        raise ConfigError("no recall provider is configured (provider = \"none\"); set one in config.toml "
                          "to keep archived entries in recall")
    manager = profile.recall("silcrow-archive", provider=provider, available_only=False)
    try:
        count: int = store.mirror_archive(lambda text: manager.remember(text, source="archive"))
    finally:
        manager.shutdown()
    return count
