"""Relative time in what was said ("last Saturday", "two weeks ago") turned into dates.

A turn dated 8 May 2023 that says "I went to the support group yesterday" is
about 7 May 2023; indexing that date with the turn lets a question that
names the date, the month or the weekday find it. The resolver is small and
English-only on purpose: a full date parser would also read "may" and
"march" in ordinary sentences as months.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3,
}
#: The furthest a relative expression is followed (10,000 years): beyond it there is no date.
_MAX_SHIFT_DAYS = 3_650_000
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBER = "|".join(sorted((re.escape(n) for n in _NUMBERS), key=len, reverse=True))
# At most 7 digits: a longer number is no relative date (and int() of thousands of digits fails).
_AGO = re.compile(rf"\b(\d{{1,7}}|{_NUMBER})\s+(day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_LAST_DAY = re.compile(rf"\b(last|this past|past|on)\s+({'|'.join(_DAYS)})\b", re.IGNORECASE)
_LAST_UNIT = re.compile(r"\b(last|this past)\s+(week|weekend|month|year)\b", re.IGNORECASE)
_NEXT_UNIT = re.compile(r"\b(next)\s+(week|weekend|month|year)\b", re.IGNORECASE)
_FIXED = {"yesterday": -1, "today": 0, "tonight": 0, "last night": -1, "tomorrow": 1, "this morning": 0}
_FIXED_RE = re.compile(r"\b(" + "|".join(sorted(_FIXED, key=len, reverse=True)) + r")\b", re.IGNORECASE)


#: Each pattern below, with the words one of which any match of it holds: a text holding none
#: of them (folded as IGNORECASE matches: ASCII case, and the four other letters it takes for
#: an ASCII one) is not searched by it. Most turns name no time, and five searches of a long
#: answer were a third of the time of writing it.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _folded(text: str) -> str:
    """``text`` as the patterns match it (and as the tables below are keyed): "yeſterday" and
    "frıday" are matched, so they must also be looked up."""
    return text.translate(_FOLD).lower()

_NEEDS: dict[re.Pattern[str], tuple[str, ...]] = {
    _FIXED_RE: ("yesterday", "today", "tonight", "night", "tomorrow", "morning"),
    _AGO: ("ago",),
    _LAST_DAY: tuple(_DAYS),
    _LAST_UNIT: ("last", "past"),
    _NEXT_UNIT: ("next",),
}


def mentioned_dates(text: str, said_on: date) -> list[tuple[date, str]]:
    """(date, precision) for each relative time ``text`` names, said on ``said_on``;
    precision is "day", "week", "month" or "year" (what the expression pins down)."""
    found: list[tuple[date, str]] = []
    folded = _folded(text)
    wanted = {p for p, words in _NEEDS.items() if any(w in folded for w in words)}
    if not wanted:
        return found

    def add(days: int, precision: str) -> None:
        # "7000 years ago" said in 2023 is before year 1, which a date cannot hold: such an
        # expression names no date to index, and the turn is stored without it.
        if abs(days) <= _MAX_SHIFT_DAYS:
            try:
                found.append((said_on + timedelta(days=days), precision))
            except OverflowError:
                pass

    for m in _FIXED_RE.finditer(text) if _FIXED_RE in wanted else ():
        add(_FIXED[_folded(m.group(1))], "day")
    for m in _AGO.finditer(text) if _AGO in wanted else ():
        n = int(m.group(1)) if m.group(1).isdigit() else _NUMBERS[_folded(m.group(1))]
        unit = _folded(m.group(2))
        add(-n * _UNIT_DAYS[unit], "day" if unit == "day" else unit)
    for m in _LAST_DAY.finditer(text) if _LAST_DAY in wanted else ():
        back = (said_on.weekday() - _DAYS.index(_folded(m.group(2)))) % 7 or 7
        add(-back, "day")
    for pattern, sign in ((_LAST_UNIT, -1), (_NEXT_UNIT, 1)):
        for m in pattern.finditer(text) if pattern in wanted else ():
            unit = _folded(m.group(2))
            step = 7 if unit in ("week", "weekend") else _UNIT_DAYS[unit]
            add(sign * step, "week" if unit == "weekend" else unit)
    return found


def in_words(when: date, precision: str) -> str:
    """How a resolved date is indexed: as precise as the expression was."""
    month = when.strftime("%B")
    if precision == "day":
        return f"{_DAYS[when.weekday()].capitalize()} {when.day} {month} {when.year}"
    if precision in ("week", "month"):
        return f"{month} {when.year}"
    return str(when.year)
