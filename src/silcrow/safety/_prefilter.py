"""The literal texts a regex must start with, so a scan can skip a pattern with a
substring test (C speed) when none of them occurs in the text.

``first_literals(r"\\b(?:curl|wget)\\s")`` is ``("curl", "wget")``; a pattern that can start
with a character class or an optional part has none (``None``: always run it).
"""

from __future__ import annotations

import re
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)


# At most this many literals for one gate when a literal run is continued into the group after it.
_MAX_LITERALS = 64


def _prefixes(items: list[Any]) -> set[str] | None:
    run: list[str] = []
    for op, arg in items:
        if op in _ZERO_WIDTH and not run:
            continue
        if op is C.LITERAL:
            run.append(chr(arg))
            continue
        if run:
            # The parser factors a common start out of alternatives ("soy|somos" is "so(?:y|mos)"):
            # the run goes on into the group after it, so the gate is "soy"/"somos", not "so".
            head = "".join(run)
            tails = _prefixes([(op, arg)]) if op in (C.SUBPATTERN, C.BRANCH, C.IN) else None
            if tails and all(tails) and len(tails) <= _MAX_LITERALS:
                return {head + tail for tail in tails}
            return {head}
        if op is C.SUBPATTERN:
            return _prefixes(list(arg[-1]))
        if op is C.BRANCH:
            out: set[str] = set()
            for branch in arg[1]:
                found = _prefixes(list(branch))
                if not found:
                    return None
                out |= found
            return out
        if op is C.IN and all(iop is C.LITERAL for iop, _ in arg):
            return {chr(iarg) for _, iarg in arg}
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and arg[0] >= 1:
            return _prefixes(list(arg[2]))
        return None
    return {"".join(run)} if run else None


def first_literals(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Texts one of which starts every match of ``pattern``, or None when that is unknown."""
    if pattern.flags & re.IGNORECASE:
        return None
    found = _prefixes(list(_parser.parse(pattern.pattern, pattern.flags)))
    return tuple(sorted(found)) if found and all(found) else None


def may_match(literals: tuple[str, ...] | None, text: str) -> bool:
    return literals is None or any(lit in text for lit in literals)


def all_literals(gates: tuple[tuple[str, ...] | None, ...]) -> tuple[str, ...]:
    """Every literal of ``gates``, once."""
    return tuple(sorted({lit for gate in gates if gate for lit in gate}))


def found_literals(literals: tuple[str, ...], text: str) -> frozenset[str]:
    """Which of ``literals`` (see :func:`all_literals`) occur in ``text``: each is tested once,
    however many gates share it; then :func:`gate_open` answers :func:`may_match` for a gate."""
    return frozenset([lit for lit in literals if lit in text])


def gate_open(literals: tuple[str, ...] | None, found: frozenset[str]) -> bool:
    """:func:`may_match` of a text, given the :func:`found_literals` of that text."""
    return literals is None or not found.isdisjoint(literals)


# Characters of a text read in one call (see GateIndex._first_chars).
_SLICE = 2048


class GateIndex:
    """Which of a table's gates are open for a text, computed from the literals found in it
    instead of asking :func:`gate_open` of each gate: a short note opens almost none, so a
    scan visits only the few patterns that can match, in table order."""

    def __init__(self, gates: tuple[tuple[str, ...] | None, ...]) -> None:
        self.literals = all_literals(gates)
        self._always = tuple(i for i, gate in enumerate(gates) if gate is None)
        opens: dict[str, list[int]] = {}
        for index, gate in enumerate(gates):
            for literal in gate or ():
                opens.setdefault(literal, []).append(index)
        self._opens = {literal: tuple(indexes) for literal, indexes in opens.items()}
        # The literals by their first character: a literal whose first character is not in a
        # text is not in it either, so a note tests only the literals of the scripts it is
        # written in (an English note skips the Cyrillic, CJK, Arabic and Devanagari ones).
        by_first: dict[str, list[str]] = {}
        for literal in self.literals:
            by_first.setdefault(literal[0], []).append(literal)
        self._by_first = {first: tuple(lits) for first, lits in by_first.items()}
        self._firsts = frozenset(by_first)

    def _first_chars(self, text: str) -> frozenset[str] | set[str]:
        """The first characters of literals that occur in ``text``. A long text (a recall block) is
        read in slices: one call over all of it would hold the interpreter lock that long."""
        if len(text) <= _SLICE:
            return self._firsts.intersection(text)
        found: set[str] = set()
        for start in range(0, len(text), _SLICE):
            found |= self._firsts.intersection(text[start:start + _SLICE])
        return found

    def open(self, text: str) -> list[int]:
        """The indexes, ascending, of the gates :func:`gate_open` opens for ``text``."""
        by_first = self._by_first
        found = [lit for first in self._first_chars(text) for lit in by_first[first] if lit in text]
        if not found:
            return list(self._always)
        indexes = set(self._always)
        for literal in found:
            indexes.update(self._opens[literal])
        return sorted(indexes)
