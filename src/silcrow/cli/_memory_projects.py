"""`silcrow memory projects [--archived | archive ROOT | restore ROOT | move OLD NEW]`: the projects
with notes in this profile.

Part of the ``memory`` group (see :mod:`silcrow.cli._memory`). A project's notes (PROJECT.md) are
kept in the home under its root's key; when the root is gone (a clone deleted, a directory
renamed) they are still listed, marked, and can be archived or moved to the new root, whole; an
archive is listed with ``--archived`` and put back with ``restore``
(:meth:`silcrow.home.Profile.projects`, ``archive_project``, ``move_project``,
``archived_projects``, ``restore_project``).
"""

from __future__ import annotations

import typer
from rich.text import Text

from silcrow.cli._common import JSON_OPTION, app_profile, console, console_err, guarded, print_json, safe_text
from silcrow.cli._memory_kit import _when, memory_app
from silcrow.safety import display_safe

projects_app = typer.Typer(help="The projects with notes (PROJECT.md) in this profile: list, archive, "
                           "restore, move.")
memory_app.add_typer(projects_app, name="projects")


@projects_app.callback(invoke_without_command=True)
def projects(ctx: typer.Context, as_json: bool = JSON_OPTION,
             archived: bool = typer.Option(False, "--archived",
                                           help="list the archived projects instead (restore puts one back)"),
             ) -> None:
    """List the projects with notes: root, entries, usage, last used (most recent first)."""
    if ctx.invoked_subcommand is not None:
        return
    if archived:
        _list_archived(ctx, as_json)
        return
    with guarded():
        listed = app_profile(ctx).projects()
    if as_json:
        print_json(listed)
        return
    if not listed:
        console.print(Text("(no project has notes yet: inside a git work tree, "
                           "`silcrow memory add TEXT --target project`)", style="dim"), soft_wrap=True)
        return
    for item in listed:
        gone = not item["exists"]
        console.print(Text.assemble(
            (safe_text(display_safe(item["root"] or f"(unknown root; key {item['key']})")), "bold"),
            ("  (root is gone: `silcrow memory projects move` or `archive` it)" if gone else "", "yellow"),
        ), soft_wrap=True)
        entries = f"{item['entries']} entry" if item["entries"] == 1 else f"{item['entries']} entries"
        held = f" · {item['pending']} held for approval" if item.get("pending") else ""
        console.print(Text(f"    {entries} · {item['usage']} · last used {_when(item['last_used'])}{held}",
                           style="dim"), soft_wrap=True)


@projects_app.command("archive")
def archive(
    ctx: typer.Context,
    root: str = typer.Argument(..., help="the project's root as `memory projects` lists it (or its key)"),
) -> None:
    """Move a project's notes aside, whole: they leave the listing and every prompt; nothing is
    deleted (they stay under projects/.archive/ in the home)."""
    with guarded():
        record = app_profile(ctx).archive_project(root)
    console.print(Text.assemble(("✓ ", "bold green"),
                                f"Archived the notes of {safe_text(display_safe(record['root'] or root))}."),
                  soft_wrap=True)


def _list_archived(ctx: typer.Context, as_json: bool) -> None:
    with guarded():
        shelved = app_profile(ctx).archived_projects()
    if as_json:
        print_json(shelved)
        return
    if not shelved:
        console.print(Text("(no archived project: `silcrow memory projects archive ROOT` sets one aside)",
                           style="dim"), soft_wrap=True)
        return
    for item in shelved:
        console.print(Text(safe_text(display_safe(item["root"] or f"(unknown root; key {item['key']})")),
                           style="bold"), soft_wrap=True)
        entries = f"{item['entries']} entry" if item["entries"] == 1 else f"{item['entries']} entries"
        console.print(Text(f"    {entries} · archived {_when(item['archived'])} · as {item['name']}",
                           style="dim"), soft_wrap=True)


@projects_app.command("restore")
def restore(
    ctx: typer.Context,
    given: str = typer.Argument(..., metavar="ROOT", help="the project's root or key as `memory projects "
                                "--archived` lists it (its most recent archive), or the archive's name"),
) -> None:
    """Put a project's archived notes back, whole: they join the listing and its sessions' prompts
    again. Refused when the project has notes of its own now (archive those first)."""
    with guarded():
        item = app_profile(ctx).restore_project(given)
    console.print(Text.assemble(("✓ ", "bold green"), "Restored the notes of "
                                f"{safe_text(display_safe(item['root'] or given))} ({item['entries']} "
                                f"{'entry' if item['entries'] == 1 else 'entries'})."), soft_wrap=True)


@projects_app.command("move")
def move(
    ctx: typer.Context,
    old: str = typer.Argument(..., help="the old root as `memory projects` lists it (or its key)"),
    new: str = typer.Argument(..., help="a directory in the project's new work tree"),
) -> None:
    """Give a project's notes to its new root (a clone moved or renamed), whole: entries,
    journal, pending proposals and archive. Refused when the new project has notes of its own."""
    with guarded():
        record = app_profile(ctx).move_project(old, new)
    console.print(Text.assemble(("✓ ", "bold green"),
                                f"Moved the notes of {safe_text(display_safe(old))} to "
                                f"{safe_text(display_safe(record['root']))}."), soft_wrap=True)
    console_err.print(Text("see them with `silcrow memory show --target project` inside it", style="dim"))
