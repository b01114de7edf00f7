"""Regex searches and per-character rewrites of a long text in short stretches, with exactly the
results of the single calls they replace.

One ``re`` call never releases the interpreter lock: a search of a recall block (fifty facts at
the size cap are 200,000 characters) holds it for as long as that search takes, and a server's
event loop, waiting for the lock while a worker thread screens the block, stalls for that long.
The functions here give the same answers as ``rx.finditer(text)``, ``rx.search(text)``,
``rx.sub(repl, text)``, ``rx.split(text)`` and a per-character ``str`` method, but make many
calls, each over a short stretch of the text, between which the interpreter can switch threads.
A text of up to ``CHUNK`` characters is handed to the single call as before.

Why the answers are the same:

* Where a match can start is read from the pattern (:func:`_starts`): the literal texts every
  match begins with (``\\b(?:curl|wget)\\s`` -> ``curl``, ``wget``), or the start of a line for a
  multi-line ``^``. Those places are found by searching for the texts in windows of ``CHUNK``
  characters, and ``rx.match(text, pos)`` is tried at each, in order, on the whole text: a
  lookbehind, ``\\b`` or ``^`` sees the characters before ``pos`` as a search does, so the match
  found is the one a search finds (a search is a match tried at each position in turn). Every
  such match is non-empty, so ``finditer`` goes on from its end, as ``re`` does. The work of one
  call is one window, or one match attempt.
* A pattern that matches one character (a character class) gives the same matches on any slice:
  it is searched window by window.
* ``str.translate``, ``str.casefold`` and a substitution of a character class by ``""`` map each
  character on its own; NFKC maps a text split between two ASCII characters to the two halves'
  forms joined (an ASCII character is a starter that composes with nothing before or after it).
  These run piece by piece.

A pattern whose starts cannot be read (one that may begin with any letter, or match the empty
string) is handed the whole text in one call, as before; so is a match attempt that runs on (an
unbounded repetition over a long run of its characters): such a call is as long as it was.
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any, NamedTuple

#: The longest stretch of text one call is given (in characters) when a text is split.
CHUNK = 2048

# How many characters of a literal start are worth reading (longer ones only find the same
# places), and how many different starts a pattern may have before it is searched as before.
_PREFIX_CHARS = 6
_MAX_STARTS = 64
_MAX_STEPS = 50_000

_ONE_CHAR = (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY, C.CATEGORY)
_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)

_limit = CHUNK


@contextmanager
def stretch(chars: int) -> Iterator[None]:
    """Within this block a text longer than ``chars`` characters is split (tests use short
    stretches to put many cuts through their texts)."""
    global _limit
    saved, _limit = _limit, chars
    try:
        yield
    finally:
        _limit = saved


def whole_calls() -> AbstractContextManager[None]:
    """Within this block every function here makes the single call it stands for (the baseline
    the fence's bench and tests compare with)."""
    return stretch(1 << 62)


# Where a match begins: at a literal text (_AT_TEXT, "curl"), at the start of a line (a multi-line
# "^") or at the start of the text ("\A", or "^" without MULTILINE).
_AT_TEXT, _AT_LINE, _AT_START = "", "line", "start"
_NOTHING_KNOWN = (_AT_TEXT, "")
_Start = tuple[str, str]


def _capped(chars: set[str], tails: set[_Start]) -> set[_Start]:
    texts = {text for _, text in tails}  # an anchor after a character no longer says where it starts
    if len(chars) * len(texts) > _MAX_STARTS:
        texts = {""}
    return {(_AT_TEXT, ch + text) for ch in chars for text in texts}


def _prefixes(items: list[Any], budget: int, multiline: bool, first: bool = True,
              steps: list[int] | None = None) -> set[_Start]:
    """Where every match of ``items`` begins (see ``_AT_TEXT``); ``_NOTHING_KNOWN`` among them:
    somewhere unknown. ``first``: nothing is matched before ``items``. A pattern that takes more
    than ``_MAX_STEPS`` steps to read (optional parts in a row double them) has unknown starts."""
    steps = [0] if steps is None else steps
    steps[0] += 1
    if not items or budget <= 0 or steps[0] > _MAX_STEPS:
        return {_NOTHING_KNOWN}
    op, arg = items[0]
    rest = items[1:]
    if op is C.AT and first and arg is C.AT_BEGINNING:
        return {(_AT_LINE if multiline else _AT_START, "")}
    if op is C.AT and first and arg is C.AT_BEGINNING_STRING:
        return {(_AT_START, "")}
    if op in _ZERO_WIDTH:
        return _prefixes(rest, budget, multiline, first, steps=steps)
    if op is C.LITERAL:
        return _capped({chr(arg)}, _prefixes(rest, budget - 1, multiline, False, steps=steps))
    if op is C.IN and arg and all(iop is C.LITERAL for iop, _ in arg):
        tails = _prefixes(rest, budget - 1, multiline, False, steps=steps)
        return _capped({chr(iarg) for _, iarg in arg}, tails)
    if op is C.SUBPATTERN:
        _group, add_flags, del_flags, sub = arg
        if (add_flags | del_flags) & C.SRE_FLAG_MULTILINE:
            inner = bool(add_flags & C.SRE_FLAG_MULTILINE)
            if first and list(sub)[:1] == [(C.AT, C.AT_BEGINNING)]:
                return {(_AT_LINE if inner else _AT_START, "")}
            # the group alone, then anything
            return _prefixes(list(sub), budget, inner, first, steps=steps)
        return _prefixes(list(sub) + rest, budget, multiline, first, steps=steps)
    if op is C.ATOMIC_GROUP:
        return _prefixes(list(arg) + rest, budget, multiline, first, steps=steps)
    if op is C.BRANCH:
        out: set[_Start] = set()
        for branch in arg[1]:
            out |= _prefixes(list(branch) + rest, budget, multiline, first, steps=steps)
        return out
    if op in _REPEATS:
        lo, _hi, sub = arg
        # the first repetition, then anything
        once = _prefixes(list(sub), budget, multiline, first, steps=steps)
        return once | _prefixes(rest, budget, multiline, first, steps=steps) if lo == 0 else once
    return {_NOTHING_KNOWN}


def _shortest(found: set[str]) -> tuple[str, ...]:
    """``found`` less every text another one in it begins (its places are the other's too),
    shortened until there are at most ``_MAX_STARTS``."""
    while len(found) > _MAX_STARTS and max(map(len, found)) > 1:
        longest = max(map(len, found))
        found = {text[:longest - 1] for text in found}
    kept: list[str] = []
    for text in sorted(found, key=len):
        if not any(text.startswith(k) for k in kept):
            kept.append(text)
    return tuple(sorted(kept))


def _children(op: Any, arg: Any) -> list[list[Any]]:
    """The sub-patterns of one parsed item."""
    if op is C.SUBPATTERN:
        return [list(arg[3])]
    if op is C.BRANCH:
        return [list(b) for b in arg[1]]
    if op in _REPEATS:
        return [list(arg[2])]
    if op in (C.ASSERT, C.ASSERT_NOT):
        return [list(arg[1])]
    if op is C.ATOMIC_GROUP:
        return [list(arg)]
    if op is C.GROUPREF_EXISTS:
        return [list(b) for b in arg[1:] if b is not None]
    return []


def _any_nocase(items: list[Any]) -> bool:
    """Whether any group of the pattern switches case-insensitive matching on or off."""
    for op, arg in items:
        if op is C.SUBPATTERN and (arg[1] | arg[2]) & C.SRE_FLAG_IGNORECASE:
            return True
        if any(_any_nocase(child) for child in _children(op, arg)):
            return True
    return False


class _Starts(NamedTuple):
    """Where a match of a pattern can begin: where ``finder`` (an alternation of literal texts,
    case-insensitive when any part of the pattern is) matches, ``longest`` characters at most; at
    the start of a line (``lines``); at the start of the text (``text_start``)."""

    finder: re.Pattern[str] | None
    longest: int
    lines: bool
    text_start: bool


@cache
def _starts(rx: re.Pattern[str]) -> _Starts | None:
    """Where a match of ``rx`` can begin; None when that cannot be read. Matched
    case-insensitively by ``re`` itself, a start text matches what the pattern's letter does
    (``"k"`` also the Kelvin sign), so no place is missed."""
    items = list(_parser.parse(rx.pattern, rx.flags))
    found = _prefixes(items, _PREFIX_CHARS, bool(rx.flags & re.MULTILINE))
    if _NOTHING_KNOWN in found:
        return None
    texts = _shortest({text for at, text in found if at == _AT_TEXT})
    nocase = bool(rx.flags & re.IGNORECASE) or _any_nocase(items)
    finder = re.compile("|".join(map(re.escape, texts)), re.IGNORECASE if nocase else 0) if texts else None
    return _Starts(finder, max(map(len, texts), default=0), any(at == _AT_LINE for at, _ in found),
                   any(at == _AT_START for at, _ in found))


@cache
def _one_char(rx: re.Pattern[str]) -> bool:
    """Whether every match of ``rx`` is one character, decided by that character alone."""
    items = list(_parser.parse(rx.pattern, rx.flags))
    return len(items) == 1 and items[0][0] in _ONE_CHAR


@cache
def _char_run(rx: re.Pattern[str]) -> bool:
    """Whether ``rx`` is one character class, alone or repeated from once (``[^a-z]+``): removing
    its matches removes each character of the class, wherever a text is cut."""
    items = list(_parser.parse(rx.pattern, rx.flags))
    if len(items) != 1:
        return False
    op, arg = items[0]
    if op in _ONE_CHAR:
        return True
    return op in _REPEATS and arg[0] == 1 and len(arg[2]) == 1 and arg[2][0][0] in _ONE_CHAR


def _found(finder: re.Pattern[str], longest: int, text: str) -> Iterator[int]:
    """Every place, ascending, where ``finder`` matches in ``text`` (overlapping ones too), each
    found by a search of at most ``_limit + longest`` characters."""
    pos, size = 0, len(text)
    while pos < size:
        end = min(size, pos + _limit)
        m = finder.search(text, pos, min(size, end + longest - 1))
        if m is None or m.start() >= end:
            # No text starts in [pos, end): each would have fitted in the search. One starting
            # later may not have, so the next search begins at ``end``.
            pos = end
            continue
        yield m.start()
        pos = m.start() + 1


def _line_starts(text: str) -> Iterator[int]:
    yield 0
    pos = text.find("\n")
    while pos >= 0:
        yield pos + 1
        pos = text.find("\n", pos + 1)


def _candidates(rx: re.Pattern[str], text: str) -> Iterator[int] | None:
    """Ascending places where a match of ``rx`` in ``text`` may begin, or None (unknown)."""
    starts = _starts(rx)
    if starts is None:
        return None
    streams: list[Iterator[int]] = []
    if starts.finder is not None:
        streams.append(_found(starts.finder, starts.longest, text))
    if starts.lines:
        streams.append(_line_starts(text))
    elif starts.text_start:
        streams.append(iter((0,)))
    return streams[0] if len(streams) == 1 else heapq.merge(*streams)


def _windows(rx: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    for start in range(0, len(text), _limit):
        yield from rx.finditer(text, start, start + _limit)


def finditer(rx: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``rx.finditer(text)``, in short calls on a long text."""
    if len(text) <= _limit:
        return rx.finditer(text)
    if _one_char(rx):
        return _windows(rx, text)
    places = _candidates(rx, text)
    if places is None:
        return rx.finditer(text)
    return _matches(rx, text, places)


def _matches(rx: re.Pattern[str], text: str, places: Iterator[int]) -> Iterator[re.Match[str]]:
    after = 0
    last = -1
    for pos in places:
        if pos < after or pos == last:
            continue
        last = pos
        m = rx.match(text, pos)
        if m is not None:
            yield m
            after = m.end()


def search(rx: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``rx.search(text)``, in short calls on a long text."""
    if len(text) <= _limit:
        return rx.search(text)
    return next(finditer(rx, text), None)


def sub(rx: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    """``rx.sub(repl, text)``, in short calls on a long text."""
    if len(text) <= _limit:
        return rx.sub(repl, text)
    if repl == "" and _char_run(rx):
        return "".join(rx.sub("", piece) for piece in pieces(text))
    out: list[str] = []
    pos = 0
    for m in finditer(rx, text):
        out.append(text[pos:m.start()])
        out.append(repl(m) if callable(repl) else m.expand(repl))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def split(rx: re.Pattern[str], text: str) -> list[str]:
    """``rx.split(text)`` of a pattern without groups, in short calls on a long text."""
    if len(text) <= _limit or rx.groups:
        return rx.split(text)
    out: list[str] = []
    pos = 0
    for m in finditer(rx, text):
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return out


def pieces(text: str) -> list[str]:
    """``text`` cut into pieces of about ``CHUNK`` characters, each cut between two ASCII
    characters (so NFKC and every per-character map give the same result piece by piece); a
    piece runs on past ``CHUNK`` until there is such a place."""
    if len(text) <= _limit:
        return [text]
    out: list[str] = []
    start = 0
    while len(text) - start > _limit:
        cut = start + _limit
        while cut < len(text) and not (text[cut - 1].isascii() and text[cut].isascii()):
            cut += 1
        out.append(text[start:cut])
        start = cut
    out.append(text[start:])
    return out


def each_piece(fn: Callable[[str], str], text: str) -> str:
    """``fn(text)`` for a per-character ``fn`` (``str.translate``, ``str.casefold``), piece by
    piece on a long text."""
    if len(text) <= _limit:
        return fn(text)
    return "".join(fn(piece) for piece in pieces(text))


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, piece by piece on a long text."""
    return each_piece(lambda piece: unicodedata.normalize("NFKC", piece), text)
