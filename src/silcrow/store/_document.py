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

from silcrow.store import _entries as E

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


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # surrogate escapes of bytes that were not UTF-8
        return False
    return True


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
    # Each entry is its own span (no '\r', no '§' but the delimiters'): render can join.
    plain: bool = False

    @classmethod
    def _parse_plain(cls, raw: str, pieces: list[str]) -> Document:
        """:meth:`parse` of a text whose only '§' are its delimiters' and that has no '\r' (the
        usual file): no piece needs unescaping or newline translation, so the loop runs in C."""
        stripped = [piece.strip() for piece in pieces]
        kept = [piece for piece in stripped if piece]
        entries = list(dict.fromkeys(kept))
        end = 0
        if kept:
            last = len(stripped) - 1
            while not stripped[last]:
                last -= 1
            start = sum(map(len, pieces[:last])) + len(E.ENTRY_DELIMITER) * last
            end = start + len(pieces[last].rstrip())
        spans = dict(zip(entries, entries, strict=True))
        return cls(raw, entries, spans, [], "\n", len(kept) - len(entries), end, True)

    @classmethod
    def parse(cls, raw: str) -> Document:
        if "\r" not in raw:
            pieces = raw.split(E.ENTRY_DELIMITER)
            if raw.count("§") == len(pieces) - 1:
                return cls._parse_plain(raw, pieces)
        return cls._parse_general(raw)

    @classmethod
    def _parse_general(cls, raw: str) -> Document:
        if "\r" in raw:
            found = list(_DELIMITER.finditer(raw))
            starts = [0, *(m.end() for m in found)]
            pieces = [raw[a:b] for a, b in zip(starts, [m.start() for m in found] + [len(raw)], strict=True)]
        else:
            pieces = raw.split(E.ENTRY_DELIMITER)
            starts = []
        stripped = [piece.strip() for piece in pieces]
        entries: list[str] = []
        spans: dict[str, str] = {}
        section_pieces: list[str] = []
        duplicates = 0
        last = -1
        for index, span in enumerate(stripped):
            if not span:
                continue
            last = index
            text = _universal(span) if starts else span
            if "§" in text:
                section_pieces.append(text)
                text = E.unescape_entry(text)
            if text in spans:
                duplicates += 1
                continue
            spans[text] = span
            entries.append(text)
        end = 0
        if last >= 0:
            if starts:
                start = starts[last]
            else:
                start = sum(map(len, pieces[:last])) + len(E.ENTRY_DELIMITER) * last
            end = start + len(pieces[last].rstrip())
        return cls(raw, entries, spans, section_pieces, _dominant_newline(raw), duplicates, end)

    def _fresh(self, entry: str) -> str:
        text = E.escape_entry(entry) if "§" in entry else entry
        return text.replace("\n", self.newline) if self.newline != "\n" else text

    def render(self, updated: list[str]) -> str:
        """The file text for ``updated``: kept entries byte for byte, new ones fresh."""
        if len(updated) == len(self.entries) + 1 and updated[:-1] == self.entries:
            return self.append(updated[-1])
        if self.plain and "§" not in "".join(updated):
            # Every entry, kept or new, is written as it is: no escaping, no padding needed.
            return E.ENTRY_DELIMITER.join(updated)
        parts = [self.spans.get(entry) or self._fresh(entry) for entry in updated]
        delimiter = f"{self.newline}§{self.newline}"
        text = delimiter.join(parts)
        if f"\n§{delimiter}" in text or f"\r§{delimiter}" in text:
            # Rare (a hand-written entry ending in a '§' line): pad that line so the
            # delimiter after it stays a delimiter of its own.
            text = delimiter.join(
                f"{part} " if _fuses(part) and index < len(parts) - 1 else part
                for index, part in enumerate(parts)
            )
        return text

    def successor(self, updated: list[str], text: str) -> Document | None:
        """``Document.parse(text)`` for the ``text`` :meth:`render` gave for ``updated``, built
        from what is known instead of parsing the file again (None unless both are plain: then
        only the few new entries need a look)."""
        if not self.plain:
            return None
        appended = (len(updated) == len(self.entries) + 1 and updated[-1] not in self.spans
                    and updated[:-1] == self.entries)
        fresh = {updated[-1]} if appended else set(updated).difference(self.spans)
        if len(fresh) > 8 or any(not e or e != e.strip() or "\r" in e or "§" in e for e in fresh):
            return None
        if appended:
            spans = dict(self.spans)
            spans[updated[-1]] = updated[-1]
            return Document(text, list(updated), spans, [], "\n", self.duplicates, len(text), True)
        spans = dict(zip(updated, updated, strict=True))
        if len(spans) != len(updated):  # a repeated entry: parsing would drop the copy
            return None
        return Document(text, list(updated), spans, [], "\n", 0, len(text), True)

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
        bad = None if self.raw.isascii() or _encodes(self.raw) else _UNDECODABLE.search(self.raw)
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
        if max(map(len, self.entries), default=0) > char_limit:
            entry = next(e for e in self.entries if len(e) > char_limit)
            problems.append(
                f"an entry of {len(entry):,} chars is larger than the whole {char_limit:,}-char "
                f"limit (starts {show(entry)}); it was probably appended by hand"
            )
        return problems


def parse(raw: str) -> list[str]:
    """Entries of a memory file's text, in order, each once."""
    return Document.parse(raw).entries


def shape_problems(
    raw: str, char_limit: int, *, show: Callable[[str], str] = E.quoted_preview
) -> list[str]:
    """Why ``raw`` would not survive a parse/serialize cycle unchanged in meaning.

    Whitespace around entries, empty entries, line endings and repeated
    entries are harmless (reading drops or normalizes them, as Hermes does).
    What is reported is anything a rewrite would silently change or that a
    person most likely did not mean:

    * bytes that are not UTF-8 (they reach us as surrogate escapes);
    * a line that looks like a delimiter but is not one (``§`` with spaces or
      tabs around it);
    * a bare ``§`` line left inside an entry by consecutive delimiters, which a
      rewrite would turn into an escaped ``\\§``;
    * an entry larger than the whole file's limit (text appended by hand).

    ``show`` names an offending entry in the messages; messages that go to a
    model pass one that hides flagged text.
    """
    return Document.parse(raw).problems(char_limit, show)
