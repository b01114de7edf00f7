"""A memory file's text, parsed once: its entries, where each came from, its line endings.

Reading follows Hermes: line endings are read the way Python's text mode
reads them (``\\r\\n`` and a lone ``\\r`` are both a newline), the text is
split on the delimiter line, each piece is stripped, empty pieces are
dropped, and a later copy of an entry is dropped (the first is kept).

Writing keeps what it does not change byte for byte: an entry the write
keeps is written back exactly as it was in the file (its own line endings,
its own bytes, even ones that are not UTF-8); only new entries are written
fresh, with the file's dominant line ending. Whitespace between entries,
empty pieces and later copies of an entry are not kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from silcrow.store import entries as E

# A newline as text mode reads it, the section sign, a newline.
_DELIMITER = re.compile(r"(?:\r\n|\r|\n)§(?:\r\n|\r|\n)")
_UNDECODABLE = re.compile("[\udc80-\udcff]")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def _universal(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _dominant_newline(raw: str) -> str:
    if "\r" not in raw:
        return "\n"
    counts = {"\n": 0, "\r\n": 0, "\r": 0}
    for found in _NEWLINES.finditer(raw):
        counts[found.group()] += 1
    # Ties go to "\n", what silcrow writes to a new file.
    return max(("\n", "\r\n", "\r"), key=lambda newline: counts[newline])


def _fuses(span: str) -> bool:
    """Whether ``span`` ends in a line holding only '§': a delimiter after it would read
    that line as a delimiter and move it to the next entry."""
    return span.endswith("§") and len(span) > 1 and span[-2] in "\r\n"


@dataclass(frozen=True)
class Document:
    """The parsed text of one memory file. Build it with :meth:`parse`."""

    raw: str
    entries: list[str]
    # The exact text of each entry in the file (of its first copy), by entry.
    spans: dict[str, str]
    # Normalized, stripped pieces that hold a '§' (the only ones escaping can concern).
    section_pieces: list[str]
    newline: str
    duplicates: int
    # Where the text of the last entry ends in ``raw`` (0 when there is none).
    end: int

    @classmethod
    def parse(cls, raw: str) -> Document:
        entries: list[str] = []
        spans: dict[str, str] = {}
        section_pieces: list[str] = []
        duplicates = 0
        end = 0
        if "\r" in raw:
            starts = [0, *(m.end() for m in _DELIMITER.finditer(raw))]
            stops = [m.start() for m in _DELIMITER.finditer(raw)] + [len(raw)]
            pieces = [(raw[a:b], a) for a, b in zip(starts, stops, strict=True)]
        else:
            pieces = []
            offset = 0
            for piece in raw.split(E.ENTRY_DELIMITER):
                pieces.append((piece, offset))
                offset += len(piece) + len(E.ENTRY_DELIMITER)
        for piece, offset in pieces:
            span = piece.strip()
            if not span:
                continue
            end = offset + len(piece.rstrip())
            text = _universal(span)
            if "§" in text:
                section_pieces.append(text)
                text = E.unescape_entry(text)
            if text in spans:
                duplicates += 1
                continue
            spans[text] = span
            entries.append(text)
        return cls(raw, entries, spans, section_pieces, _dominant_newline(raw), duplicates, end)

    def _fresh(self, entry: str) -> str:
        text = E.escape_entry(entry) if "§" in entry else entry
        return text.replace("\n", self.newline) if self.newline != "\n" else text

    def render(self, updated: list[str]) -> str:
        """The file text for ``updated``: kept entries byte for byte, new ones fresh."""
        if updated[: len(self.entries)] == self.entries and len(updated) == len(self.entries) + 1:
            return self.append(updated[-1])
        parts = [self.spans.get(entry) or self._fresh(entry) for entry in updated]
        delimiter = f"{self.newline}§{self.newline}"
        return delimiter.join(f"{p} " if _fuses(p) and i < len(parts) - 1 else p
                              for i, p in enumerate(parts))

    def append(self, entry: str) -> str:
        """The file text with ``entry`` added at the end; every byte before it stays."""
        fresh = self._fresh(entry)
        if not self.entries:
            return fresh
        base = self.raw[: self.end]
        if _fuses(base):
            base += " "
        return f"{base}{self.newline}§{self.newline}{fresh}"

    def problems(self, char_limit: int, show: Callable[[str], str] = E.quoted_preview) -> list[str]:
        """Why a rewrite could change what this text means (see :func:`entries.shape_problems`)."""
        problems: list[str] = []
        bad = _UNDECODABLE.search(self.raw)
        if bad is not None:
            count = len(_UNDECODABLE.findall(self.raw))
            problems.append(
                f"the file is not valid UTF-8 ({count} undecodable byte(s), first at character "
                f"{bad.start()})"
            )
        for piece in self.section_pieces:
            odd = E.odd_section_line(piece)
            if odd is None:
                continue
            if odd == "§":
                problems.append(
                    f"an entry starting {show(piece)} contains a bare '§' line (two delimiters "
                    "in a row?); rewriting the file would change it"
                )
            else:
                problems.append(
                    f"a line {odd!r} looks like an entry delimiter but has extra spaces or tabs; "
                    "a delimiter is a line containing only '§'"
                )
            break
        for entry in self.entries:
            if len(entry) > char_limit:
                problems.append(
                    f"an entry of {len(entry):,} chars is larger than the whole {char_limit:,}-char "
                    f"limit (starts {show(entry)}); it was probably appended by hand"
                )
                break
        return problems
