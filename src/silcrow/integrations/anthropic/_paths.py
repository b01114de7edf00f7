"""Where a ``/memories`` path of Claude's memory tool leads, or why it is refused.

``/memories/MEMORY.md`` and ``/memories/USER.md`` are the curated notes (and
``/memories/PROJECT.md``, the project's, when the tool is made in a project); every other path is
a file of the model's own, under ``<profile>/memory-tool/``. A path is checked before anything is
read or written: it must be ``/memories`` or lie below it, and it may hold no ``..`` or ``.``,
no NUL or control character, no over-long name, and no symbolic link on the way (the tool never
follows one). A name must also read as what it is: one that NFKC normalisation changes (full-width
``．．``, ligatures), that holds an invisible character, that starts or ends with whitespace, or
that reads like a curated note's name without being it (``MEMORY.md\u200b``, Cyrillic
``МЕМОRY.md``, ``user.md``) is refused, so no file can sit beside the notes looking like them.
Every refusal says what was wrong and what a valid path looks like.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from silcrow.safety import display_safe, normalize
from silcrow.store import PROJECT_FILES, TARGET_FILES

ROOT = "/memories"
#: The directory of the model's own files, inside the profile's directory.
FILES_DIR = "memory-tool"
MAX_PATH_CHARS = 1024
MAX_NAME_BYTES = 255  # what common file systems allow for one name
MAX_DEPTH = 8

#: The notes' file names -> their store targets ("MEMORY.md" -> "memory").
NOTES = {name: target for target, name in TARGET_FILES.items()}
#: The same with the project's notes ("PROJECT.md" -> "project"), for a tool made in a project.
PROJECT_NOTES = {**NOTES, **{name: target for target, name in PROJECT_FILES.items()}}


class PathRefused(ValueError):
    """A path the memory tool will not use; the message is for the model."""


@dataclass(frozen=True)
class Where:
    """A checked path: the notes target it names, or the file or directory it leads to."""

    shown: str                    # the path as the model should see it (normalised)
    target: str | None = None     # "memory", "user" (or "project") for the curated notes
    file: Path | None = None      # the model's own file or directory (None for the notes)

    @property
    def is_root(self) -> bool:
        return self.shown == ROOT


def _parts(path: object) -> list[str]:
    if not isinstance(path, str):
        raise PathRefused(f"the path must be a string such as '{ROOT}/notes.md', got {type(path).__name__}")
    if "\x00" in path:
        raise PathRefused("the path contains a NUL character; give a plain path such as "
                          f"'{ROOT}/notes.md'")
    if len(path) > MAX_PATH_CHARS:
        raise PathRefused(f"the path is {len(path):,} characters long; the limit is {MAX_PATH_CHARS:,}: "
                          "use a shorter path")
    if path != ROOT and not path.startswith(ROOT + "/"):
        shown = path if len(path) <= 80 else path[:77] + "..."
        raise PathRefused(f"the path {shown!r} is outside {ROOT}: every path must start with '{ROOT}/' "
                          f"(for example '{ROOT}/notes.md')")
    parts = [p for p in path[len(ROOT):].split("/") if p]
    for part in parts:
        if part in (".", ".."):
            raise PathRefused(f"the path {path!r} uses {part!r}, which the memory tool does not allow; "
                              f"name the file directly under {ROOT}, without '.' or '..'")
        if any(ord(c) < 32 or ord(c) == 127 for c in part):
            raise PathRefused(f"the name {part!r} holds a control character; use printable names only")
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise PathRefused(f"the name {part[:40]!r}... is longer than {MAX_NAME_BYTES} bytes; use a "
                              "shorter name")
        if part.startswith("."):
            raise PathRefused(f"the name {part!r} starts with '.', which is reserved; use a name "
                              "without a leading dot")
        _check_reads_as_itself(part)
    if len(parts) > MAX_DEPTH:
        raise PathRefused(f"the path is {len(parts)} directories deep; the limit is {MAX_DEPTH}")
    return parts


def _check_reads_as_itself(part: str) -> None:
    """Refuse a name a reader would take for another one."""
    shown = display_safe(part)
    if shown != part:
        raise PathRefused(f"the name {shown!r} holds an invisible character; use visible characters only")
    if part != part.strip():
        raise PathRefused(f"the name {part!r} starts or ends with whitespace; remove it")
    plain = unicodedata.normalize("NFKC", part)
    if plain != part:
        raise PathRefused(f"the name {part!r} holds compatibility characters (it reads as {plain!r}); "
                          "use plain characters, e.g. ASCII letters, digits, '-', '_' and '.'")


def resolve(path: object, root: Path, notes: Mapping[str, str] = NOTES) -> Where:
    """Check ``path`` and say where it leads; ``root`` is the directory of the model's files,
    ``notes`` the curated notes' file names and their targets (:data:`PROJECT_NOTES` in a project).

    Raises :class:`PathRefused` with a message for the model.
    """
    parts = _parts(path)
    shown = "/".join([ROOT, *parts])
    if len(parts) == 1 and parts[0] in notes:
        return Where(shown, target=notes[parts[0]])
    if len(parts) == 1 and (wanted := _looks_like_notes(parts[0], notes)) is not None:
        raise PathRefused(f"{shown} is not a file here; the curated notes are {ROOT}/{wanted} "
                          "(the names are case-sensitive, in plain ASCII): a file named like them "
                          "is refused")
    if parts and parts[0] in notes:
        raise PathRefused(f"{ROOT}/{parts[0]} is a file (the curated notes), not a directory")
    current = root
    for part in ["", *parts]:
        current = current / part if part else current
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            break
        except NotADirectoryError as exc:
            raise PathRefused(f"{shown}: a part of the path is a file, not a directory") from exc
        if stat.S_ISLNK(info.st_mode):
            raise PathRefused(f"{shown} goes through a symbolic link, which the memory tool never "
                              "follows; use a path without links")
    return Where(shown, file=root.joinpath(*parts))


def _looks_like_notes(name: str, notes: Mapping[str, str]) -> str | None:
    """The curated note's name ``name`` reads as (case, look-alike letters), when it is not it."""
    read = normalize(name)
    return next((n for n in notes if normalize(n) == read and n != name), None)
