"""Entries of a curated-memory file: the delimiter, escaping, parsing, matching.

A memory file is a list of entries joined by ``ENTRY_DELIMITER`` (a line that
holds only ``§``). Parsing splits on the whole three-character delimiter, never
on ``§`` alone, strips each piece and drops empty ones, so a file written by
Hermes reads unchanged.

Hermes cannot store an entry that itself contains a line made only of ``§``:
on the next read it would split in two. silcrow escapes such a line on write
(``§`` -> ``\\§``) and, so that escaping stays reversible, adds one backslash
to a line that already is backslashes followed by ``§`` (``\\§`` -> ``\\\\§``).
Reading removes exactly one backslash from such lines. Every other line is
written as is.

The same rule covers a ``§`` line padded with spaces, tabs or a carriage
return (the backslash goes after the leading padding). Escaping is a bijection
between "padding, zero or more backslashes, §, padding" lines and the same
with one or more backslashes, so after escaping no line of an entry can look
like a delimiter, even to a person: a delimiter look-alike in a file can only
come from a hand edit, and ``_document.shape_problems`` reports it.

Splitting a file's text into entries is ``_document.py``'s (the one parser);
this module knows single entries and lists of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ENTRY_DELIMITER = "\n§\n"
# The two notes files of a profile, by the target name a caller gives.
TARGET_FILES = {"memory": "MEMORY.md", "user": "USER.md"}
# The notes of a project (the git work tree a session runs in): a store of their own, kept in
# the home beside the profile's, whose one target is this.
PROJECT_TARGET = "project"
PROJECT_FILES = {PROJECT_TARGET: "PROJECT.md"}

# Padding, zero or more backslashes, one section sign, padding; the escaped
# form has at least one backslash.
_PAD = r"[ \t\r\f\v]*"
_SECTION_LINE = re.compile(rf"({_PAD})(\\*§{_PAD})")
_ESCAPED_SECTION_LINE = re.compile(rf"({_PAD})\\(\\*§{_PAD})")
PREVIEW_CHARS = 80


def _escape_line(line: str) -> str:
    match = _SECTION_LINE.fullmatch(line)
    return f"{match[1]}\\{match[2]}" if match else line


def _unescape_line(line: str) -> str:
    match = _ESCAPED_SECTION_LINE.fullmatch(line)
    return f"{match[1]}{match[2]}" if match else line


def escape_entry(entry: str) -> str:
    """The on-disk form of one entry: no line of it can be read as a delimiter."""
    return "\n".join(_escape_line(line) for line in entry.split("\n"))


def unescape_entry(text: str) -> str:
    """Inverse of :func:`escape_entry`."""
    return "\n".join(_unescape_line(line) for line in text.split("\n"))


def normalize_entry(content: str) -> str:
    """The form an entry is stored in: surrounding whitespace removed, and every line ending
    a "\n" (a "\r\n" or lone "\r" would read back as one anyway)."""
    text = content.strip()
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def serialize(entries: list[str]) -> str:
    """The file text for ``entries`` (each already normalized and non-empty)."""
    return ENTRY_DELIMITER.join(escape_entry(e) if "§" in e else e for e in entries)


def char_count(entries: list[str]) -> int:
    """Characters the entries take in the file; this is what limits measure."""
    if not entries:
        return 0
    used = sum(map(len, entries)) + len(ENTRY_DELIMITER) * (len(entries) - 1)
    if "§" not in "".join(entries):  # one C-speed test instead of one per entry
        return used
    return used + sum(len(escape_entry(e)) - len(e) for e in entries if "§" in e)


def format_usage(used: int, limit: int) -> str:
    """``"62% — 1,364/2,200 chars"``; the percentage is floored."""
    percent = used * 100 // limit if limit > 0 else 100
    return f"{percent}% — {used:,}/{limit:,} chars"


def preview(entry: str, width: int = PREVIEW_CHARS) -> str:
    """One line of at most ``width`` characters that identifies an entry."""
    flat = " ".join(entry.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


@dataclass(frozen=True)
class Match:
    """Entries that contain a search substring."""

    indexes: list[int]
    distinct: list[str]

    @property
    def found(self) -> bool:
        return bool(self.indexes)

    @property
    def ambiguous(self) -> bool:
        # Several copies of the same text are not ambiguous: acting on the
        # first one is what the user meant.
        return len(self.distinct) > 1


def find(entries: list[str], needle: str) -> Match:
    """Locate the entries that contain ``needle`` (a short, exact substring).

    An entry that is ``needle`` itself (once normalized) wins over entries that
    merely contain it: otherwise an entry that is part of a longer one could
    never be named alone.
    """
    whole = normalize_entry(needle)
    if whole in entries:
        return Match(indexes=[i for i, entry in enumerate(entries) if entry == whole], distinct=[whole])
    indexes = [i for i, entry in enumerate(entries) if needle in entry]
    distinct: list[str] = []
    for i in indexes:
        if entries[i] not in distinct:
            distinct.append(entries[i])
    return Match(indexes=indexes, distinct=distinct)


def quoted_preview(text: str) -> str:
    """How ``_document.shape_problems`` names an entry by default: its first 40 chars, quoted."""
    return repr(preview(text, 40))


def replace_undecodable(raw: str) -> str:
    """``raw`` with undecodable bytes (surrogate escapes) shown as U+FFFD, as a lenient read gives."""
    return raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def odd_section_line(piece: str) -> str | None:
    """The first line of a stored piece that looks like a delimiter but is not one
    (None when escaping round-trips the piece)."""
    if escape_entry(unescape_entry(piece)) == piece:
        return None
    return next(
        line
        for line in piece.split("\n")
        if _SECTION_LINE.fullmatch(line) and not _ESCAPED_SECTION_LINE.fullmatch(line)
    )
