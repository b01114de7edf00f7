"""How `silcrow memory remove | replace` find the entry a person means.

By the number `memory show` printed ("2"), checked against the version of the file `show`
printed last (kept in ``.memory-shown.json`` in the profile's directory, mode 0600): a file
that changed since is refused, not guessed at; "2@3f2a9c" names the version explicitly. By an
entry's id (`show --json`). Otherwise by text, as the store does; a text that matches nothing
here but something in the other file says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import typer

from silcrow._private import write_private
from silcrow.cli._common import app_profile
from silcrow.notes import Notes
from silcrow.store import PROJECT_FILES, TARGET_FILES, MemoryResult, matching_entries, resolve_entry

# Every file a target of the notes names (the project's when the notes have one).
NOTE_FILES = {**TARGET_FILES, **PROJECT_FILES}

SHOWN_FILE = ".memory-shown.json"


def _shown_path(ctx: typer.Context) -> Path:
    return Path(app_profile(ctx).path) / SHOWN_FILE


def _shown(ctx: typer.Context) -> dict[str, str]:
    try:
        data = json.loads(_shown_path(ctx).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def remember_shown(ctx: typer.Context, versions: Mapping[str, str]) -> None:
    """Keep the versions `memory show` printed numbers for (advice: a failure is ignored,
    and a later number is then refused until the file is shown again)."""
    try:
        write_private(_shown_path(ctx), json.dumps({**_shown(ctx), **versions}).encode("utf-8"))
    except OSError:
        pass


def addressed(ctx: typer.Context, store: Notes, target: str, ref: str, as_text: bool) -> str:
    """The ``old_text`` for the store: the whole entry a number or id names, else ``ref``."""
    if as_text:
        return ref
    return resolve_entry(store.entries(target), NOTE_FILES[target], ref, _shown(ctx).get(target))


def with_other_file_hint(store: Notes, target: str, ref: str, result: MemoryResult) -> MemoryResult:
    """A refusal because nothing in ``target`` matches, saying what the other file holds."""
    error = str(result.get("error", ""))
    if result.get("success") or result.get("matches") or not error.startswith("No entry"):
        return result
    counts = ((name, len(matching_entries(store.entries(name), ref)))
              for name in store.targets if name != target)
    other, count = next(((name, n) for name, n in counts if n), ("", 0))
    if not count:
        return result
    hint = (f" {NOTE_FILES[other]} holds exactly one match: use --target {other}." if count == 1
            else f" {NOTE_FILES[other]} holds {count} matches: use --target {other} with a longer text.")
    return cast(MemoryResult, {**result, "error": error + hint})
