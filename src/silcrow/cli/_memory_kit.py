"""The ``memory`` command group's shared parts: the group, its target option, how a store is
opened and a result reported, and the entry listings. :mod:`silcrow.cli._memory` and
:mod:`silcrow.cli._memory_upkeep` both build on it, so neither imports the other's helpers."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from silcrow.cli._common import (
    EXIT_REFUSED,
    app_profile,
    console,
    console_err,
    current_directory,
    error,
    guarded,
    print_error,
    safe_text,
)
from silcrow.cli.main import app
from silcrow.notes import Notes
from silcrow.safety import display_safe
from silcrow.store import author_label

memory_app = typer.Typer(help="Curated notes: MEMORY.md, USER.md, and PROJECT.md of the project you are in.",
                         no_args_is_help=True)
app.add_typer(memory_app, name="memory")


class Target(StrEnum):
    """The curated files; a Typer choice, so a bad value is a usage error (exit 2)."""

    memory = "memory"
    user = "user"
    project = "project"


TARGETS: tuple[str, ...] = (Target.memory.value, Target.user.value)
_LABELS = {"memory": "MEMORY.md — the agent's notes", "user": "USER.md — the user profile",
           "project": "PROJECT.md — the project's notes"}
_USAGE_NUMBERS = re.compile(r"([\d,]+)\s*/\s*([\d,]+)")

_TARGET_HELP = ("memory (MEMORY.md, the agent's notes), user (USER.md, the user profile) or project "
                "(PROJECT.md, the notes of the project you are in; see --project)")
_ALL_TARGETS_HELP = _TARGET_HELP + "; all of them when omitted"
# Every command that opens the notes takes it; _open_notes reads it from the command's parameters.
PROJECT_OPTION: Any = typer.Option(
    None, "--project", metavar="DIR",
    help="the project whose notes --target project means: the git work tree holding DIR "
         "(default: the one holding the current directory)")


# What a refusal of target "project" tells a person at the shell (the library's says project=).
CLI_PROJECT_ADVICE = "run inside a git work tree, or name one with --project DIR"


def _target_option(default: Target | None, help_text: str) -> Any:
    return typer.Option(default, "--target", "-t", case_sensitive=False, help=help_text)


# --------------------------------------------------------------------------- plumbing


def _open_notes(ctx: typer.Context, *, load: bool = True) -> Notes:
    """The notes of the selected home/profile, loaded from disk, limits from config.toml: how
    every read and write of this group is made (a person's, origin ``cli``; this process opens
    no recall manager). With the project's notes as the target ``project``: the work tree
    holding ``--project DIR``, else the current directory (none outside a work tree: the
    target is then refused, saying why)."""
    given = ctx.params.get("project")
    with guarded():
        if given is not None and not os.path.exists(given):
            raise error(f"--project {given}: no such directory; give a directory inside the project")
        # the profile's path is absolute, so paths in messages (backups, doctor) work from anywhere
        here = current_directory() if given is None else given
        notes = app_profile(ctx).notes(project=here, no_project="the current directory was removed",
                                       advice=CLI_PROJECT_ADVICE)
        if load:
            notes.load()
    return notes


def _argument_text(value: str) -> str:
    """``-`` means stdin: multi-line entries are awkward to quote in a shell.

    Bytes that are not UTF-8 (in an argument or on stdin) arrive as lone
    surrogates; the store refuses those with a message that says so.
    """
    if value != "-":
        return value
    try:
        return sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise error(f"standard input is not valid UTF-8 ({exc.reason} at byte {exc.start}); "
                    "convert it to UTF-8 and retry") from None


def _label(target: str, notes: Notes) -> str:
    """How a listing heads ``target``: the project's names its root."""
    if target == "project" and notes.project is not None:
        return f"PROJECT.md — the notes of the project at {safe_text(display_safe(str(notes.project)))}"
    return _LABELS.get(target, target)


def _targets(target: Target | None, notes: Notes) -> tuple[str, ...]:
    """The targets a command acts on: the one given, else all the notes serve."""
    return notes.targets if target is None else (target.value,)


def _abbreviated(entry: str, limit: int = 300) -> str:
    """An entry cut for an error listing, so one pasted log does not bury the message."""
    if len(entry) <= limit:
        return entry
    return f"{entry[:limit]}… ({len(entry) - limit:,} more chars; `silcrow memory show` has it all)"


def _numbered(out: Console, entries: Sequence[str], indent: str = "  ") -> None:
    """Entries numbered from 1; continuation lines of multi-line entries are indented.

    Invisible and bidi characters are shown as ``<U+XXXX>``: a terminal would
    hide them, and they are exactly what the user needs to see to remove them.
    """
    if not entries:
        out.print(Text(f"{indent}(no entries)", style="dim"))
        return
    width = len(str(len(entries)))
    for number, entry in enumerate(entries, start=1):
        prefix = f"{indent}{number:>{width}}. "
        pad = " " * len(prefix)
        lines = display_safe(safe_text(entry)).split("\n")
        text = Text(prefix, style="cyan")
        text.append(lines[0])
        for line in lines[1:]:
            text.append("\n" + pad + line)
        out.print(text, soft_wrap=True)


def _entries_word(count: object) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"


def _usage_bar(usage: str, width: int = 30) -> Text:
    """A bar coloured by how full the file is, then the store's own usage string.

    Drawn with block characters rather than rich.progress_bar so that it stays
    visible without colours (pipes, NO_COLOR, CI logs).
    """
    found = _USAGE_NUMBERS.search(usage)
    if found is None:
        return Text(usage)
    used, limit = (int(group.replace(",", "")) for group in found.groups())
    ratio = used / limit if limit else 1.0
    colour = "green" if ratio < 0.7 else "yellow" if ratio < 0.9 else "red"
    filled = min(width, round(ratio * width))
    if used and not filled:
        filled = 1  # a file with something in it never looks empty
    return Text.assemble(
        ("█" * filled, colour), ("░" * (width - filled), "dim"), " ", (usage, colour if ratio >= 0.9 else "")
    )


def _report(result: Mapping[str, Any]) -> None:
    """Print a mutation result; a refusal exits 1 after saying why and what is there."""
    if result.get("success"):
        line = Text.assemble(("✓ ", "bold green"), safe_text(str(result.get("message", "done"))))
        console.print(line, soft_wrap=True)
        if result.get("usage"):
            count = result.get("entry_count")
            tail = f" · {_entries_word(count)}" if count is not None else ""
            console.print(Text(f"  {result.get('target', '')} usage: {result['usage']}{tail}",
                               style="dim"), soft_wrap=True)
        return
    print_error(str(result.get("error", "the memory operation was refused")))
    matches = result.get("matches")
    if matches:
        console_err.print(Text("matching entries:", style="bold"))
        _numbered(console_err, [str(m) for m in matches])
    current = result.get("current_entries")
    if current is not None:
        usage = f" ({result['usage']})" if result.get("usage") else ""
        console_err.print(Text(f"current entries{usage}:", style="bold"))
        _numbered(console_err, [_abbreviated(str(entry)) for entry in current])
    raise typer.Exit(EXIT_REFUSED)


def _preview(text: str, limit: int = 80) -> str:
    flat = " ".join(display_safe(safe_text(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _when(value: Any) -> str:
    return str(value)[:16].replace("T", " ") if value else "?"


def print_details(views: Mapping[str, Mapping[str, Any]], labels: Mapping[str, str]) -> None:
    """Each entry, then when and by whom it was written and how it has been used."""
    for index, (name, view) in enumerate(views.items()):
        if index:
            console.print()
        header = Text.assemble((labels[name], "bold"), ("  " + str(view["path"]), "dim"))
        console.print(header, soft_wrap=True)
        console.print(Text(f"  {view['usage']}", style="dim"))
        described = view.get("details") or []
        if not described:
            console.print(Text("  (no entries)", style="dim"))
        for item in described:
            console.print(Text.assemble((f"  {item['number']}. ", "cyan"),
                                        display_safe(safe_text(str(item["text"])))), soft_wrap=True)
            if item.get("added"):
                written = f"added {_when(item['added'])} by {author_label(item.get('added_by'))}"
                if item.get("changed") and item["changed"] != item["added"]:
                    written += f"; changed {_when(item['changed'])} by {author_label(item.get('changed_by'))}"
            else:
                written = f"written before silcrow kept metadata (first seen {_when(item.get('first_seen'))})"
            used = f"in {item['prompt_sessions']} session prompt(s)"
            if item.get("last_surfaced"):
                used += f"; last surfaced {_when(item['last_surfaced'])} by {item.get('surfaced_by')}"
            else:
                used += "; never surfaced by a tool or recall"
            console.print(Text(f"     {safe_text(written)}\n     {used}", style="dim"), soft_wrap=True)
