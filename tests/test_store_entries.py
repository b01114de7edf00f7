"""Delimiter, escaping and round trips of memory files."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow import safety as threats
from silcrow import store as store_pkg
from silcrow.store import ENTRY_DELIMITER, MemoryStore
from silcrow.store import _document as D
from silcrow.store import _entries as E

# Text biased towards what can break a §-delimited format: section signs,
# backslashes and newlines, mixed with arbitrary Unicode.
_tricky = st.text(alphabet=st.sampled_from(["§", "\\", "\n", " ", "a", "\r", "\t"]), max_size=30)
_any_text = st.one_of(_tricky, st.text(max_size=60), st.lists(_tricky, max_size=4).map("".join))
_entry = _any_text.map(E.normalize_entry).filter(bool)


def test_delimiter_is_exactly_newline_section_newline() -> None:
    assert ENTRY_DELIMITER == "\n§\n"
    assert store_pkg.ENTRY_DELIMITER is ENTRY_DELIMITER


def test_parse_splits_on_the_whole_delimiter_only() -> None:
    raw = "price is 5§ per unit\n§\nsection § 3 of the spec\n§\n  padded  \n§\n\n§\n"
    assert D.parse(raw) == ["price is 5§ per unit", "section § 3 of the spec", "padded"]


def test_lines_of_only_section_signs_are_escaped_and_restored() -> None:
    entry = "before\n§\n\\§\n\\\\§\n  § \r\nafter"
    on_disk = E.escape_entry(entry)
    assert on_disk == "before\n\\§\n\\\\§\n\\\\\\§\n  \\§ \r\nafter"
    # Line endings are stored as "\n", the way Hermes (and Python's text mode) reads them.
    stored = E.normalize_entry(entry)
    assert stored == entry.replace("\r\n", "\n")
    assert D.parse(E.serialize([stored, "second"])) == [stored, "second"]
    # A plain entry is written as is: the file stays readable by Hermes.
    assert E.escape_entry("costs 5 §\n§ 3 applies") == "costs 5 §\n§ 3 applies"


@settings(max_examples=400, deadline=None)
@given(st.lists(_entry, max_size=6, unique=True))
def test_round_trip_is_exact_for_any_entries(entries: list[str]) -> None:
    raw = E.serialize(entries)
    assert D.parse(raw) == entries
    assert D.shape_problems(raw, char_limit=10**9) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(_entry.filter(lambda e: not threats.scan(e)), min_size=1, max_size=4, unique=True))
def test_round_trip_through_the_store_and_disk(entries: list[str]) -> None:
    with tempfile.TemporaryDirectory() as home:
        store = MemoryStore(home, memory_char_limit=10**6)
        for entry in entries:
            assert store.add("memory", entry)["success"]
        assert store.entries("memory") == entries
        assert MemoryStore(home).entries("memory") == entries


def test_hermes_memory_file_reads_unchanged(tmp_path: Path) -> None:
    # Written the way Hermes writes it: stripped entries joined by the delimiter.
    hermes_entries = [
        "User's project is a Rust web service at ~/code/api (Axum + SQLx)",
        "The CI runs `cargo nextest`; flaky test: auth::refresh_token under load",
        "Prefers concise answers; dislikes emojis\nUses fish shell on macOS",
        "Costs are quoted in € and §-numbered clauses refer to the 2024 contract",
    ]
    memories = tmp_path / "memories"
    memories.mkdir()
    raw = "\n§\n".join(hermes_entries)
    (memories / "MEMORY.md").write_text(raw, encoding="utf-8")
    (memories / "USER.md").write_text("Name: Sam\n§\nTimezone: Europe/Berlin\n", encoding="utf-8")
    store = MemoryStore(tmp_path)
    assert store.entries("memory") == hermes_entries
    assert store.entries("user") == ["Name: Sam", "Timezone: Europe/Berlin"]
    assert store.doctor()[0]["ok"] is True
    # A write keeps the Hermes shape: the untouched entries come back byte for byte.
    assert store.add("memory", "New fact")["success"]
    assert (memories / "MEMORY.md").read_text(encoding="utf-8") == raw + "\n§\nNew fact"


def test_matching_rules() -> None:
    entries = ["alpha one", "alpha two", "beta", "beta"]
    assert E.find(entries, "alpha").ambiguous
    same = E.find(entries, "beta")
    assert same.found and not same.ambiguous and same.indexes == [2, 3]
    assert not E.find(entries, "gamma").found


def test_preview_is_one_line_of_at_most_80_chars() -> None:
    long = "word " * 40 + "\nsecond line"
    shown = E.preview(long)
    assert len(shown) == 80 and "\n" not in shown and shown.endswith("…")
    assert E.preview("short\nentry") == "short entry"


def test_usage_is_floored_with_thousands_separators() -> None:
    assert E.format_usage(1364, 2200) == "62% — 1,364/2,200 chars"
    assert E.format_usage(2199, 2200) == "99% — 2,199/2,200 chars"
    assert E.format_usage(3010, 2200) == "136% — 3,010/2,200 chars"


def test_shape_problems_detect_what_a_rewrite_would_change() -> None:
    assert D.shape_problems("a\n§\nb\n", 100) == []
    assert D.shape_problems("a\r\n§\r\nb", 100) == []  # CRLF reads as Hermes reads it
    assert "delimiter" in D.shape_problems("a\n§ \nb", 100)[0]
    assert "bare" in D.shape_problems("a\n§\n§\nb", 100)[0]
    assert "larger than" in D.shape_problems("x" * 101, 100)[0]
    assert "UTF-8" in D.shape_problems("ok \udcff", 100)[0]


_PIECES = st.lists(
    st.sampled_from(["a", "b c", " ", "\n", "§", "\\§", "  §", "x\n§\ny", "\t", "é", "\r", "\r\n", "a"]),
    max_size=8,
).map("".join)
# The usual file: what the fast path reads.
_PLAIN = st.lists(st.sampled_from(["a", "b c", " ", "\n", "\t", "é", "a"]), max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=6) | st.lists(_PLAIN, max_size=6),
       st.lists(_PIECES | _PLAIN, max_size=6))
def test_the_fast_parse_and_render_agree_with_the_general_ones(pieces: list[str], new: list[str]) -> None:
    # Document.parse takes a fast path for the usual file (no '\r', no '§' but the
    # delimiters'); it must read and write back exactly what the general path does.
    from silcrow.store._document import Document

    raw = ENTRY_DELIMITER.join(pieces)
    fast, general = Document.parse(raw), Document._parse_general(raw)
    assert (fast.entries, fast.spans, fast.section_pieces, fast.newline, fast.duplicates, fast.end) == (
        general.entries, general.spans, general.section_pieces, general.newline, general.duplicates,
        general.end)
    additions = [E.normalize_entry(n) for n in new if n.strip()]
    for updated in (fast.entries + additions, additions + fast.entries[1:], fast.entries[::-1]):
        updated = list(dict.fromkeys(updated))
        text = fast.render(updated)
        assert text == general.render(updated)
        # What a write keeps for the next one (instead of parsing its own file again).
        after = fast.successor(updated, text)
        if after is not None:
            assert after == Document.parse(text)
