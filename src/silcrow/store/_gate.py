"""The approval box: writes held for a person (``write_policy = "approve"``) and their decisions.

A held write is tried on the live entries first and kept as a :class:`Proposal` in the
profile's box (:mod:`silcrow.store._pending`); a person approves it (through the write path,
:meth:`WritePath.commit`, claiming it in the same durable step) or rejects it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from silcrow import safety as threats
from silcrow.store import _address as address
from silcrow.store import _review as review
from silcrow.store._document import Document
from silcrow.store._edits import Edit, threat_reasons
from silcrow.store._pending import (
    MAX_PROPOSAL_BYTES,
    Proposal,
    ProposalBox,
    Proposer,
    current_proposer,
    edit_of,
    effect,
    fingerprint,
    net_changes,
    size,
    usage,
    useful_steps,
)
from silcrow.store._results import Done, MemoryResult, Refusal, Refused
from silcrow.store._write import Holds, WritePath, caller, held_ids, known_target


class Gate:
    """The pending proposals of one store's profile, and the decisions on them."""

    def __init__(self, writes: WritePath) -> None:
        self.writes = writes

    @property
    def box(self) -> ProposalBox:
        return self.writes.backend.proposals()

    def pending(self) -> list[Proposal]:
        return self.box.waiting()

    def box_usage(self) -> dict[str, Any]:
        return usage(self.pending())

    def review(self, *, sequential: bool = False) -> list[dict[str, Any]]:
        """The pending proposals, each with its net effect (see ``MemoryStore.review``)."""
        self.writes.backend.recover()
        current = {target: self.writes.entries(target) for target in self.writes.targets}
        reviewed: list[dict[str, Any]] = []
        for proposal in self.pending():
            item: dict[str, Any] = proposal.as_dict()
            target = proposal.target
            if target not in self.writes.targets:
                reviewed.append({**item, "changes": [], "base": None, "stale": False,
                                 "problem": f"unknown target {target!r}; reject it"})
                continue
            found = effect(proposal, current[target], self.writes.where(target))
            after = found.pop("after")
            if found["problem"] is None:
                over = self.writes.over_budget(target, proposal.action, current[target], after, [])
                if over is not None:
                    found["problem"], found["changes"] = over.error, []
                elif sequential:
                    current[target] = after
            reviewed.append({**item, **found})
        return reviewed

    def propose(self, target: str, action: str, edit: Edit, holds: list[threats.ThreatHit],
                proposer: Proposer, **what: Any) -> Done:
        """Keep a checked write from the model as a pending proposal instead of applying it.

        It is tried on the live entries first (no lock, nothing written): what would be refused
        now (no entry matches ``old_text``, over the budget) is refused now, so the model can
        fix it; a write that would change nothing is answered as done, and a batch's steps
        that change nothing are not kept. A proposal over its size bound, or one the box has
        no room for (see :mod:`silcrow.store._pending`), is refused."""
        writes = self.writes
        current = Document.parse(writes.backend.read(writes.targets[target], strict=True)).entries
        try:
            updated, message = edit(current)
        except Refused as refused:
            raise Refused(replace(refused.refusal, target=target)) from None
        if updated == current:
            return writes.done(target, current, message)
        over = writes.over_budget(target, action, current, updated, [])
        if over is not None:
            raise Refused(over)
        if action == "batch":
            what["operations"] = useful_steps(what["operations"], writes.where(target), current)
        held = threat_reasons(holds) if holds else None
        who = current_proposer.get()
        proposal = Proposal.new(target=target, action=action, proposer=proposer if who is None
                                else who.over(proposer), held=held, **what)
        if (taken := size(proposal)) > MAX_PROPOSAL_BYTES:
            raise Refused(Refusal(
                f"Not saved: this proposal is {taken:,} bytes, over the {MAX_PROPOSAL_BYTES // 1024} KiB "
                "a proposal may take. Save shorter entries, or split the change into smaller writes.",
                target=target))
        self.box.add(proposal)
        message = f"Not saved yet: this change is waiting for the user's approval (proposal {proposal.id})."
        if held:
            message += f" It was held because the threat scan was unsure: {held}."
        return replace(writes.done(target, current, message), pending=True, proposal_id=proposal.id)

    def resolve_id(self, given: str) -> str:
        """The pending proposal's id ``given`` is a unique prefix of (at least four characters),
        else ``given`` itself; :class:`Refused` when it starts several."""
        ids = [p.id for p in self.pending()]
        return address.unique_id(str(given), ids, "pending proposal", "`silcrow memory pending`") or given

    def approve(self, proposal_id: str, *, origin: str, base: str | None = None) -> MemoryResult:
        """Apply a pending proposal through the write path (see ``MemoryStore.approve``)."""
        try:
            proposal_id = self.resolve_id(proposal_id)
        except Refused as refused:
            return refused.refusal.result()
        proposal = next((p for p in self.pending() if p.id == proposal_id), None)
        if proposal is None:
            return self.writes.not_pending(proposal_id).result()
        seen: dict[str, list[str]] = {}
        try:
            target = known_target(proposal.target, self.writes.targets)
            # A held proposal: the person approving it has seen the scanner's reason and confirms
            # the uncertain hits (kept in the journal); a certain threat is still refused.
            holds: Holds = [] if proposal.held else None
            edit = edit_of(proposal, self.writes.where(target), holds)
            done = self.writes.commit(target, proposal.action, origin, edit, appends=proposal.action == "add",
                                      confirmed=held_ids(holds), proposal=proposal, base=base, seen=seen)
        except Refused as refused:
            refusal = refused.refusal
        else:
            result = replace(done, proposal_id=proposal.id).result()
            result["changes"] = net_changes(seen["before"], seen["after"])
            result["base"] = fingerprint(seen["before"])
            return result
        if refusal.error.startswith("no pending proposal"):
            return refusal.result()
        error = refusal.error
        if refusal.unmatched:
            error = (f"Stale: the entry proposal {proposal.id} was made against has changed since. "
                     f"{refusal.error}")
        self.box.note_error(proposal.id, error)
        out = replace(refusal, error=f"{error} The proposal is still pending; reject it with "
                      f"`silcrow memory reject {proposal.id}`.").result()
        out["proposal_id"] = proposal.id
        if refusal.unmatched or refusal.stale:
            out["stale"] = True
        return out

    def reject(self, proposal_id: str, reason: str | None = None) -> MemoryResult:
        """Drop a pending proposal; it is kept a while among the decided ones, with ``reason``."""
        self.writes.backend.recover()  # an approval a crash interrupted is decided first
        try:
            proposal_id = self.resolve_id(proposal_id)
        except Refused as refused:
            return refused.refusal.result()
        proposal = self.box.reject(proposal_id, reason, caller())
        if proposal is None:
            return self.writes.not_pending(proposal_id).result()
        if proposal.finding:  # a review finding: not proposed again while its entries stay as they are
            self.writes.upkeep.touch(lambda state: review.note_declined(state, proposal))
        message = f"Rejected proposal {proposal.summary()}."
        if proposal.target not in self.writes.targets:  # a hand-edited box: nothing to report on
            return {"success": True, "message": message, "proposal_id": proposal.id}
        done = self.writes.done(proposal.target, self.writes.entries(proposal.target), message)
        return replace(done, proposal_id=proposal.id).result()
