"""`memory review` never calls an entry contained in, or a duplicate of, one that says the
opposite: "Deploy on Fridays" is not said by "Never deploy on Fridays"."""

from __future__ import annotations

import pytest

from silcrow.store._review import find

OPPOSITES = [
    ("Deploy on Fridays", "Never deploy on Fridays"),
    ("Use tabs for indentation", "Do not use tabs for indentation"),
    ("User drinks coffee", "User no longer drinks coffee"),
    ("Run the tests in Docker", "Run the tests without Docker"),
]


@pytest.mark.parametrize(("first", "second"), OPPOSITES)
def test_opposites_are_not_contained_or_duplicates(first: str, second: str) -> None:
    for entries in ([first, second], [second, first]):
        kinds = [f.kind for f in find("memory", entries)]
        assert "contained" not in kinds and "duplicate" not in kinds, (entries, kinds)


def test_a_plain_containment_and_a_near_duplicate_are_still_found() -> None:
    kinds = [f.kind for f in find("memory", ["Deploy on Fridays", "Deploy on Fridays after the standup"])]
    assert kinds == ["contained"]
    kinds = [f.kind for f in find("memory", ["Never deploy on Fridays.", "Never deploy on Fridays!"])]
    assert kinds in (["contained"], ["duplicate"])
