"""`silcrow memory ...`: read and edit the curated notes (MEMORY.md / USER.md) from a shell.

Exit codes: 0 on success, 1 when the store refuses an operation (the reason
goes to stderr as one line, followed by the entries that explain it), 2 on
usage errors (Typer's own handling of bad options, plus a bad ``--profile``).

Everything that came from a memory file is printed as :class:`rich.text.Text`,
never as a markup string: entries routinely contain ``[brackets]`` and
``:colons:`` that Rich would otherwise eat or restyle.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from silcrow.cli._common import (
    EXIT_REFUSED,
    EXIT_USAGE,
    JSON_OPTION,
    app_profile,
    console,
    console_err,
    error,
    guarded,
    print_error,
    print_json,
    safe_text,
)
from silcrow.cli._memory_address import addressed, remember_shown, with_other_file_hint
from silcrow.cli._memory_kit import (
    _ALL_TARGETS_HELP,
    _TARGET_HELP,
    PROJECT_OPTION,
    Target,
    _argument_text,
    _entries_word,
    _label,
    _numbered,
    _open_notes,
    _preview,
    _report,
    _target_option,
    _targets,
    _usage_bar,
    memory_app,
    print_details,
)
from silcrow.notes import Notes
from silcrow.safety import display_safe
from silcrow.store import (
    TARGET_FILES,
    MemoryResult,
    box_warnings,
    entry_id,
    notes_version,
    shown_origin,
    who_text,
)

# --------------------------------------------------------------------------- commands


@memory_app.command("show")
def show(
    ctx: typer.Context,
    target: Target | None = _target_option(None, _ALL_TARGETS_HELP),
    as_json: bool = JSON_OPTION,
    details: bool = typer.Option(False, "--details", "-d",
                                 help="also when and by whom each entry was written, and how it is used"),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Show the live entries, numbered, with how full each file is."""
    store = _open_notes(ctx)
    with guarded():
        views: dict[str, dict[str, Any]] = {
            name: {
                "path": store.location(name),
                "usage": store.usage(name),
                "char_limit": store.char_limit(name),
                "entry_count": len(entries),
                "entries": entries,
                # What `remove` / `replace` accept for an entry: its id, or its number at this version.
                "version": notes_version(entries),
                "ids": [entry_id(entry) for entry in entries],
            }
            for name in _targets(target, store)
            for entries in [store.entries(name)]
        }
        if details:
            for name, described in store.details(None if target is None else target.value).items():
                views[name]["details"] = described
    remember_shown(ctx, {name: view["version"] for name, view in views.items()})
    if as_json:
        print_json(views)
        return
    if details:
        print_details(views, {name: _label(name, store) for name in views})
        return
    for index, (name, view) in enumerate(views.items()):
        if index:
            console.print()
        header = Text.assemble((_label(name, store), "bold"), ("  " + view["path"], "dim"),
                               (f"  version {view['version']}", "dim"))
        console.print(header, soft_wrap=True)
        console.print(_usage_bar(view["usage"]))
        _numbered(console, view["entries"])
    if not any(view["entries"] for view in views.values()):
        _hint_left_behind(ctx, [name for name in views])


def _hint_left_behind(ctx: typer.Context, targets: list[str]) -> None:
    """A home switched to PostgreSQL shows none of the notes its files still hold: say where
    they are and how to bring them over, rather than let them look lost."""
    profile = app_profile(ctx)
    if not profile.storage.shared:
        return
    left = [path for name in targets if name in TARGET_FILES
            if (path := profile.path / "memories" / TARGET_FILES[name]).is_file() and path.stat().st_size]
    if left:
        console_err.print(
            f"note: {', '.join(str(p) for p in left)} still hold notes from before this home used "
            f"PostgreSQL; bring them over with `silcrow db import --from-home {profile.path}"
            + (f" --profile-name {profile.name}`" if profile.name != "default" else "`"),
            soft_wrap=True, highlight=False,
        )


_OLD_HELP = ("the entry: its number as `memory show` printed it (2, or 2@VERSION), its id from "
             "`memory show --json`, or a short text only it holds")
_TEXT_HELP = "OLD is text to look for, even when it looks like a number or an id"
_FORCE_HELP = "save it even if the threat scanner objects (you confirm its findings; the journal records it)"


def _with_force_hint(result: Any) -> Any:
    """A threat refusal at the CLI also says how a person can confirm the write."""
    if isinstance(result, dict) and not result.get("success") and result.get("patterns"):
        return {**result, "error": f"{result['error']} If you wrote this yourself and it is safe, "
                                   "run the same command with --force (recorded in the journal)."}
    return result


@memory_app.command("add")
def add(
    ctx: typer.Context,
    text: str = typer.Argument(..., help="the entry to add (a declarative fact); - reads it from stdin"),
    target: Target = _target_option(Target.memory, _TARGET_HELP),
    force: bool = typer.Option(False, "--force", help=_FORCE_HELP),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Add an entry (an exact duplicate is accepted without adding a second copy)."""
    notes = _open_notes(ctx)
    with guarded():
        result = notes.add(target.value, _argument_text(text), origin="cli", force=force)
    _report(_with_force_hint(result))


@memory_app.command("replace")
def replace(
    ctx: typer.Context,
    old: str = typer.Argument(..., help=_OLD_HELP),
    new: str = typer.Argument(..., help="the full new text of that entry; - reads it from stdin"),
    target: Target = _target_option(Target.memory, _TARGET_HELP),
    force: bool = typer.Option(False, "--force", help=_FORCE_HELP),
    as_text: bool = typer.Option(False, "--text", help=_TEXT_HELP),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Replace the entry OLD names (its number in `memory show`, its id, or a text it holds) with NEW."""
    notes = _open_notes(ctx)
    store = notes
    with guarded():
        old_text = addressed(ctx, store, target.value, old, as_text)
        result = notes.replace(target.value, old_text, _argument_text(new), origin="cli", force=force)
        result = with_other_file_hint(store, target.value, old, result)
    _report(_with_force_hint(result))


@memory_app.command("remove")
def remove(
    ctx: typer.Context,
    old: str = typer.Argument(..., help=_OLD_HELP),
    target: Target = _target_option(Target.memory, _TARGET_HELP),
    as_text: bool = typer.Option(False, "--text", help=_TEXT_HELP),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Remove the entry OLD names (its number in `memory show`, its id, or a text it holds)."""
    notes = _open_notes(ctx)
    store = notes
    with guarded():
        result = notes.remove(target.value, addressed(ctx, store, target.value, old, as_text), origin="cli")
        result = with_other_file_hint(store, target.value, old, result)
    _report(result)


@memory_app.command("prompt")
def prompt(ctx: typer.Context, project: str | None = PROJECT_OPTION) -> None:
    """Print the system-prompt section exactly as an agent gets it (the frozen blocks: the
    project's too, in a project)."""
    store = _open_notes(ctx)
    with guarded():
        section = store.prompt_section()
    if not section:
        # stdout stays empty, exactly like the section; the hint goes to stderr.
        console_err.print(Text("(no curated memory yet: the section is empty; "
                               "add entries with `silcrow memory add`)", style="dim"), soft_wrap=True)
        return
    sys.stdout.write(safe_text(section))
    if sys.stdout.isatty() and not section.endswith("\n"):
        sys.stdout.write("\n")  # only for the shell's sake; a pipe gets the exact section
    sys.stdout.flush()


@memory_app.command("doctor")
def doctor(
    ctx: typer.Context,
    as_json: bool = JSON_OPTION,
    project: str | None = PROJECT_OPTION,
) -> None:
    """Check the files for drift (hand edits that would not round-trip); exit 1 on problems."""
    store = _open_notes(ctx)
    with guarded():
        reports = store.doctor()
    healthy = all(report.get("ok") for report in reports)
    if as_json:
        print_json(reports)
    else:
        for report in reports:
            name = str(report.get("target", "?"))
            ok = bool(report.get("ok"))
            line = Text.assemble(("✓ " if ok else "✗ ", "bold green" if ok else "bold red"),
                                 (_label(name, store), "bold"),
                                 (f"  {report.get('path', '')}", "dim"))
            console.print(line, soft_wrap=True)
            count = _entries_word(report.get("entry_count", "?"))
            console.print(Text(f"    {count} · {report.get('usage', '')}", style="dim"),
                          soft_wrap=True)
            for problem in report.get("problems") or []:
                console.print(Text(f"    problem: {problem}", style="red"), soft_wrap=True)
            for note in report.get("notes") or []:
                console.print(Text(f"    note: {note}", style="yellow"), soft_wrap=True)
            for leftover in report.get("cleaned") or []:
                console.print(Text(f"    cleaned up: {leftover}", style="dim"), soft_wrap=True)
            if report.get("backup"):
                console.print(Text(f"    backup: {report['backup']}", style="yellow"),
                              soft_wrap=True)
    if not healthy:
        if not as_json:
            # Only a file silcrow would not rewrite is backed up; say so only when one was made.
            kept = " (the backups listed keep their current text)" if any(
                report.get("backup") for report in reports) else ""
            console.print(Text(f"Fix the files marked ✗{kept}, then run `silcrow memory doctor` "
                               "again.", style="bold"), soft_wrap=True)
        raise typer.Exit(EXIT_REFUSED)


def _changes(record: dict[str, Any]) -> list[str]:
    """What one journal record did, as '+ entry' / '- entry' previews."""
    before, after = record.get("before"), record.get("after")
    if not isinstance(before, list) or not isinstance(after, list):
        diff = record.get("diff")
        return [_preview(str(line)) for line in diff] if isinstance(diff, list) else []
    removed = [f"- {entry}" for entry in before if entry not in after]
    added = [f"+ {entry}" for entry in after if entry not in before]
    return [_preview(line) for line in removed + added]


@memory_app.command("history")
def history(
    ctx: typer.Context,
    target: Target | None = _target_option(None, _ALL_TARGETS_HELP),
    as_json: bool = JSON_OPTION,
    project: str | None = PROJECT_OPTION,
) -> None:
    """List committed mutations, oldest first."""
    store = _open_notes(ctx)
    with guarded():
        records = store.history(target.value if target else None)
    if as_json:
        print_json(records)
        return
    if not records:
        console.print(Text("(no history yet)", style="dim"))
        return
    for number, record in enumerate(records, start=1):
        head = Text.assemble(
            (f"{number:>3}. ", "cyan"),
            (str(record.get("time", ""))[:19].replace("T", " "), "dim"),
            "  ",
            (str(record.get("target", "")), "bold"),
            " ",
            str(record.get("action", "")),
            (f"  ({shown_origin(str(record['origin']))})" if record.get("origin") else "", "dim"),
            (f"  by {safe_text(who_text(record['by']))}" if record.get("by") else "", "dim"),
        )
        console.print(head, soft_wrap=True)
        for change in _changes(record):
            style = "green" if change.startswith("+") else "red" if change.startswith("-") else ""
            console.print(Text(f"       {change}", style=style), soft_wrap=True)


@memory_app.command("undo")
def undo(
    ctx: typer.Context,
    target: Target = _target_option(Target.memory, _TARGET_HELP),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Restore the state before the last committed mutation of a file (itself journaled)."""
    notes = _open_notes(ctx)
    with guarded():
        result = notes.undo(target.value, origin="cli")
    _report(result)


# --------------------------------------------------------------------------- the approval gate


def print_proposal(out: Console, item: Mapping[str, Any]) -> None:
    """One proposal with its net effect on the notes: entries removed (-) and added (+)."""
    who = who_text(item.get("who"))
    out.print(Text.assemble(
        (str(item.get("id", "?")), "bold cyan"), "  ",
        (str(item.get("time", "")).replace("T", " "), "dim"), "  ",
        (str(item.get("target", "")), "bold"), " ", str(item.get("action", "")),
        (f"  (from {safe_text(who)})" if who else "", "dim")), soft_wrap=True)
    if item.get("why"):
        why = display_safe(safe_text(str(item["why"])))
        out.print(Text(f"    why: {why}", style="yellow"), soft_wrap=True)
    if item.get("held"):
        out.print(Text(f"    held by the threat scan: {display_safe(safe_text(str(item['held'])))}",
                       style="yellow"), soft_wrap=True)
    if item.get("problem"):
        label = "stale" if item.get("stale") else "cannot apply now"
        out.print(Text(f"    {label}: {display_safe(safe_text(str(item['problem'])))}", style="yellow"),
                  soft_wrap=True)
    for change in item.get("changes") or []:
        if change.get("before") is not None:
            out.print(Text(f"    - {_preview(str(change['before']), 200)}", style="red"), soft_wrap=True)
        if change.get("after") is not None:
            out.print(Text(f"    + {_preview(str(change['after']), 200)}", style="green"), soft_wrap=True)
    if item.get("last_error"):
        refused = _preview(str(item["last_error"]), 200)
        out.print(Text(f"    last approval refused: {refused}", style="dim"), soft_wrap=True)


def print_review(out: Console, reviewed: Sequence[Mapping[str, Any]]) -> None:
    """Pending proposals with their net effect on the notes (shared with `silcrow chat`)."""
    if not reviewed:
        out.print(Text("(no pending proposals)", style="dim"))
        return
    for item in reviewed:
        print_proposal(out, item)


def approve_shown(out: Console, notes: Notes, proposal_id: str | None) -> list[MemoryResult]:
    """Approve one proposal (``proposal_id``) or all, oldest first (None): each is shown with
    the effect it has on the notes it will meet (after the ones before it), then applied with
    that effect's ``base``, so what is applied is what was shown (or it is refused as stale).
    Through the notes service, as every surface decides: recall hears of what is applied."""
    store = notes
    if proposal_id is not None:
        proposal_id = store.resolve_proposal_id(proposal_id)  # a unique prefix names it too
    reviewed = store.review(sequential=proposal_id is None)
    if proposal_id is not None:
        reviewed = [item for item in reviewed if item.get("id") == proposal_id]
        if not reviewed:
            return [notes.decide(proposal_id, True)]  # says it is not pending (and what became of it)
    results: list[MemoryResult] = []
    for item in reviewed:
        print_proposal(out, item)
        results.append(notes.decide(str(item["id"]), True, base=item.get("base") or None))
    return results


@memory_app.command("pending")
def pending(ctx: typer.Context, as_json: bool = JSON_OPTION,
            in_order: bool = typer.Option(False, "--in-order", help=(
                "show each against the notes the ones before it leave, as `approve --all` meets them")),
            project: str | None = PROJECT_OPTION) -> None:
    """List the model's writes waiting for approval (write_policy = "approve"), each with its
    net effect on the notes."""
    store = _open_notes(ctx)
    with guarded():
        reviewed = store.review(sequential=in_order)
    if as_json:
        print_json(reviewed)
        return
    print_review(console, reviewed)
    for line in box_warnings(store.box_usage()):
        console.print(Text(line, style="yellow"), soft_wrap=True)
    if reviewed:
        console.print(Text("approve with `silcrow memory approve ID` (or --all), reject with "
                           "`silcrow memory reject ID --reason ...`", style="dim"), soft_wrap=True)
    with guarded():  # held writes to other projects' notes are listed only in their project
        elsewhere = [p for p in app_profile(ctx).projects()
                     if p["pending"] and p["root"] != str(store.project or "")]
    for item in elsewhere:
        where = safe_text(display_safe(item["root"] or item["key"]))
        console.print(Text(f"{item['pending']} more held for the notes of the project at {where}: "
                           f"`silcrow memory pending --project {where}`", style="yellow"), soft_wrap=True)


@memory_app.command("approve")
def approve(
    ctx: typer.Context,
    proposal_id: str | None = typer.Argument(None, metavar="[ID]", help="the proposal to apply"),
    every: bool = typer.Option(False, "--all", help="apply every pending proposal, oldest first"),
    base: str | None = typer.Option(None, "--base", help=(
        "the `base` that `memory pending --json` gave the proposal: refuse if the notes changed since")),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Apply a pending proposal through the normal write path (it can still be refused). Each
    is shown with what it does to the notes as they are when it is applied."""
    if (proposal_id is None) == (not every):
        raise error("give one proposal ID or --all (see `silcrow memory pending`)", EXIT_USAGE)
    if base is not None and every:
        raise error("--base goes with one proposal ID, not with --all", EXIT_USAGE)
    with guarded():
        notes = _open_notes(ctx, load=False)  # a person's decision in this process: no recall manager here
        if base is not None:
            results = [notes.decide(str(proposal_id), True, base=base)]
        else:
            results = approve_shown(console, notes, None if every else str(proposal_id))
    if every and not results:
        console.print(Text("(no pending proposals)", style="dim"))
    refused = [r for r in results if not r.get("success")]
    for result in results:
        if result.get("success"):
            _report(result)
    for result in refused[:-1]:
        print_error(str(result.get("error")))
    if refused:
        _report(refused[-1])


@memory_app.command("reject")
def reject(
    ctx: typer.Context,
    proposal_id: str = typer.Argument(..., metavar="ID", help="the proposal to drop"),
    reason: str | None = typer.Option(None, "--reason", help="why (kept with the decision)"),
    project: str | None = PROJECT_OPTION,
) -> None:
    """Drop a pending proposal without applying it."""
    notes = _open_notes(ctx)
    with guarded():
        result = notes.decide(proposal_id, False, reason=reason)
    _report(result)


# The archive, restore and review commands, and the projects sub-group, live in their own
# modules; they join this group.
from silcrow.cli import _memory_projects, _memory_upkeep  # noqa: E402,F401
