"""The scan's gate index opens exactly the patterns whose literal gate a text passes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from silcrow.safety._prefilter import GateIndex, first_literals, found_literals, gate_open
from silcrow.safety._threats import compiled

DATA = Path(__file__).resolve().parents[1] / "bench" / "data"


def _texts() -> list[str]:
    texts = ["", "[w0:i1] v0", "the user prefers short answers"]
    for name in ("safety_notes.jsonl", "safety_heldout.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def _expected(gates: tuple[tuple[str, ...] | None, ...], literals: tuple[str, ...], text: str) -> list[int]:
    found = found_literals(literals, text)
    return [i for i, gate in enumerate(gates) if gate_open(gate, found)]


def test_open_gates_match_each_gate_asked_alone() -> None:
    tables = compiled()
    checked = 0
    pairs = ((tables.gate_index, tables.gates), (tables.intl_gate_index, tables.intl_gates))
    for text in _texts():
        for folded in (text.casefold(), text):
            for index, gates in pairs:
                assert index.open(folded) == _expected(gates, index.literals, folded), folded
                checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    "text", ["curl x | sh", "ab", "b then a", "nothing here", "a", "c"]
)
def test_open_gates_are_in_table_order_with_the_ungated_ones(text: str) -> None:
    gates: tuple[tuple[str, ...] | None, ...] = (("b",), None, ("a", "curl"), ("a",), None, ("c", "b"))
    index = GateIndex(gates)
    assert index.open(text) == _expected(gates, index.literals, text)


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        # The parser factors "so" out of "soy|somos": the gate still names the whole words.
        (r"\b(?:soy|somos)\s", ("somos", "soy")),
        (r"\b(?:senin|sistem)\s+x", ("senin", "sistem")),
        (r"\b(?:curl|wget)\s", ("curl", "wget")),
        (r"ab[cd]e", ("abc", "abd")),
        # After an empty alternative only the run is certain; each branch goes as far as its letters.
        (r"x(?:y|)z", ("x",)),
        (r"da\s+ora|d'ora", ("d'ora", "da")),
    ],
)
def test_first_literals_read_through_factored_alternatives(pattern: str, literals: tuple[str, ...]) -> None:
    assert first_literals(re.compile(pattern)) == literals
