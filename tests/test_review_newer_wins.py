"""`memory review` never proposes removing the newer of two conflicting entries, and a merge
keeps every fact of both: one case per kind of change, reviewed with the real default
embedder and applied as `memory approve --all` does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from silcrow.store import MemoryStore
from silcrow.store import _ledger as ledger

UNRELATED = ["User's favourite board game is Catan.", "User keeps a bonsai on the balcony.",
             "User volunteers at an animal shelter on Saturdays."]

CHANGES = {
    "value": ("User is 34 years old.", "User just turned 35."),
    "value, same wording": ("User's phone number is 555-0142.", "User's phone number is 555-0199."),
    "move": ("User lives in Lisbon.", "User moved to Porto in June."),
    "move of a host": ("The staging host is staging1.internal.", "Staging moved to staging-eu.internal."),
    "rename": ("User's name is Anna.", "User's name is Ana."),
    "rename of a branch": ("The default branch is master.", "The default branch was renamed to main."),
    "pronouns": ("User's pronouns are he/him.", "User's pronouns are they/them."),
    "switch": ("Favourite editor is Vim.", "Switched from Vim to Emacs last month."),
    "switch of a habit": ("Prefers tabs for indentation.", "Prefers spaces for indentation now."),
    "quit/start": ("Works as a data engineer at Acme.", "Now a product manager at Globex."),
    "quit": ("User smokes.", "User quit smoking in January."),
    "count": ("User has two kids.", "User has three kids now."),
    "relationship": ("User is single.", "User got married in May."),
    "relationship, a person": ("User's manager is Priya.", "After the reorg, user's manager is Tom."),
    "language preference": ("Preferred answer language: French.", "Preferred answer language: German."),
    "tool preference": ("Use black for formatting Python.", "Use ruff format instead of black for Python."),
    "time-zone preference": ("User's time zone is Europe/Lisbon.", "User's time zone is America/New_York."),
}


@pytest.fixture(scope="module")
def embed():  # the real default embedder, from its package
    from silcrow.models import get_embedder

    return get_embedder("bge").embed


def _approve_all(store: MemoryStore) -> None:
    for item in store.review(sequential=True):
        assert store.approve(str(item["id"]), base=item.get("base") or None)["success"], item


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_newer_entry_stays_and_the_older_goes(tmp_path: Path, embed, change: str) -> None:
    older, newer = CHANGES[change]
    store = MemoryStore(tmp_path / "home")
    for text in [*UNRELATED, older, newer]:
        store.add("user", text, origin="cli")
    findings = store.consolidate(embed=embed)
    assert [f["kind"] for f in findings] == ["contradicted"], findings
    assert findings[0]["remove"] == [older] and "replace" not in findings[0]
    _approve_all(store)
    assert store.entries("user") == [*UNRELATED, newer]
    assert older in [item["text"] for item in store.archived()]


def test_without_an_embedder_the_newer_still_wins(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "home")
    for text in [*UNRELATED, "Preferred answer language: French.", "Preferred answer language: German.",
                 "User is 34 years old.", "User is 35 years old."]:
        store.add("user", text, origin="cli")
    _approve_all_after(store, embed=None)
    assert store.entries("user") == [*UNRELATED, "Preferred answer language: German.",
                                     "User is 35 years old."]


def _approve_all_after(store: MemoryStore, embed) -> None:
    store.consolidate(embed=embed)
    _approve_all(store)


def test_the_ledger_says_which_is_newer_not_the_file_order(tmp_path: Path, embed) -> None:
    """German was written last, though a hand edit put it first in the file."""
    store = MemoryStore(tmp_path / "home")
    store.add("user", "Preferred answer language: German.", origin="cli")
    store.add("user", "Preferred answer language: French.", origin="cli")
    store.details()
    state = ledger.parse(store.backend.ledger().read())
    known = state["entries"]["user"]
    now = datetime.now(UTC)
    for text, days in (("Preferred answer language: French.", 20), ("Preferred answer language: German.", 2)):
        known[text]["added"] = known[text]["changed"] = (now - timedelta(days=days)).isoformat()[:19] + "Z"
    store.backend.ledger().change(lambda _text: ledger.render(state))
    _approve_all_after(store, embed)
    assert store.entries("user") == ["Preferred answer language: German."]


@pytest.mark.parametrize(("older", "newer", "facts"), [
    ("User prefers concise answers.", "User likes short, concise answers.", ["concise"]),
    ("Peanut allergy.", "User is allergic to peanuts.", ["peanut"]),
    ("User has a peanut allergy.", "User is allergic to peanuts and carries an EpiPen.",
     ["peanut", "EpiPen"]),
    ("The database is PostgreSQL 16.", "We run Postgres 16 as the database.", ["Postgres", "16"]),
])
def test_a_merge_leaves_one_entry_with_every_fact(tmp_path: Path, embed, older: str, newer: str,
                                                  facts: list[str]) -> None:
    store = MemoryStore(tmp_path / "home")
    for text in [*UNRELATED, older, newer]:
        store.add("user", text, origin="cli")
    findings = store.consolidate(embed=embed)
    assert [f["kind"] for f in findings] == ["duplicate"], findings
    _approve_all(store)
    entries = store.entries("user")
    assert entries[:3] == UNRELATED and len(entries) == 4
    assert all(fact.casefold() in entries[3].casefold() for fact in facts), entries


@pytest.mark.parametrize(("first", "second"), [
    ("User is allergic to peanuts.", "User is allergic to cats."),
    ("User has a dog named Rex.", "User has a cat named Luna."),
    ("User's sister lives in Madrid.", "User's brother lives in Oslo."),
    ("User works at Acme.", "User's partner works at Globex."),
    ("User has 10 years of experience.", "User has 3 years of experience with Kubernetes."),
])
def test_independent_facts_on_one_topic_are_left_alone(tmp_path: Path, embed, first: str,
                                                       second: str) -> None:
    store = MemoryStore(tmp_path / "home")
    for text in [*UNRELATED, first, second]:
        store.add("user", text, origin="cli")
    assert store.consolidate(embed=embed) == []
