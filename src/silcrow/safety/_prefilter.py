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


def _prefixes(items: list[Any]) -> set[str] | None:
    run: list[str] = []
    for op, arg in items:
        if op in _ZERO_WIDTH and not run:
            continue
        if op is C.LITERAL:
            run.append(chr(arg))
            continue
        if run:
            return {"".join(run)}
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
