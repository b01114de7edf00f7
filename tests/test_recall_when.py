"""Relative time in a turn resolved against the date it was said."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._when import in_words, mentioned_dates

MONDAY = date(2023, 5, 8)


def words(text: str) -> list[str]:
    return [in_words(d, p) for d, p in mentioned_dates(text, MONDAY)]


def test_days_relative_to_when_it_was_said() -> None:
    assert words("I went to the support group yesterday") == ["Sunday 7 May 2023"]
    assert words("last Saturday we painted") == ["Saturday 6 May 2023"]
    assert words("on Monday") == ["Monday 1 May 2023"]  # a weekday named on that weekday: a week back
    assert words("I ran a race 3 days ago") == ["Friday 5 May 2023"]


def test_coarser_expressions_keep_their_precision() -> None:
    assert words("we went camping two weeks ago") == ["April 2023"]
    assert words("a couple of months ago") == ["March 2023"]
    assert words("next month we travel") == ["June 2023"]
    assert words("last year") == ["2022"]


def test_letters_the_patterns_take_for_ascii_ones_are_resolved_not_raised() -> None:
    """The patterns match case-insensitively, and so take "ſ" for "s" and "ı" for "i":
    such a turn was matched, then not found in the tables (KeyError, ValueError), and the
    whole import failed on it."""
    assert words("I saw her yeſterday") == ["Sunday 7 May 2023"]
    assert words("last FRıDAY") == ["Friday 5 May 2023"]
    assert words("ſix days ago") == ["Tuesday 2 May 2023"]


def test_ordinary_words_are_not_dates() -> None:
    assert words("May I ask what you march for?") == []
    assert words("Saturdays are busy") == []


def test_the_dated_column_carries_the_resolved_dates() -> None:
    ts = 1683547200.0  # 2023-05-08 12:00 UTC
    assert retrieval.dated_text(ts, "yesterday was great") == "Monday 8 May 2023 Sunday 7 May 2023"
    assert retrieval.dated_text(ts) == "Monday 8 May 2023"


def test_a_date_before_year_one_is_no_date() -> None:
    """Said in 2023, "7000 years ago" is before year 1: it resolves to nothing, never an error."""
    assert words("from 7000 years ago to about 4000 years ago") == []
    assert words("from 7000 years ago to about 300 years ago") == ["1723"]
    assert words("9999999 days ago, or 12345678901 years ago") == []
    assert mentioned_dates("next year", date.max) == []
    assert mentioned_dates("yesterday", date.min) == []


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.one_of(
        st.sampled_from(["yesterday", "tomorrow", "last", "next", "this past", "ago", "a few", "couple of",
                         "week", "weekend", "month", "year", "years", "days", "monday", "Sunday", "on"]),
        st.integers(min_value=0, max_value=10**12).map(str),
        st.text(max_size=8),
    ), max_size=12).map(" ".join),
    st.dates(),
)
def test_the_resolver_fuzzed_never_raises(text: str, said_on: date) -> None:
    for when, precision in mentioned_dates(text, said_on):
        assert precision in ("day", "week", "month", "year")
        assert in_words(when, precision)


def test_every_letter_ignorecase_takes_for_an_ascii_one_is_folded_to_it() -> None:
    """The words a text is checked for before each search are matched against it folded as
    IGNORECASE folds: a letter it takes for an ASCII one but the fold did not would hide a date."""
    import re
    import sys

    from silcrow.recall.local._when import _FOLD

    letter = re.compile("[a-z]", re.IGNORECASE)
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        if letter.fullmatch(ch):
            folded = ch.translate(_FOLD).lower()
            assert len(folded) == 1 and re.fullmatch(folded, ch, re.IGNORECASE), (hex(cp), folded)


_PIECES = ["yesterday", "ToNiGhT", "last night", "this morning", "3 days ago", "a couple of weeks ago",
           "two years ago", "last Friday", "on sunday", "this past weekend", "next month", "past year",
           "fr\u0131day", "\u0130n 2 days ago", "ye\u017fterday", "LA\u017fT WEEK", "\u212aind", "ago",
           "next", "the meeting", "we", "1234567 days ago", "12345678 days ago", "may", "march", "\n", " ",
           ",", "Monday", "NIGHT", "morning", "today!"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.dates())
def test_skipping_a_search_whose_words_a_text_lacks_finds_the_same_dates(
    pieces: list[str], said_on: date
) -> None:
    """The same dates as searching with every pattern, whatever the text holds."""
    import silcrow.recall.local._when as when

    text = " ".join(pieces)
    every = dict.fromkeys(when._NEEDS, ("",))  # "" is in every text: each pattern searches it
    original = when._NEEDS
    try:
        when._NEEDS = every
        expected = mentioned_dates(text, said_on)
    finally:
        when._NEEDS = original
    assert mentioned_dates(text, said_on) == expected
