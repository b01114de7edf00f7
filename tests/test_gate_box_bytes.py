"""The box of pending proposals is bounded per caller in bytes as well as in count: callers
proposing large entries cannot fill it between them (before, two did) and shut out the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from silcrow.store import MemoryStore, Proposer, current_proposer
from silcrow.store import _pending as pending_mod
from silcrow.tool import memory_call


def _as(session: str, store: MemoryStore, call: dict[str, Any]) -> dict[str, Any]:
    token = current_proposer.set(Proposer(session=session, client="rest"))
    try:
        return dict(memory_call(store, call))
    finally:
        current_proposer.reset(token)


def _large(label: str) -> str:
    """An ordinary entry just under the bound of one proposal."""
    words = " ".join(f"{label} keeps note {n} about the build." for n in range(2000))
    return words[:pending_mod.MAX_PROPOSAL_BYTES - 2048].rsplit(" ", 1)[0]


def test_two_callers_cannot_fill_the_box_with_large_proposals(tmp_path: Path) -> None:
    limit = 10 * pending_mod.MAX_PROPOSAL_BYTES
    store = MemoryStore(tmp_path, write_policy="approve", memory_char_limit=limit)
    for who in ("flood-1", "flood-2"):
        outcomes = [_as(who, store, {"action": "add", "target": "memory", "content": f"{n}: {_large(who)}"})
                    for n in range(pending_mod.MAX_PER_CALLER)]
        refused = [o for o in outcomes if not o.get("success")]
        assert refused, f"{who}: all {len(outcomes)} large proposals kept"
        assert f"{pending_mod.MAX_CALLER_BYTES:,} bytes one caller may have waiting" in refused[0]["error"]
        assert "Nothing was saved" in refused[0]["error"]
        theirs = [p for p in store.pending() if p.who.get("session") == who]
        assert sum(pending_mod.size(p) for p in theirs) <= pending_mod.MAX_CALLER_BYTES
        assert len(theirs) < pending_mod.MAX_PER_CALLER  # the bytes bound, not the count, refused
    # Another caller still has room, and the person reviewing sees whose proposals are refused.
    assert _as("careful", store, {"action": "add", "target": "user",
                                  "content": "User is allergic to penicillin"}).get("pending")
    box = store.box_usage()
    assert box["full"] is False and box["full_callers"] == ["session flood-1", "session flood-2"]
    assert box["max_bytes_per_caller"] == pending_mod.MAX_CALLER_BYTES
    assert '"session flood-1"' in pending_mod.box_warnings(box)[0]
    assert pending_mod.MAX_CALLER_BYTES * 5 <= pending_mod.MAX_BOX_BYTES  # five callers fit, as in count
