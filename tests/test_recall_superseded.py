"""Recall knows what was superseded: of two recalled facts where the later updates the earlier
(the notes review's judgement), the later ranks first and the earlier is shown as of its date."""

from __future__ import annotations

from pathlib import Path

from silcrow.recall.local import LocalProvider


def _provider(tmp_path: Path, *facts: str) -> LocalProvider:
    provider = LocalProvider(tmp_path / "home", embedder="none")
    provider.initialize("s1")
    for fact in facts:
        provider.add_fact(fact)
    return provider


def test_the_later_fact_ranks_first_and_the_earlier_is_shown_as_of_its_date(tmp_path: Path) -> None:
    provider = _provider(tmp_path, "User lives in Lisbon.", "User moved to Porto in June.",
                         "User likes jazz.")
    try:
        hits = [hit.text for hit in provider.search("does the user live in Lisbon", 5).hits]
        assert hits.index("User moved to Porto in June.") < hits.index("User lives in Lisbon.")
        block = provider.prefetch("where does the user live, Lisbon or Porto?", session_id="another")
        lisbon = next(line for line in block.splitlines() if "Lisbon" in line)
        porto = next(line for line in block.splitlines() if "Porto" in line)
        assert "(as of " in lisbon and "a later memory updates it" in lisbon
        assert "as of" not in porto
    finally:
        provider.shutdown()


def test_facts_that_can_both_hold_are_left_as_they_are(tmp_path: Path) -> None:
    provider = _provider(tmp_path, "User is allergic to peanuts.", "User is allergic to cats.",
                         "User's sister lives in Madrid.", "User's brother lives in Oslo.")
    try:
        block = provider.prefetch("what is the user allergic to, and where do the siblings live?",
                                  session_id="another")
        assert block and "as of" not in block
    finally:
        provider.shutdown()
