"""``Near``: "a verb, then within N characters on the same line, an object", in linear time.

A regex like ``verb[^\\n]{0,80}?object`` tries the object at up to 80 places after
every verb: on a text that repeats the verb (``>>>>>>...``) that is 80 attempts per
character. ``Near`` finds every verb and every object once each and pairs them up.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from silcrow.safety import _bounded as bounded


@dataclass(frozen=True)
class Near:
    """Matches where ``second`` starts at most ``gap`` characters after ``first`` ends
    (with no newline between when ``same_line``), or where the optional ``also`` regex matches."""

    first: str
    gap: int
    second: str
    also: str = ""
    same_line: bool = True

    @cached_property
    def patterns(self) -> tuple[re.Pattern[str], ...]:
        """The compiled parts, on first use."""
        return tuple(re.compile(rx) for rx in (self.first, self.second, self.also) if rx)

    def search(self, text: str) -> re.Match[str] | None:
        """The match of ``first`` that starts a hit (or of ``also``), else None."""
        first, second, *also = self.patterns
        if also and (hit := bounded.search(also[0], text)):
            return hit
        firsts = list(bounded.finditer(first, text))
        if not firsts:
            return None
        ends = [m.end() for m in firsts]
        for m in bounded.finditer(second, text):
            i = bisect_right(ends, m.start()) - 1  # the closest first-match before this one
            if i >= 0 and m.start() - ends[i] <= self.gap and not (
                self.same_line and "\n" in text[ends[i]:m.start()]
            ):
                return firsts[i]
        return None
