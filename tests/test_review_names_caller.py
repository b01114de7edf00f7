"""The review pass's proposals name who asked for the pass (a server's caller: its token, as
the server records it in ``current_proposer``), like every other proposal."""

from __future__ import annotations

from pathlib import Path

from silcrow.store import MemoryStore, Proposer, current_proposer


def test_review_proposals_name_the_token_that_asked(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "home", write_policy="approve")
    store.add("user", "User lives in Lisbon", origin="cli")
    store.add("user", "User moved to Porto in 2025", origin="cli")
    reset = current_proposer.set(Proposer(client="rest", token="agent", token_id="1a2b3c4d",
                                          claimed_session="s-9"))
    try:
        [finding] = store.consolidate()
    finally:
        current_proposer.reset(reset)
    [proposal] = store.pending()
    assert proposal.id == finding["proposal_id"]
    assert proposal.who == {"client": "review", "token": "agent", "token_id": "1a2b3c4d",
                            "claimed_session": "s-9"}


def test_a_review_from_the_cli_is_the_review_client(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "home", write_policy="approve")
    store.add("user", "User lives in Lisbon", origin="cli")
    store.add("user", "User moved to Porto in 2025", origin="cli")
    store.consolidate()
    assert [p.who for p in store.pending()] == [{"client": "review"}]
