"""The write path of the notes: lock, re-read, apply one edit, check the budget, write, journal.

Every change of a notes file goes through :meth:`WritePath.commit` (or :meth:`WritePath.undo`):
a model's write, a person's, an approved proposal. It answers with a typed :class:`Done`, or
raises :class:`~silcrow.store._results.Refused` with what was wrong; the store's public methods
turn either into the JSON result.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from silcrow import safety as threats
from silcrow.errors import DriftError, LockTimeoutError
from silcrow.store import _entries as E
from silcrow.store import _render as render
from silcrow.store._backend import StoreBackend, Transaction
from silcrow.store._document import Document, parse
from silcrow.store._edits import Edit, Where, safe_entries, safe_shape_problems
from silcrow.store._entries import PROJECT_TARGET, TARGET_FILES
from silcrow.store._journal import new_record
from silcrow.store._pending import Proposal, current_proposer, fingerprint
from silcrow.store._results import Done, Refusal, Refused
from silcrow.store._upkeep import Upkeep

log = logging.getLogger(__name__)

ON_FULL = ("refuse", "archive_oldest")
# How many eviction candidates a refusal of a full file names.
EVICTION_CANDIDATES = 3

# Uncertain threat hits collected for a write held for approval; None when it is not held.
Holds = list[threats.ThreatHit] | None


def known_target(target: Any, targets: Mapping[str, str] = TARGET_FILES) -> str:
    """``target`` when it names a notes file of ``targets``, else a refusal that says which
    names do."""
    # isinstance first: an unhashable target (a list, a dict) must not raise TypeError.
    if isinstance(target, str) and target in targets:
        return target
    shown = threats.display_safe(repr(target)[:80])
    raise Refused(Refusal(f"unknown target {shown}: use {target_names(targets)}"))


def target_names(targets: Mapping[str, str]) -> str:
    """The names of ``targets`` as a refusal lists them."""
    described = {"memory": "'memory' (your notes)", "user": "'user' (the user profile)",
                 PROJECT_TARGET: "'project' (the project's notes)"}
    return " or ".join(described.get(name, repr(name)) for name in targets)


def confirmed_ids(text: str, force: bool) -> list[str] | None:
    """The threat pattern ids a forced write confirmed (for the journal), or None."""
    if not force:
        return None
    return [h.pattern_id for h in threats.scan(text)] or None


def held_ids(holds: Holds) -> list[str] | None:
    """The pattern ids of uncertain hits a person confirmed by approving a held proposal."""
    return list(dict.fromkeys(h.pattern_id for h in holds)) if holds else None


def caller() -> dict[str, str] | None:
    """Who is making this write or decision, as a server set it for the request (its token's
    name and id, its client, the session it claims); None outside a server (the CLI, a library)."""
    who = current_proposer.get()
    return who.record() or None if who is not None else None


class WritePath:
    """The commit core of one store: its backend, limits and what a full file does."""

    def __init__(self, backend: StoreBackend, limits: dict[str, int], on_full: str, upkeep: Upkeep,
                 targets: Mapping[str, str] = TARGET_FILES) -> None:
        self.backend = backend
        self.limits = limits
        # The store's targets and their files: a profile's two, or a project's one.
        self.targets = dict(targets)
        self.on_full = on_full
        self.upkeep = upkeep
        # The parsed text of the last write of each target (see document).
        self._written: dict[str, Document] = {}

    def where(self, target: str) -> Where:
        return Where(self.targets[target], self.limits[target])

    def entries(self, target: str) -> list[str]:
        return parse(self.backend.read(self.targets[target]))

    def done(self, target: str, current: list[str], message: str, used: int | None = None) -> Done:
        return Done(target, len(current), E.format_usage(E.char_count(current) if used is None else used,
                                                         self.limits[target]), message)

    def not_pending(self, proposal_id: str) -> Refusal:
        shown = threats.display_safe(str(proposal_id))
        decided = next((p for p in reversed(self.backend.proposals().decided()) if p.id == proposal_id), None)
        when = f": it was {decided.status} at {decided.decided}" if decided is not None else ""
        return Refusal(f"no pending proposal {shown!r}{when}; list them with `silcrow memory pending`")

    def commit(
        self, target: str, action: str, origin: str, edit: Edit, *, appends: bool = False,
        confirmed: list[str] | None = None, proposal: Proposal | None = None, base: str | None = None,
        seen: dict[str, list[str]] | None = None, released: dict[str, Any] | None = None,
    ) -> Done:
        """Lock, re-read, apply ``edit``, check the budget, write atomically, journal.

        With ``proposal`` (an approval) the proposal is claimed in the same transaction and
        leaves the box with it; ``base`` refuses it as stale when the entries read under the
        lock are not the ones its review was shown against. ``seen`` receives the entries
        before and after. ``released``: what the scan held and the chat model released (for
        the journal).

        A refusal found inside the transaction is raised only after it ends
        normally, so what the transaction did keep (a backup, an outside-edit
        record) is kept by every backend.
        """
        file_name = self.targets[target]
        refusal: Refusal | None = None
        used_after: int | None = None
        box = self.backend.proposals() if proposal is not None else None
        claimed: Proposal | None = None
        wrote: tuple[Document, str] | None = None  # the document read and the text written
        with self.backend.transaction(file_name) as tx:
            document = self.document(target, tx.read())
            problems = safe_shape_problems(document, self.where(target))
            current = updated = document.entries
            tx.parsed(current)
            message = ""
            if problems and not appends:
                refusal = self.drift_refusal(tx, target, document.raw, problems)
            elif box is not None and proposal is not None and (claimed := tx.claim(box, proposal.id)) is None:
                refusal = self.not_pending(proposal.id)
            elif base is not None and fingerprint(current) != base:
                refusal = Refusal(
                    f"Stale: {file_name} has changed since proposal {proposal.id if proposal else ''} was "
                    "reviewed, so what approving it would do now may differ from what was shown. Nothing "
                    "was changed; review it again (`silcrow memory pending`) and approve what it shows now.",
                    target=target, stale=True)
            else:
                self.journal_outside_change(tx, target, current)
                try:
                    updated, message = edit(current)
                except Refused as refused:
                    refusal = replace(refused.refusal, target=target)
            evicted: list[str] = []
            if refusal is None and updated != current:
                used_after = E.char_count(updated)
                refusal = self.over_budget(target, action, current, updated, problems)
                # Not for an approval: its review showed the add refused as over budget, and an
                # approval applies what was shown (a person decides what leaves, not eviction).
                if refusal is not None and action == "add" and self.on_full == "archive_oldest" \
                        and proposal is None:
                    made_room = self.make_room(target, current, updated)
                    if made_room is not None:
                        evicted = [e for e in current if e not in made_room]
                        updated, refusal = made_room, None
                        used_after = E.char_count(updated)
                        message += (f" To make room, {len(evicted)} least used "
                                    f"{'entry was' if len(evicted) == 1 else 'entries were'} archived "
                                    "(`silcrow memory archive` lists them; `silcrow memory restore ID` "
                                    "brings one back).")
                if refusal is None:
                    if problems:
                        # Only an append gets here: every existing byte stays as it is.
                        message += f" Warning: {'; '.join(problems)}; run `silcrow memory doctor`."
                    text = document.render(updated)
                    if document is not self._written.get(target) and document.raw and not text.startswith(
                            document.raw) and _loses_text(document.raw, document.render(current)):
                        # Edited outside silcrow into text this rewrite would not keep (a repeated
                        # entry a patch tool or a shell append left): keep a copy first, so nothing
                        # of it is lost. Whitespace and empty pieces alone are not worth one.
                        kept = tx.backup(document.raw)
                        message += f" The file held text silcrow does not keep; a copy is at {kept}."
                    if box is not None and claimed is not None:
                        tx.settle(box, replace(claimed, decided_by=caller()), text)
                    self._written.pop(target, None)
                    tx.write(text)
                    wrote = (document, text)
                    tx.journal(new_record(
                        target=target, action=action, origin=origin, before=current, after=updated,
                        confirmed_threats=confirmed, by=caller(), released=released,
                        proposal={"id": proposal.id, **proposal.who} if proposal is not None else None,
                        evicted=evicted or None))
            elif refusal is None and box is not None and claimed is not None:
                # It changes nothing now: decided all the same.
                tx.settle(box, replace(claimed, decided_by=caller()), None)
        if refusal is not None:
            raise Refused(refusal)
        if wrote is not None:
            # After the lock: it only saves the next write of this store a parse.
            written = wrote[0].successor(updated, wrote[1])
            if written is not None:
                self._written[target] = written
        if seen is not None:
            seen.update(before=current, after=updated)
        return self.done(target, updated, message, used_after)

    def undo(self, target: str, origin: str) -> Done:
        """Restore the state before the last committed change of ``target`` not undone yet."""
        file_name = self.targets[target]
        refusal: Refusal | None = None
        with self.backend.transaction(file_name) as tx:
            document = Document.parse(tx.read())
            current = document.entries
            problems = safe_shape_problems(document, self.where(target))
            pending: list[dict[str, Any]] = []
            if problems:
                refusal = self.drift_refusal(tx, target, document.raw, problems)
            else:
                for record in tx.records(target):
                    if record.get("action") == "undo":
                        pending = [r for r in pending if r.get("id") != record.get("undoes")]
                    else:
                        pending.append(record)
            if refusal is None and not pending:
                refusal = Refusal(
                    f"Nothing to undo in {file_name}: no committed change is left in its history."
                )
            if refusal is None:
                last = pending[-1]
                if current != last["after"]:
                    refusal = Refusal(
                        f"Cannot undo the last {last['action']} of {file_name} ({last['time']}): the "
                        "file has changed since then outside silcrow's history, and undo would discard "
                        "that change. Nothing was changed; edit the file directly or use replace/remove.",
                        current_entries=safe_entries(current, file_name),
                    )
                else:
                    restored = list(last["before"])
                    tx.write(document.render(restored))
                    tx.journal(new_record(target=target, action="undo", origin=origin,
                                          before=current, after=restored, undoes=last["id"],
                                          by=caller()))
        if refusal is not None:
            raise Refused(refusal)
        return self.done(target, restored, f"Undid the {last['action']} of {last['time']}.")

    def over_budget(self, target: str, action: str, current: list[str], updated: list[str],
                    problems: list[str]) -> Refusal | None:
        """The refusal of a change that would take ``target`` over its limit, else None. A change
        that does not grow the file is always allowed, so a file that is over budget can be
        consolidated step by step."""
        file_name = self.targets[target]
        limit = self.limits[target]
        used_before, used_after = E.char_count(current), E.char_count(updated)
        if used_after <= limit or used_after <= used_before:
            return None
        candidates = self.upkeep.eviction_order(target, current)[:EVICTION_CANDIDATES]
        # Safe previews: an entry appended by hand may be an attack, never echoed to the model.
        named = "; ".join(f"{render.safe_preview(c, file_name, 60)!r}" for c in candidates)
        return Refusal(
            f"{file_name} would be {used_after:,}/{limit:,} chars after this {action}, over "
            "its limit; nothing was saved. Consolidate now: merge related entries with "
            "replace, shorten wordy ones, remove what no longer matters, then retry."
            + (f" Least used and oldest first, these could go (removed entries are archived, "
               f"not lost): {named}." if candidates else "")
            + (f" Note: {'; '.join(problems)}." if problems else ""),
            target=target,
            current_entries=safe_entries(current, file_name),
            usage=E.format_usage(used_before, limit),
            over_limit=True,
            eviction_candidates=safe_entries(candidates, file_name) if candidates else None,
        )

    def make_room(self, target: str, current: list[str], updated: list[str]) -> list[str] | None:
        """``updated`` without the least used, oldest entries of ``current`` that keep it over
        the limit; None when even evicting every old entry would not make room."""
        limit = self.limits[target]
        kept = list(updated)
        for entry in self.upkeep.eviction_order(target, current):
            if E.char_count(kept) <= limit:
                break
            kept.remove(entry)
        return kept if E.char_count(kept) <= limit else None

    def drift_refusal(self, tx: Transaction, target: str, raw: str, problems: list[str]) -> Refusal:
        file_name = self.targets[target]
        backup = tx.backup(raw)
        error = DriftError(
            f"{self.backend.location(file_name)} was changed outside silcrow into a shape it would not "
            f"write back unchanged: {'; '.join(problems)}. Nothing was changed; a copy is saved at {backup}. "
            "Fix the file by hand (entries are separated by a line containing only '§'; split or shorten "
            "oversized entries), then retry; `silcrow memory doctor` re-checks it. "
            "Adding entries still works."
        )
        return Refusal(str(error), target=target, backup=backup, problems=problems)

    def journal_outside_change(self, tx: Transaction, target: str, current: list[str]) -> None:
        """Record a change the journal missed (a hand edit, or a writer killed after its atomic
        rename but before its journal append), so history stays complete and undo can step
        back through it."""
        last = tx.last_record(target)
        if last is not None and last.get("after") != current:
            try:
                tx.journal(new_record(target=target, action="outside_edit", origin="disk",
                                      before=list(last["after"]), after=current))
            except LockTimeoutError as exc:  # nothing is written yet: go on without this record
                log.warning("could not journal an outside edit of %s: %s", target, exc)

    def document(self, target: str, raw: str) -> Document:
        """``Document.parse(raw)``; when ``raw`` is exactly the text this store wrote last (no
        one wrote since), the parse kept from that write, as a large file costs to parse."""
        written = self._written.get(target)
        if written is not None and written.raw == raw:
            return written
        return Document.parse(raw)


def _loses_text(raw: str, rendered: str) -> bool:
    """Whether writing ``rendered`` for ``raw`` drops more than whitespace and delimiters."""
    def squash(text: str) -> str:
        return "".join(text.replace("§", "").split())

    return squash(raw) != squash(rendered)
