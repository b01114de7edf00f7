"""The one definition of a ``<memory-context>`` fence tag, shared by the fence
(which removes tags from recalled text and model output) and the threat
scanner (which refuses a curated write imitating one)."""

from __future__ import annotations

import re

from silcrow.safety import _bounded as bounded
from silcrow.safety._confusables import SKIP, readings

FENCE_OPEN = "<memory-context>"
FENCE_CLOSE = "</memory-context>"

# Tags are matched on the *readings* of a text (silcrow.safety._confusables.fold): every
# look-alike letter is already its ASCII letter, every bracket look-alike, entity or
# percent-encoding already "<" or ">", every invisible character SKIP. So the one tag
# definition below recognises `<Memory_Context>`, `< / memory context >`, full width,
# Cyrillic or mathematical letters, small capitals, `‹memory-context›`, `&lt;/memory-context&gt;`,
# `<//memory-context>` and a name split by spaces, dots, newlines or zero-width characters.
#
# Every quantifier is possessive and every gap class is disjoint from what follows it, so
# a match attempt never backtracks: scanning is linear in the length of the text.
_GAP = rf"[{SKIP} \n\-]*+"  # between the letters of the name
_PAD = rf"[{SKIP} \n]*+"  # between the bracket, the slashes and the name
_NAME = _GAP.join("memory") + _GAP + _GAP.join("context")
# After the name: the closing bracket, or attributes and a self-closing slash
# (`<memory-context id=1>`, `</memory-context/>`), which a model reads as the same tag.
_TAIL = rf"{SKIP}*+(?:>|[ \n/][^<>]*+>){SKIP}*+"  # the padding of an encoded ">" too
# A model reads `</memory-contexts>` or `</memory-context2>` as the same closing tag: a plural
# "s" or a number belongs to the name. Another word (`<memory-contextual>`) does not, and the
# words "memory contexts" in prose are never a tag.
_SUFFIX = r"(?:s|[0-9]{1,3}+)?+"
TAG = re.compile(rf"<{_PAD}(?P<close>(?:/{_PAD})++)?{_NAME}{_SUFFIX}{_TAIL}")


def _nested_prefix(letters: list[str]) -> str:
    """``a(?:GAP b(?:GAP c)?)?`` -- any prefix of the name, trailing gap included."""
    if not letters:
        return ""
    rest = _nested_prefix(letters[1:])
    return f"{letters[0]}{_GAP}(?:{rest})?" if rest else f"{letters[0]}{_GAP}"


# The start of a tag still waiting for its closing bracket: a prefix of the name, or the
# whole name followed by the start of attributes.
_START = rf"<{_PAD}(?:/{_PAD})*+"
UNCLOSED_NAME = re.compile(rf"{_START}{_NAME}{_SUFFIX}{SKIP}*+(?:[ \n/][^<>]*+)?")
# The whole name after an opening bracket, then the start of attributes: in a tag read as
# one by a model but not in the readings (`<memory-context/[x>`, where "[" reads as "<").
OPEN_WITH_ATTRIBUTES = re.compile(rf"{_START}{_NAME}{_SUFFIX}{SKIP}*+[ \n/]")
UNCLOSED = re.compile(rf"{_START}(?:{_nested_prefix(list('memorycontext'))})?|{UNCLOSED_NAME.pattern}")


def tags(text: str) -> list[tuple[int, int, bool]]:
    """``(start, end, is_close)`` of every fence tag in ``text``, in order, overlaps merged."""
    found: list[tuple[int, int, bool]] = []
    for reading in readings(text):
        if "<" in reading:
            found += [(m.start(), m.end(), m.group("close") is not None)
                      for m in bounded.finditer(TAG, reading)]
    found.sort()
    merged: list[tuple[int, int, bool]] = []
    for start, end, close in found:
        if merged and start < merged[-1][1]:
            s0, e0, c0 = merged[-1]
            merged[-1] = (s0, max(e0, end), c0 or close)
        else:
            merged.append((start, end, close))
    return merged
