"""The notes' upkeep: what silcrow knows about each entry, the archive, and the review pass.

Entry metadata and the archive of dropped entries live in one ledger document beside the notes
(:mod:`silcrow.store._ledger`). They are folded from the journal when read and before the
journal compacts, so a write costs what it did; only usage counters are written directly, and a
failure to write them is logged, never raised: metadata is advice. The review pass
(:mod:`silcrow.store._review`) only ever makes proposals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from silcrow.errors import SilcrowError, StoreError
from silcrow.store import _address as address
from silcrow.store import _ledger as ledger
from silcrow.store import _review as review
from silcrow.store._backend import StoreBackend
from silcrow.store._document import parse
from silcrow.store._entries import TARGET_FILES
from silcrow.store._pending import Proposal, ProposalBox, Proposer, current_proposer
from silcrow.store._results import Refused

log = logging.getLogger(__name__)


class Upkeep:
    """The ledger of one store's notes: metadata, archive, usage counters, review findings."""

    def __init__(self, backend: StoreBackend, targets: Mapping[str, str] = TARGET_FILES) -> None:
        self.backend = backend
        self.targets = dict(targets)

    # -- reading the ledger --------------------------------------------------------------------

    def now(self) -> dict[str, Any]:
        """The ledger as the journal stands now, without writing it (for a refusal, or a
        reader that must not wait on the ledger's lock)."""
        return ledger.fold(ledger.parse(self.backend.ledger().read()), self.backend.journal_records())

    def eviction_order(self, target: str, current: list[str]) -> list[str]:
        """``current`` least used and oldest first: what goes first to make room."""
        try:
            state = self.now()
        except StoreError as exc:  # metadata is advice here: without it, the oldest go first
            log.warning("could not read entry metadata: %s", exc)
            state = ledger.empty()
        return ledger.eviction_order(state, target, current)

    def folded(self) -> dict[str, Any]:
        """Fold the journal and the live entries into the ledger, store it, and return it."""
        records = list(self.backend.journal_records())
        live = {target: parse(self.backend.read(file_name, strict=True))
                for target, file_name in self.targets.items()}
        journaled: dict[str, list[str] | None] = dict.fromkeys(self.targets)
        for record in records:
            if record.get("target") in journaled and isinstance(record.get("after"), list):
                journaled[record["target"]] = list(record["after"])
        out: dict[str, Any] = {}
        if not records and not any(live.values()) and not self.backend.ledger().read():
            return ledger.empty()  # nothing to know yet: reading metadata creates nothing

        def change(text: str) -> str:
            state = ledger.fold(ledger.parse(text), records)
            for target in self.targets:
                ledger.reconcile(state, target, live[target], journaled[target])
            ledger.bound(state)
            out["state"] = state
            return ledger.render(state)

        self.backend.ledger().change(change)
        return dict(out["state"])

    def details(self, targets: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """Each live entry of ``targets`` with its metadata (see ``MemoryStore.details``)."""
        state = self.folded()
        return {name: ledger.entry_details(state, name, parse(self.backend.read(self.targets[name])))
                for name in targets}

    def archived(self, query: str | None = None, target: str | None = None) -> list[dict[str, Any]]:
        """Archived entries, newest first; ``query``: only those holding each of its words."""
        return ledger.search_archive(self.folded(), query, target)

    def archived_item(self, item_id: str) -> dict[str, Any] | None:
        """The archived item ``item_id`` names (its id or a unique prefix of it, at least four
        characters); :class:`Refused` when the prefix starts several."""
        items = self.archived()
        item_id = address.unique_id(item_id, [str(i.get("id")) for i in items], "archived entry",
                                    "`silcrow memory archive`") or item_id
        return next((i for i in items if i.get("id") == item_id), None)

    # -- writing to it ---------------------------------------------------------------------------

    def mirror(self, remember: Callable[[str], Any]) -> int:
        """Hand each archived entry not mirrored yet to ``remember``; returns how many went. An
        item whose ``remember`` fails stays unmirrored, for next time."""
        items = [i for i in self.archived() if not i.get("mirrored")]
        done: list[str] = []
        for item in items:
            when = str(item.get("archived") or "")[:10]
            try:
                remember(f"(an archived {item.get('target')} note, {item.get('why')} {when}) {item['text']}")
            except SilcrowError as exc:
                log.warning("could not mirror archived entry %s to recall: %s", item.get("id"), exc)
                continue
            done.append(str(item["id"]))
        if done:
            def mark(state: dict[str, Any]) -> None:
                for item in state["archive"]:
                    if item.get("id") in done:
                        item["mirrored"] = True

            self.touch(mark)
        return len(done)

    def note_prompt(self, shown: dict[str, list[str]], session: str | None) -> None:
        """Count one session's system prompt for each entry ``shown`` in it, by target. Nothing
        shown is nothing to count: no write (a session in a work tree with no project notes
        must leave no trace of that project in the home)."""
        if not any(shown.values()):
            return

        def count(state: dict[str, Any]) -> None:
            for target, entries in shown.items():
                ledger.note_prompt(state, target, entries, session)

        self.touch(count)

    def note_surfaced(self, target: str, entries: list[str], how: str) -> None:
        if not entries:  # nothing surfaced: nothing to count (see note_prompt)
            return
        self.touch(lambda state: ledger.note_surfaced(state, target, entries, how))

    def touch(self, update: Callable[[dict[str, Any]], Any]) -> None:
        """Change the ledger's counters in place; a failure is logged (metadata only)."""
        def change(text: str) -> str:
            state = ledger.parse(text)
            update(state)
            return ledger.render(state)

        try:
            self.backend.ledger().change(change)
        except (StoreError, OSError) as exc:
            log.warning("could not record entry usage: %s", exc)

    # -- the review pass ---------------------------------------------------------------------------

    def consolidate(self, details: dict[str, list[dict[str, Any]]], pending: list[Proposal], box: ProposalBox,
                    *, embed: Any, merge: Any, unused_days: int, decide: Any = None) -> list[dict[str, Any]]:
        """The review pass over ``details`` (see ``MemoryStore.consolidate``): each finding
        becomes a proposal in ``box`` unless one for it is ``pending`` already."""
        waiting = {(p.target, p.why) for p in pending if p.why} | {p.finding for p in pending if p.finding}
        declined = review.declined(ledger.parse(self.backend.ledger().read()), box.decided())
        # The pass's proposals name who asked for it (a server's caller: its token), like any other.
        who = current_proposer.get()
        proposer = Proposer(client="review") if who is None else Proposer(client="review").over(who)
        out: list[dict[str, Any]] = []
        for target in self.targets:
            live = [d["text"] for d in details[target]]
            for finding in review.find(target, live, details=details[target], embed=embed, merge=merge,
                                       decide=decide, unused_days=unused_days):
                shown = finding.as_dict()
                if (target, finding.reason) in waiting or finding.key in waiting:
                    shown["already_pending"] = True
                    out.append(shown)
                    continue
                if finding.key in declined:  # rejected before, and its entries are as they were
                    out.append({**shown, "declined": declined[finding.key]})
                    continue
                proposal = Proposal.new(target=target, action="batch", proposer=proposer,
                                        operations=finding.operations(), why=finding.reason,
                                        finding=finding.key)
                try:
                    box.add(proposal)
                except Refused as refused:  # the box (or the review's share of it) is full
                    shown["not_proposed"] = refused.refusal.error
                else:
                    shown["proposal_id"] = proposal.id
                out.append(shown)
        return out
