"""What the approval gate shows is what it applies; the box is bounded by size and per caller.

Runs on both storage backends (see conftest: files and PostgreSQL).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from silcrow.store import MemoryStore, Proposer, current_proposer
from silcrow.store import _pending as pending_mod
from silcrow.tool import memory_call


def _gated(home: Path, **kwargs: Any) -> MemoryStore:
    return MemoryStore(home, write_policy="approve", **kwargs)


def _as(session: str, store: MemoryStore, call: dict[str, Any]) -> dict[str, Any]:
    token = current_proposer.set(Proposer(session=session, client="rest"))
    try:
        return dict(memory_call(store, call))
    finally:
        current_proposer.reset(token)


TEA_BANK_ZQ = [
    {"action": "replace", "old_text": "tea (zq)", "content": "Drinks tea"},
    {"action": "replace", "old_text": "Bank", "content": "Bank: ACME, account zq"},
    {"action": "remove", "old_text": "zq"},
]


def _tea_and_bank(home: Path) -> MemoryStore:
    store = _gated(home)
    assert store.add("memory", "Drinks tea (zq)", origin="cli")["success"]
    assert store.add("memory", "Bank: ACME", origin="cli")["success"]
    return store


def test_a_batch_is_shown_as_its_net_effect_and_approval_applies_exactly_that(tmp_path: Path) -> None:
    store = _tea_and_bank(tmp_path)
    proposed = memory_call(store, {"target": "memory", "operations": TEA_BANK_ZQ})
    assert proposed.get("pending"), proposed
    [item] = store.review()
    # Step 3 removes the entry step 2 wrote, not the tea entry it matches today.
    assert item["changes"] == [{"before": "Drinks tea (zq)", "after": "Drinks tea"},
                               {"before": "Bank: ACME", "after": None}]
    assert item["problem"] is None and isinstance(item["base"], str)
    result = store.approve(item["id"], base=item["base"])
    assert result["success"], result
    assert store.entries("memory") == ["Drinks tea"]
    assert result["changes"] == item["changes"]


def test_approval_is_refused_as_stale_when_the_notes_changed_since_review(tmp_path: Path) -> None:
    store = _tea_and_bank(tmp_path)
    memory_call(store, {"target": "memory", "operations": TEA_BANK_ZQ})
    [item] = store.review()
    assert store.add("memory", "Likes rain", origin="cli")["success"]  # a person writes meanwhile
    result = store.approve(item["id"], base=item["base"])
    assert result["success"] is False and result["stale"] is True
    assert "changed since" in result["error"] and "review it again" in result["error"]
    assert store.entries("memory") == ["Drinks tea (zq)", "Bank: ACME", "Likes rain"]
    [again] = store.review()
    assert again["id"] == item["id"] and again["base"] != item["base"]
    assert store.approve(again["id"], base=again["base"])["success"]
    assert store.entries("memory") == ["Drinks tea", "Likes rain"]


def test_a_proposal_that_cannot_apply_now_says_why_in_review(tmp_path: Path) -> None:
    store = _gated(tmp_path)
    store.add("memory", "Editor: vim", origin="cli")
    memory_call(store, {"action": "remove", "target": "memory", "old_text": "vim"})
    store.replace("memory", "vim", "Editor: emacs", origin="cli")
    [item] = store.review()
    assert item["changes"] == [] and item["stale"] is True and "vim" in item["problem"]


def test_a_batch_is_bounded_in_operations_and_stores_no_no_op_steps(tmp_path: Path) -> None:
    store = _gated(tmp_path)
    too_many = [{"action": "add", "content": f"fact {i}"} for i in range(pending_mod.MAX_OPERATIONS + 1)]
    result = memory_call(store, {"target": "memory", "operations": too_many})
    assert result["success"] is False and f"at most {pending_mod.MAX_OPERATIONS}" in result["error"]
    assert "split" in result["error"] and store.pending() == []
    store.add("memory", "Editor: vim", origin="cli")
    ops = [{"action": "add", "content": "Name: Sam"}, {"action": "add", "content": "Name: Sam"},
           {"action": "add", "content": "Editor: vim"},
           {"action": "replace", "old_text": "vim", "content": "Editor: vim"}]
    assert memory_call(store, {"target": "memory", "operations": ops}).get("pending")
    [proposal] = store.pending()
    assert proposal.operations == [{"action": "add", "content": "Name: Sam"}]


def test_a_proposal_is_bounded_in_bytes(tmp_path: Path) -> None:
    store = _gated(tmp_path, memory_char_limit=10 * pending_mod.MAX_PROPOSAL_BYTES)
    big = "x" * (pending_mod.MAX_PROPOSAL_BYTES + 1)
    result = memory_call(store, {"action": "add", "target": "memory", "content": big})
    assert result["success"] is False and "bytes" in result["error"] and store.pending() == []
    assert f"{pending_mod.MAX_PROPOSAL_BYTES // 1024} KiB" in result["error"]


def test_the_box_is_bounded_in_bytes_and_refuses_rather_than_evicts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pending_mod, "MAX_BOX_BYTES", 2000)
    store = _gated(tmp_path, memory_char_limit=100_000)
    first = _as("a", store, {"action": "add", "target": "user", "content": "allergic to penicillin"})
    accepted = [first["proposal_id"]]
    refused: dict[str, Any] = {}
    for n in range(40):
        result = _as(f"s{n}", store, {"action": "add", "target": "memory", "content": f"{n} " + "y" * 200})
        if not result.get("pending"):
            refused = result
            break
        accepted.append(result["proposal_id"])
    assert refused and refused["success"] is False and "full" in refused["error"]
    assert [p.id for p in store.pending()] == accepted


def test_a_flood_from_one_caller_cannot_evict_another_callers_proposal(tmp_path: Path) -> None:
    store = _gated(tmp_path)
    allergy = _as("careful", store, {"action": "add", "target": "user",
                                     "content": "User is allergic to penicillin"})
    outcomes = [_as("flood", store, {"action": "add", "target": "memory", "content": f"trivial {n}"})
                for n in range(120)]
    accepted = [o for o in outcomes if o.get("pending")]
    refused = [o for o in outcomes if not o.get("success")]
    assert len(accepted) == pending_mod.MAX_PER_CALLER and len(refused) == 120 - pending_mod.MAX_PER_CALLER
    assert f"{pending_mod.MAX_PER_CALLER} of your proposals" in refused[0]["error"]
    assert not any(o.get("dropped") for o in outcomes)
    pending = store.pending()
    assert allergy["proposal_id"] in [p.id for p in pending]
    # Another caller still has its own quota.
    assert _as("other", store, {"action": "add", "target": "memory", "content": "Editor: vim"}).get("pending")
    # The person reviewing sees whose proposals are being refused.
    box = store.box_usage()
    assert box["full_callers"] == ["session flood"] and box["full"] is False
    assert "session flood" in pending_mod.box_warnings(box)[0]


def test_approve_all_order_meets_the_state_the_earlier_ones_leave(tmp_path: Path) -> None:
    store = _gated(tmp_path)
    store.add("memory", "Shell: zsh", origin="cli")
    first = memory_call(store, {"action": "replace", "target": "memory", "old_text": "zsh",
                                "content": "Shell: fish"})["proposal_id"]
    second = memory_call(store, {"action": "add", "target": "memory",
                                 "content": "Editor: vim"})["proposal_id"]
    preview = store.review(sequential=True)
    assert [i["id"] for i in preview] == [first, second]
    assert store.approve(first, base=preview[0]["base"])["success"]
    assert store.approve(second, base=preview[1]["base"])["success"]  # met the state `first` left
    assert store.entries("memory") == ["Shell: fish", "Editor: vim"]
    assert [d.status for d in store.proposals.decided()] == ["approved", "approved"]


def test_an_approval_that_fails_after_writing_is_all_or_nothing(tmp_path: Path, curated_storage: str) -> None:
    """The journal append fails after the notes were written: on PostgreSQL the transaction
    rolls back whole (still pending); on files the rename is done, so the proposal is decided."""
    from silcrow.store import _files, _postgres

    store = _gated(tmp_path)
    pid = memory_call(store, {"action": "add", "target": "memory", "content": "Drinks tea"})["proposal_id"]

    def broken(self: object, record: dict[str, Any]) -> None:
        raise RuntimeError("the disk went away")

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_files.FileTransaction, "journal", broken)
        patched.setattr(_postgres.PostgresTransaction, "journal", broken)
        with pytest.raises(RuntimeError):
            store.approve(pid)
    store = _gated(tmp_path)
    store.review()
    pending = [p.id for p in store.pending()]
    if curated_storage == "postgres":
        assert pending == [pid] and store.entries("memory") == []
    else:
        assert pending == [] and store.entries("memory") == ["Drinks tea"]
        assert [p.status for p in store.proposals.decided()] == ["approved"]


def test_each_decision_names_who_made_it(tmp_path: Path) -> None:
    store = _tea_and_bank(tmp_path)
    first = _as("m", store, {"action": "add", "target": "memory", "content": "Likes rain"})["proposal_id"]
    second = _as("m", store, {"action": "add", "target": "memory", "content": "Likes snow"})["proposal_id"]
    person = current_proposer.set(Proposer(client="web", token="me", token_id="9f8e7d6c"))
    try:
        assert store.approve(first)["success"] and store.reject(second, "no")["success"]
    finally:
        current_proposer.reset(person)
    decided = {p.id: p for p in store.proposals.decided()}
    assert decided[first].status == "approved" and decided[second].status == "rejected"
    for pid in (first, second):
        assert decided[pid].decided_by == {"client": "web", "token": "me", "token_id": "9f8e7d6c"}
