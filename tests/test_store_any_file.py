"""Whatever a memory file held before, a write leaves every other entry byte for byte as it was.

The files are generated, not written by silcrow: stray '§' lines, padded
delimiters, CRLF and lone CR line endings, backslashes, repeated entries,
blank pieces, bytes that are not UTF-8. Each write is checked against the
file parsed independently, the way Hermes reads it (Python text mode,
split on the delimiter, strip, drop empty pieces, keep the first copy).
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from silcrow import safety as threats
from silcrow.store import MemoryStore
from silcrow.store import _entries as E
from silcrow.store._document import Document

_piece = st.lists(
    st.sampled_from(["§", "\\", "\n", "\r", "\r\n", " ", "\t", "a", "b", "é"]), max_size=12
).map("".join)
_file_text = st.one_of(
    st.lists(_piece, max_size=8).map("".join),
    # Entries joined by real delimiters in any line ending, some of them repeated or empty.
    st.lists(st.one_of(_piece, st.sampled_from(["x", "y z", "x\r\nw", "a\n§", "§"])), max_size=6).flatmap(
        lambda parts: st.sampled_from(["\n§\n", "\r\n§\r\n", "\r§\r", "\n§\r\n"]).map(
            lambda delimiter: delimiter.join(parts)
        )
    ),
)
_raw_file = st.tuples(_file_text, st.booleans()).map(
    # Sometimes a byte that is not UTF-8 at the end.
    lambda pair: pair[0].encode("utf-8") + (b"\xff" if pair[1] else b"")
)
_new_entry = st.lists(
    st.sampled_from(["§", "\\", "\n", " ", "c", "d", "\r\n"]), min_size=1, max_size=10
).map(lambda chars: E.normalize_entry("".join(chars))).filter(lambda e: bool(e) and not threats.scan(e))


def hermes_entries(data: bytes) -> list[str]:
    """The entries as Hermes reads the file (then unescaped, the one thing silcrow adds)."""
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape").read()
    pieces = [p.strip() for p in text.split("\n§\n")]
    return list(dict.fromkeys(E.unescape_entry(p) for p in pieces if p))


def _spans(data: bytes) -> dict[str, str]:
    return Document.parse(data.decode("utf-8", "surrogateescape")).spans


def _check_write(before: bytes, after: bytes, expected: list[str]) -> None:
    assert hermes_entries(after) == expected
    old, new = _spans(before), _spans(after)
    for entry in expected:
        if entry in old:
            assert new[entry] == old[entry], "a kept entry changed its bytes"


@settings(max_examples=300, deadline=None)
@given(_raw_file)
def test_reading_matches_hermes(data: bytes) -> None:
    document = Document.parse(data.decode("utf-8", "surrogateescape"))
    assert document.entries == hermes_entries(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_raw_file, _new_entry, st.data())
def test_every_write_keeps_every_other_entry(data: bytes, new: str, draw: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as home:
        path = Path(home) / "memories" / "MEMORY.md"
        path.parent.mkdir()
        path.write_bytes(data)
        store = MemoryStore(home, memory_char_limit=10**6)
        before = hermes_entries(data)
        action = draw.draw(st.sampled_from(["add", "replace", "remove", "batch"]))
        if action == "add":
            result = store.add("memory", new)
            expected = before if new in before else [*before, new]
        else:
            assume(before)
            target = draw.draw(st.sampled_from(before))
            if action == "replace":
                result = store.replace("memory", target, new)
                expected = [new if e == target else e for e in before]
                expected = list(dict.fromkeys(expected))
            elif action == "remove":
                result = store.remove("memory", target)
                expected = [e for e in before if e != target]
            else:
                result = store.apply_batch(
                    "memory",
                    [{"action": "remove", "old_text": target}, {"action": "add", "content": new}],
                )
                rest = [e for e in before if e != target]
                expected = rest if new in rest else [*rest, new]
        after = path.read_bytes()
        if not result["success"]:
            # Refused (a file silcrow would not rewrite, or an old_text that is ambiguous
            # after stripping): nothing changed.
            assert after == data, result
            assert action != "add" or "larger than" in result["error"], result
            return
        _check_write(data, after, expected)
        if action == "add" and new not in before:
            # An append keeps every byte of the file up to the end of its last entry.
            document = Document.parse(data.decode("utf-8", "surrogateescape"))
            head = document.raw[: document.end].encode("utf-8", "surrogateescape")
            assert after.startswith(head) and data.startswith(head)


def test_an_entry_ending_in_a_section_line_keeps_it_on_add(tmp_path: Path) -> None:
    path = tmp_path / "memories" / "MEMORY.md"
    path.parent.mkdir()
    path.write_bytes("first\n§\nlast line\n§".encode())
    store = MemoryStore(tmp_path)
    assert store.entries("memory") == ["first", "last line\n§"]
    assert store.add("memory", "new entry")["success"]
    assert store.entries("memory") == ["first", "last line\n§", "new entry"]
    assert hermes_entries(path.read_bytes()) == ["first", "last line\n§", "new entry"]
    assert path.read_bytes().startswith("first\n§\nlast line\n§".encode())


@settings(max_examples=300, deadline=None)
@given(_raw_file, st.data())
def test_any_rewrite_keeps_the_entries_it_keeps(data: bytes, draw: st.DataObject) -> None:
    # Replace, remove and undo refuse files with stray '§' lines; the writer keeps them anyway.
    document = Document.parse(data.decode("utf-8", "surrogateescape"))
    assume(document.entries)
    kept = draw.draw(st.lists(st.sampled_from(document.entries), unique=True))
    again = Document.parse(document.render(kept))
    assert again.entries == kept
    assert all(again.spans[entry] == document.spans[entry] for entry in kept)


def test_a_kept_entry_ending_in_a_section_line_can_be_followed_by_another() -> None:
    document = Document.parse("first\n§\nlast line\n§")
    for order in (["last line\n§", "first"], ["last line\n§", "new"]):
        again = Document.parse(document.render(order))
        assert again.entries == order
        assert again.spans["last line\n§"] == "last line\n§"
