"""MemoryStore: the agent's curated notes, MEMORY.md and USER.md.

Two views of the same files, on purpose:

* the *frozen snapshot*, captured by :meth:`MemoryStore.load`, is what goes
  into the system prompt; writes never change it, so the prompt prefix (and
  the provider's prompt cache) stays byte-identical for the whole session;
* the *live entries*, read from disk on every call, are what mutations act on
  and what tool results report.

Every mutation returns a :class:`~silcrow.store.MemoryResult` and
never raises for bad input: a model reads the result, so each error says what
was wrong and what to do next.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from silcrow import safety as threats
from silcrow.config import ProfileSettings, Settings, profile_settings
from silcrow.errors import DriftError, LockTimeoutError, SilcrowError, StoreError
from silcrow.store import _address as address
from silcrow.store import _entries as E
from silcrow.store import _ledger as ledger
from silcrow.store import _render as render
from silcrow.store import _review as consolidation
from silcrow.store._backend import StoreBackend, Transaction
from silcrow.store._document import Document, parse
from silcrow.store._edits import (
    Edit,
    Where,
    add_edit,
    batch_edit,
    checked_content,
    checked_old_text,
    remove_edit,
    replace_edit,
    safe_entries,
    safe_shape_problems,
    threat_reasons,
)
from silcrow.store._files import DEFAULT_LOCK_TIMEOUT, FileBackend, open_backend
from silcrow.store._journal import new_record
from silcrow.store._pending import (
    MAX_OPERATIONS,
    MAX_PROPOSAL_BYTES,
    Proposal,
    ProposalBox,
    Proposer,
    checked_policy,
    current_proposer,
    edit_of,
    effect,
    fingerprint,
    net_changes,
    size,
    usage,
    useful_steps,
)
from silcrow.store._results import MemoryResult, NotesView, Refusal, Refused

log = logging.getLogger(__name__)

TARGET_FILES = {"memory": "MEMORY.md", "user": "USER.md"}
ON_FULL = ("refuse", "archive_oldest")
# How many eviction candidates a refusal of a full file names.
EVICTION_CANDIDATES = 3
MAX_FAILED_ATTEMPTS = 3


def _known_target(target: Any) -> str:
    # isinstance first: an unhashable target (a list, a dict) must not raise TypeError.
    if isinstance(target, str) and target in TARGET_FILES:
        return target
    shown = threats.display_safe(repr(target)[:80])
    raise Refused(
        Refusal(f"unknown target {shown}: use 'memory' (your notes) or 'user' (the user profile)")
    )


# Writes from the model; a threat hit refuses them whatever ``force`` says.
MODEL_ORIGIN = "tool"
# Every origin of writes made on a model's behalf: its memory tool, and the MCP and REST servers
# that agents call. Each is journaled as itself; each is held under write_policy = "approve".
MODEL_ORIGINS = frozenset({MODEL_ORIGIN, "mcp", "rest"})
# A proposal of the model that a person approved (write_policy = "approve").
APPROVED_ORIGIN = "approved"

Holds = list[threats.ThreatHit] | None


def _confirmed(text: str, force: bool) -> list[str] | None:
    """The threat pattern ids a forced write confirmed (for the journal), or None."""
    if not force:
        return None
    return [h.pattern_id for h in threats.scan(text)] or None


def notes_backend(where: ProfileSettings, *, lock_timeout: float | None = None) -> StoreBackend:
    """Where the curated notes of a profile live: ``<path>/memories/``, or its notes in the
    database its settings name."""
    if not where.storage.shared:
        return open_backend(where.path, lock_timeout=lock_timeout or DEFAULT_LOCK_TIMEOUT)
    from silcrow.store._postgres import PostgresBackend

    assert where.storage.dsn is not None
    return PostgresBackend(where.storage.dsn, where.name)


class MemoryStore:
    """Curated notes that live in the system prompt. See the module docstring."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        *,
        memory_char_limit: int | None = None,
        user_char_limit: int | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        backend: StoreBackend | None = None,
        write_policy: str | None = None,
        on_full: str | None = None,
        review_threshold: float | None = None,
    ) -> None:
        """The notes of ``home`` (default: ``$SILCROW_HOME`` or ``~/.silcrow``) with every setting
        of its ``[memory]`` table, as :meth:`of` (``open_profile(home).store()``) applies them; or
        the notes on ``backend``, with the defaults. An argument given overrides its setting."""
        if backend is not None and home is not None:
            raise StoreError("give MemoryStore a home or a backend, not both")
        if backend is None:
            # The home's settings, read as open_profile reads them: the storage ([storage]) and
            # every [memory] setting this store was not given.
            profile = profile_settings(home)
            backend = notes_backend(profile, lock_timeout=lock_timeout)
            settings = profile.settings
        else:
            settings = Settings()
        memory_char_limit = settings.memory_char_limit if memory_char_limit is None else memory_char_limit
        user_char_limit = settings.user_char_limit if user_char_limit is None else user_char_limit
        write_policy = settings.write_policy if write_policy is None else write_policy
        on_full = settings.on_full if on_full is None else on_full
        review_threshold = settings.review_threshold if review_threshold is None else review_threshold
        for name, value in (
            ("memory_char_limit", memory_char_limit),
            ("user_char_limit", user_char_limit),
        ):
            if value <= 0:
                raise StoreError(f"{name} must be a positive number of characters, got {value}")
        self.backend = backend
        self._limits = {"memory": memory_char_limit, "user": user_char_limit}
        # "approve": writes from the model become pending proposals (see silcrow.store._pending).
        self.write_policy = checked_policy(write_policy)
        if on_full not in ON_FULL:
            raise StoreError(f"unknown on_full {on_full!r}: use one of {', '.join(ON_FULL)}")
        # What an add that would overflow a file does: refuse (naming the eviction candidates),
        # or archive the least used, oldest entries to make room.
        self.on_full = on_full
        # How full a file is when it is due for a review pass (see due_for_review).
        self.review_threshold = review_threshold
        # Who the model's writes come from, for proposals; a server's per-request
        # current_proposer overrides the fields it sets.
        self.proposer = Proposer(client="library")
        self._snapshot: dict[str, str | None] | None = None
        # Consolidation guard (see _guarded): consecutive failures since a write
        # was refused for the size limit in this turn.
        self._consolidating = False
        self._failed_attempts = 0
        # The parsed text of the last write of each target (see _document).
        self._written: dict[str, Document] = {}

    @classmethod
    def of(cls, profile: ProfileSettings, *, lock_timeout: float | None = None,
           backend: StoreBackend | None = None) -> MemoryStore:
        """The notes of an opened profile with every setting of its ``[memory]`` table (limits,
        write policy, on_full, review threshold), on ``backend`` (one opened earlier, to keep what
        it caches) or its own. What ``MemoryStore(home)`` and ``Profile.store()`` both build."""
        settings = profile.settings
        return cls(backend=backend or notes_backend(profile, lock_timeout=lock_timeout),
                   memory_char_limit=settings.memory_char_limit, user_char_limit=settings.user_char_limit,
                   write_policy=settings.write_policy, on_full=settings.on_full,
                   review_threshold=settings.review_threshold)

    # ----------------------------------------------------------------- reads

    def _check_target(self, target: str) -> str:
        if not (isinstance(target, str) and target in TARGET_FILES):
            shown = threats.display_safe(repr(target)[:80])
            raise StoreError(f"unknown memory target {shown}: use 'memory' or 'user'")
        return TARGET_FILES[target]

    def location(self, target: str) -> str:
        """Where ``target`` lives, for people: a path, or a row of a database."""
        return self.backend.location(self._check_target(target))

    def path(self, target: str) -> Path:
        """The file of ``target``; only a store on files has one (StoreError otherwise)."""
        file_name = self._check_target(target)
        if not isinstance(self.backend, FileBackend):
            raise StoreError(
                f"{file_name} is not a file in this store ({self.backend.location(file_name)}); "
                "use location() to name it"
            )
        return self.backend.path(file_name)

    def char_limit(self, target: str) -> int:
        self._check_target(target)
        return self._limits[target]

    def entries(self, target: str) -> list[str]:
        """The live entries of ``target``, read from disk now."""
        return parse(self.backend.read(self._check_target(target)))

    def fullness(self, target: str) -> float:
        """How full ``target`` is now: its characters over its limit (1.0 is full)."""
        return E.char_count(self.entries(target)) / self.char_limit(target)

    def due_for_review(self) -> list[str]:
        """The targets at least ``review_threshold`` full now: each is due for a review pass."""
        return [target for target in TARGET_FILES if self.fullness(target) >= self.review_threshold]

    def usage(self, target: str) -> str:
        """Live usage, e.g. ``"62% — 1,364/2,200 chars"``."""
        return self.read(target).usage

    def read(self, target: str) -> NotesView:
        """The live entries of ``target`` with their usage, from one read of the file."""
        entries = self.entries(target)
        return NotesView(target, TARGET_FILES[target], tuple(entries), E.char_count(entries),
                         self.char_limit(target))

    def load(self) -> None:
        """Read both files and capture the frozen snapshot for the system prompt."""
        snapshot: dict[str, str | None] = {}
        for target, file_name in TARGET_FILES.items():
            document = Document.parse(self.backend.read(file_name, strict=True))
            limit = self._limits[target]
            problems = document.problems(limit)
            shown = document.entries
            if problems:  # undecodable bytes (if any) are shown as U+FFFD in the prompt
                shown = list(dict.fromkeys(E.replace_undecodable(e) for e in shown))
            snapshot[target] = render.render_block(target, shown, limit, file_name, drifted=bool(problems))
        self._snapshot = snapshot

    def snapshot_block(self, target: str) -> str | None:
        """The frozen block of ``target``; None when its file was empty at load()."""
        self._check_target(target)
        if self._snapshot is None:
            self.load()
        assert self._snapshot is not None
        return self._snapshot[target]

    def system_prompt_section(self) -> str:
        """Both frozen blocks as they go into a system prompt ('' when both are empty)."""
        blocks = [self.snapshot_block(t) for t in TARGET_FILES]
        return "\n\n".join(b for b in blocks if b)

    def history(self, target: str | None = None) -> list[dict[str, Any]]:
        """Committed mutations (and undos), oldest first."""
        if target is not None:
            self._check_target(target)
        return [r for r in self.backend.journal_records() if target is None or r.get("target") == target]

    def doctor(self) -> list[dict[str, Any]]:
        """Check both files: shape, budget, threats, leftovers of crashed writers."""
        return [self._diagnose(target) for target in TARGET_FILES]

    def _diagnose(self, target: str) -> dict[str, Any]:
        file_name = TARGET_FILES[target]
        limit = self._limits[target]
        document = Document.parse(self.backend.read(file_name, strict=True))
        problems = document.problems(limit)
        backup: str | None = None
        leftovers = self.backend.leftovers(file_name)
        if problems or leftovers:
            # Under the lock: the backup is of a settled file, and the
            # transaction removes temp files of writers that died.
            with self.backend.transaction(file_name) as tx:
                document = Document.parse(tx.read())
                problems = document.problems(limit)
                if problems:
                    backup = tx.backup(document.raw)
        current = document.entries
        notes: list[str] = []
        if document.duplicates:
            notes.append(
                f"{document.duplicates} repeated {'entry' if document.duplicates == 1 else 'entries'}: "
                "each is read once (the first copy, as Hermes does); the next write drops the copies"
            )
        used = E.char_count(current)
        if used > limit:
            problems.append(
                f"over budget: {used:,}/{limit:,} chars; the prompt shows only its head and tail. "
                "Remove or shorten entries."
            )
        for number, entry in enumerate(current, start=1):
            hits = threats.scan(entry)
            if hits:
                ids = ", ".join(dict.fromkeys(h.pattern_id for h in hits))
                problems.append(
                    f"entry {number} matched threat pattern(s) {ids} and is BLOCKED in the prompt; "
                    f"remove it (`silcrow memory remove`)"
                )
        return {
            "target": target,
            "path": self.backend.location(file_name),
            "ok": not problems,
            "problems": problems,
            "backup": backup,
            "entry_count": len(current),
            "usage": E.format_usage(used, limit),
            "cleaned": leftovers,
            "notes": notes,
        }

    # ------------------------------------------------------------- mutations

    def reset_turn(self) -> None:
        """Start a new agent turn: forget the failed consolidation attempts of the previous one."""
        self._consolidating = False
        self._failed_attempts = 0

    def add(self, target: str, content: str, *, origin: str = "api", force: bool = False) -> MemoryResult:
        """Append an entry (an exact duplicate succeeds without adding).

        ``force``: a person has seen the threat findings for ``content`` and saves it anyway;
        the journal records which. Ignored for writes made on a model's behalf (MODEL_ORIGINS).
        """
        return self._guarded(lambda: self._add(target, content, origin, force))

    def replace(
        self, target: str, old_text: str, new_content: str, *, origin: str = "api", force: bool = False
    ) -> MemoryResult:
        """Replace the entry that is, or else contains, ``old_text`` with ``new_content``
        (``force`` as in :meth:`add`)."""
        return self._guarded(lambda: self._replace(target, old_text, new_content, origin, force))

    def remove(self, target: str, old_text: str, *, origin: str = "api") -> MemoryResult:
        """Remove the entry that is, or else contains, ``old_text``."""
        return self._guarded(lambda: self._remove(target, old_text, origin))

    def apply_batch(self, target: str, operations: Any, *, origin: str = "api") -> MemoryResult:
        """Apply several add/replace/remove operations all-or-nothing, with one write."""
        return self._guarded(lambda: self._batch(target, operations, origin))

    def undo(self, target: str, *, origin: str = "api") -> MemoryResult:
        """Restore the state before the last committed mutation of ``target`` that is not undone yet."""
        return self._guarded(lambda: self._undo(target, origin))

    def _guarded(self, operation: Callable[[], MemoryResult]) -> MemoryResult:
        # A model that keeps failing to consolidate a full memory would loop
        # forever. Counting starts when a write is refused for the size limit;
        # that refusal and the failures right after it are the consolidation
        # attempts, and after three in a row the model is told to stop for the
        # rest of the turn. Other failures (a typo in old_text, a bad target)
        # outside consolidation never count, so a library user who never calls
        # reset_turn() is not blocked by them.
        if self._failed_attempts >= MAX_FAILED_ATTEMPTS:
            return self._terminal(Refusal("memory updates are paused for the rest of this turn"))
        try:
            result = operation()
        except Refused as refused:
            refusal = refused.refusal
        else:
            self._consolidating = False
            self._failed_attempts = 0
            return result
        shown = [*(refusal.current_entries or []), *(refusal.matches or [])]
        if shown and refusal.target in TARGET_FILES:
            # A refusal shows the model these entries: they were surfaced (entry metadata).
            self.note_surfaced(refusal.target, shown, "tool")
        if refusal.over_limit:
            self._consolidating = True
        if not self._consolidating:
            return refusal.result()
        self._failed_attempts += 1
        if self._failed_attempts >= MAX_FAILED_ATTEMPTS:
            return self._terminal(refusal)
        return refusal.result()

    def _terminal(self, refusal: Refusal) -> MemoryResult:
        return replace(
            refusal,
            terminal=True,
            error=(
                f"{refusal.error} — {MAX_FAILED_ATTEMPTS} memory updates have failed in a row this "
                "turn. STOP calling the memory tool now and answer the user; if something important "
                "could not be saved, tell the user so. Memory updates work again next turn."
            ),
        ).result()

    def _where(self, target: str) -> Where:
        return Where(TARGET_FILES[target], self._limits[target])

    def _gated(self, origin: str) -> Holds:
        """A list to collect uncertain threat hits in when writes from ``origin`` are held for
        approval (they become a proposal, flagged); None when they are written (or refused)."""
        return [] if origin in MODEL_ORIGINS and self.write_policy == "approve" else None

    def _add(self, target: Any, content: Any, origin: str, force: bool = False,
             holds: Holds = None, proposal: Proposal | None = None) -> MemoryResult:
        target = _known_target(target)
        force = force and origin not in MODEL_ORIGINS
        gated = self._gated(origin)
        text = checked_content(content, "give the fact to save as 'content'", force,
                               holds if gated is None else gated)
        if gated is not None:
            return self._propose(target, "add", add_edit(text), gated, content=text)
        return self._commit(target, "add", origin, add_edit(text), appends=True,
                            confirmed=_confirmed(text, force) or _held_ids(holds), proposal=proposal)

    def _replace(self, target: Any, old_text: Any, new_content: Any, origin: str,
                 force: bool = False, holds: Holds = None, proposal: Proposal | None = None) -> MemoryResult:
        target = _known_target(target)
        old = checked_old_text(old_text, "replace")
        force = force and origin not in MODEL_ORIGINS
        gated = self._gated(origin)
        text = checked_content(
            new_content, "give the new text of the entry as 'content' (to delete it, use remove)", force,
            holds if gated is None else gated,
        )
        edit = replace_edit(self._where(target), old, text)
        if gated is not None:
            return self._propose(target, "replace", edit, gated, content=text, old_text=old)
        return self._commit(target, "replace", origin, edit,
                            confirmed=_confirmed(text, force) or _held_ids(holds), proposal=proposal)

    def _remove(self, target: Any, old_text: Any, origin: str,
                proposal: Proposal | None = None) -> MemoryResult:
        target = _known_target(target)
        old = checked_old_text(old_text, "remove")
        edit = remove_edit(self._where(target), old)
        if self._gated(origin) is not None:
            return self._propose(target, "remove", edit, [], old_text=old)
        return self._commit(target, "remove", origin, edit, proposal=proposal)

    def _batch(self, target: Any, operations: Any, origin: str, holds: Holds = None,
               proposal: Proposal | None = None) -> MemoryResult:
        target = _known_target(target)
        gated = self._gated(origin)
        if gated is not None and isinstance(operations, list) and len(operations) > MAX_OPERATIONS:
            raise Refused(Refusal(
                f"A batch waiting for approval holds at most {MAX_OPERATIONS} operations; this one has "
                f"{len(operations):,}. Nothing was saved: split it into batches of at most {MAX_OPERATIONS} "
                "(the user reviews each on its own).", target=target))
        edit = batch_edit(self._where(target), operations, holds if gated is None else gated)
        if gated is not None:
            return self._propose(target, "batch", edit, gated, operations=list(operations))
        return self._commit(target, "batch", origin, edit, confirmed=_held_ids(holds), proposal=proposal)

    # ------------------------------------------------------- the approval gate

    @property
    def proposals(self) -> ProposalBox:
        """The pending proposals of this store's profile."""
        return self.backend.proposals()

    def pending(self) -> list[Proposal]:
        """Writes from the model waiting for approval, oldest first."""
        return self.proposals.waiting()

    def box_usage(self) -> dict[str, Any]:
        """How full the box of pending proposals is (see :func:`silcrow.store._pending.usage`)."""
        return usage(self.pending())

    def review(self, *, sequential: bool = False) -> list[dict[str, Any]]:
        """The pending proposals, each with its net effect on the live entries (see
        :func:`silcrow.store._pending.effect`): ``changes`` (entries removed, added, changed),
        ``base`` (pass it to :meth:`approve`), ``problem`` (why it cannot apply now) and ``stale``.
        With ``sequential`` each is computed against the entries the ones before it leave when
        they are approved in order, oldest first (what ``approve --all`` meets)."""
        self.backend.recover()
        current = {target: self.entries(target) for target in TARGET_FILES}
        reviewed: list[dict[str, Any]] = []
        for proposal in self.pending():
            item: dict[str, Any] = proposal.as_dict()
            target = proposal.target
            if target not in TARGET_FILES:
                reviewed.append({**item, "changes": [], "base": None, "stale": False,
                                 "problem": f"unknown target {target!r}; reject it"})
                continue
            found = effect(proposal, current[target], self._where(target))
            after = found.pop("after")
            if found["problem"] is None:
                over = self._over_budget(target, proposal.action, current[target], after, [])
                if over is not None:
                    found["problem"], found["changes"] = over.error, []
                elif sequential:
                    current[target] = after
            reviewed.append({**item, **found})
        return reviewed

    def _propose(self, target: str, action: str, edit: Edit, holds: list[threats.ThreatHit],
                 **what: Any) -> MemoryResult:
        """Keep a checked write from the model as a pending proposal instead of applying it.

        It is tried on the live entries first (no lock, nothing written): what would be refused
        now (no entry matches ``old_text``, over the budget) is refused now, so the model can
        fix it; a write that would change nothing is answered as done, and a batch's steps
        that change nothing are not kept. A proposal over its size bound, or one the box has
        no room for (see :mod:`silcrow.store._pending`), is refused."""
        document = Document.parse(self.backend.read(TARGET_FILES[target], strict=True))
        current = document.entries
        try:
            updated, message = edit(current)
        except Refused as refused:
            raise Refused(replace(refused.refusal, target=target)) from None
        if updated == current:
            return self._success(target, current, message)
        over = self._over_budget(target, action, current, updated, [])
        if over is not None:
            raise Refused(over)
        if action == "batch":
            what["operations"] = useful_steps(what["operations"], self._where(target), current)
        held = threat_reasons(holds) if holds else None
        who = current_proposer.get()
        proposer = self.proposer if who is None else who.over(self.proposer)
        proposal = Proposal.new(target=target, action=action, proposer=proposer, held=held, **what)
        if (taken := size(proposal)) > MAX_PROPOSAL_BYTES:
            raise Refused(Refusal(
                f"Not saved: this proposal is {taken:,} bytes, over the {MAX_PROPOSAL_BYTES // 1024} KiB "
                "a proposal may take. Save shorter entries, or split the change into smaller writes.",
                target=target))
        self.proposals.add(proposal)
        message = (
            f"Not saved yet: this change is waiting for the user's approval (proposal {proposal.id}). "
            "Do not retry or rephrase it; the user approves or rejects it. Until then it is not in "
            "memory: tell the user it awaits their approval if it matters."
        )
        if held:
            message += f" It was held because the threat scan was unsure: {held}."
        result = self._success(target, current, message)
        result["pending"] = True
        result["proposal_id"] = proposal.id
        return result

    def resolve_proposal_id(self, given: str) -> str:
        """The pending proposal's id ``given`` is a unique prefix of (at least four characters),
        else ``given`` itself; :class:`Refused` when it starts several."""
        ids = [p.id for p in self.pending()]
        return address.unique_id(str(given), ids, "pending proposal", "`silcrow memory pending`") or given

    def _not_pending(self, proposal_id: str) -> Refusal:
        shown = threats.display_safe(str(proposal_id))
        decided = next((p for p in reversed(self.proposals.decided()) if p.id == proposal_id), None)
        when = f": it was {decided.status} at {decided.decided}" if decided is not None else ""
        return Refusal(f"no pending proposal {shown!r}{when}; list them with `silcrow memory pending`")

    def approve(self, proposal_id: str, *, origin: str = APPROVED_ORIGIN,
                base: str | None = None) -> MemoryResult:
        """Apply a pending proposal through the normal write path (lock, re-read, scan, budget,
        journal); the proposal leaves the box in the same durable step that writes its effect.

        ``base`` is the fingerprint of the entries its review was shown against (see
        :meth:`review`): when the live entries differ, nothing is applied and the result is
        ``stale`` (review it again). Without ``base`` it applies to the entries it meets, and
        the result's ``changes`` say what that did. It can still be refused (threat scan,
        budget, an ``old_text`` that no longer finds one entry), and is then kept pending with
        the reason. Approving a held proposal confirms its threat findings."""
        try:
            proposal_id = self.resolve_proposal_id(proposal_id)
        except Refused as refused:
            return refused.refusal.result()
        proposal = next((p for p in self.pending() if p.id == proposal_id), None)
        if proposal is None:
            return self._not_pending(proposal_id).result()
        seen: dict[str, list[str]] = {}
        try:
            target = _known_target(proposal.target)
            # A held proposal: the person approving it has seen the scanner's reason and confirms
            # the uncertain hits (kept in the journal); a certain threat is still refused.
            holds: Holds = [] if proposal.held else None
            edit = edit_of(proposal, self._where(target), holds)
            result = self._commit(target, proposal.action, origin, edit, appends=proposal.action == "add",
                                  confirmed=_held_ids(holds), proposal=proposal, base=base, seen=seen)
        except Refused as refused:
            refusal = refused.refusal
        else:
            result["proposal_id"] = proposal.id
            result["changes"] = net_changes(seen["before"], seen["after"])
            result["base"] = fingerprint(seen["before"])
            return result
        if refusal.error.startswith("no pending proposal"):
            return refusal.result()
        error = refusal.error
        if refusal.unmatched:
            error = (f"Stale: the entry proposal {proposal.id} was made against has changed since. "
                     f"{refusal.error}")
        self.proposals.note_error(proposal.id, error)
        result = replace(refusal, error=f"{error} The proposal is still pending; reject it with "
                         f"`silcrow memory reject {proposal.id}`.").result()
        result["proposal_id"] = proposal.id
        if refusal.unmatched or refusal.stale:
            result["stale"] = True
        return result

    def reject(self, proposal_id: str, reason: str | None = None) -> MemoryResult:
        """Drop a pending proposal; it is kept a while among the decided ones, with ``reason``."""
        self.backend.recover()  # an approval a crash interrupted is decided first
        try:
            proposal_id = self.resolve_proposal_id(proposal_id)
        except Refused as refused:
            return refused.refusal.result()
        proposal = self.proposals.reject(proposal_id, reason, _caller())
        if proposal is None:
            return self._not_pending(proposal_id).result()
        if proposal.finding:  # a review finding: not proposed again while its entries stay as they are
            self._touch(lambda state: consolidation.note_declined(state, proposal))
        message = f"Rejected proposal {proposal.summary()}."
        result: MemoryResult = {"success": True, "message": message}
        if proposal.target in TARGET_FILES:  # else a hand-edited box: nothing to report on
            result = self._success(proposal.target, self.entries(proposal.target), message)
        result["proposal_id"] = proposal.id
        return result

    def _undo(self, target: Any, origin: str) -> MemoryResult:
        target = _known_target(target)
        file_name = TARGET_FILES[target]
        refusal: Refusal | None = None
        with self.backend.transaction(file_name) as tx:
            document = Document.parse(tx.read())
            current = document.entries
            problems = safe_shape_problems(document, self._where(target))
            pending: list[dict[str, Any]] = []
            if problems:
                refusal = self._drift_refusal(tx, target, document.raw, problems)
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
                                          by=_caller()))
        if refusal is not None:
            raise Refused(refusal)
        return self._success(target, restored, f"Undid the {last['action']} of {last['time']}.")

    # ------------------------------------------------------------------ core

    def _success(
        self, target: str, current: list[str], message: str, used: int | None = None
    ) -> MemoryResult:
        if used is None:
            used = E.char_count(current)
        return {
            "success": True,
            "target": target,
            "usage": E.format_usage(used, self._limits[target]),
            "entry_count": len(current),
            "message": message,
        }

    def _drift_refusal(self, tx: Transaction, target: str, raw: str, problems: list[str]) -> Refusal:
        file_name = TARGET_FILES[target]
        backup = tx.backup(raw)
        error = DriftError(
            f"{self.backend.location(file_name)} was changed outside silcrow into a shape it would not "
            f"write back unchanged: {'; '.join(problems)}. Nothing was changed; a copy is saved at {backup}. "
            "Fix the file by hand (entries are separated by a line containing only '§'; split or shorten "
            "oversized entries), then retry; `silcrow memory doctor` re-checks it. "
            "Adding entries still works."
        )
        return Refusal(str(error), target=target, backup=backup, problems=problems)

    def _journal_outside_change(self, tx: Transaction, target: str, current: list[str]) -> None:
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

    def _document(self, target: str, raw: str) -> Document:
        """``Document.parse(raw)``; when ``raw`` is exactly the text this store wrote last (no
        one wrote since), the parse kept from that write, as a large file costs to parse."""
        written = self._written.get(target)
        if written is not None and written.raw == raw:
            return written
        return Document.parse(raw)

    def _commit(
        self, target: str, action: str, origin: str, edit: Edit, *, appends: bool = False,
        confirmed: list[str] | None = None, proposal: Proposal | None = None, base: str | None = None,
        seen: dict[str, list[str]] | None = None,
    ) -> MemoryResult:
        """Lock, re-read, apply ``edit``, check the budget, write atomically, journal.

        With ``proposal`` (an approval) the proposal is claimed in the same transaction and
        leaves the box with it; ``base`` refuses it as stale when the entries read under the
        lock are not the ones its review was shown against. ``seen`` receives the entries
        before and after.

        A refusal found inside the transaction is raised only after it ends
        normally, so what the transaction did keep (a backup, an outside-edit
        record) is kept by every backend.
        """
        file_name = TARGET_FILES[target]
        refusal: Refusal | None = None
        used_after: int | None = None
        box = self.proposals if proposal is not None else None
        claimed: Proposal | None = None
        wrote: tuple[Document, str] | None = None  # the document read and the text written
        with self.backend.transaction(file_name) as tx:
            document = self._document(target, tx.read())
            problems = safe_shape_problems(document, self._where(target))
            current = updated = document.entries
            tx.parsed(current)
            message = ""
            if problems and not appends:
                refusal = self._drift_refusal(tx, target, document.raw, problems)
            elif box is not None and proposal is not None and (claimed := tx.claim(box, proposal.id)) is None:
                refusal = self._not_pending(proposal.id)
            elif base is not None and fingerprint(current) != base:
                refusal = Refusal(
                    f"Stale: {file_name} has changed since proposal {proposal.id if proposal else ''} was "
                    "reviewed, so what approving it would do now may differ from what was shown. Nothing "
                    "was changed; review it again (`silcrow memory pending`) and approve what it shows now.",
                    target=target, stale=True)
            else:
                self._journal_outside_change(tx, target, current)
                try:
                    updated, message = edit(current)
                except Refused as refused:
                    refusal = replace(refused.refusal, target=target)
            evicted: list[str] = []
            if refusal is None and updated != current:
                used_after = E.char_count(updated)
                refusal = self._over_budget(target, action, current, updated, problems)
                # Not for an approval: its review showed the add refused as over budget, and an
                # approval applies what was shown (a person decides what leaves, not eviction).
                if refusal is not None and action == "add" and self.on_full == "archive_oldest" \
                        and proposal is None:
                    made_room = self._make_room(target, current, updated)
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
                        tx.settle(box, replace(claimed, decided_by=_caller()), text)
                    self._written.pop(target, None)
                    tx.write(text)
                    wrote = (document, text)
                    tx.journal(new_record(
                        target=target, action=action, origin=origin, before=current, after=updated,
                        confirmed_threats=confirmed, by=_caller(),
                        proposal={"id": proposal.id, **proposal.who} if proposal is not None else None,
                        evicted=evicted or None))
            elif refusal is None and box is not None and claimed is not None:
                # It changes nothing now: decided all the same.
                tx.settle(box, replace(claimed, decided_by=_caller()), None)
        if refusal is not None:
            raise Refused(refusal)
        if wrote is not None:
            # After the lock: it only saves the next write of this store a parse.
            written = wrote[0].successor(updated, wrote[1])
            if written is not None:
                self._written[target] = written
        if seen is not None:
            seen.update(before=current, after=updated)
        return self._success(target, updated, message, used_after)

    def _over_budget(self, target: str, action: str, current: list[str], updated: list[str],
                     problems: list[str]) -> Refusal | None:
        """The refusal of a change that would take ``target`` over its limit, else None. A change
        that does not grow the file is always allowed, so a file that is over budget can be
        consolidated step by step."""
        file_name = TARGET_FILES[target]
        limit = self._limits[target]
        used_before, used_after = E.char_count(current), E.char_count(updated)
        if used_after <= limit or used_after <= used_before:
            return None
        candidates = self._eviction_order(target, current)[:EVICTION_CANDIDATES]
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

    # ------------------------------------------------------ metadata and archive

    def _ledger_now(self) -> dict[str, Any]:
        """The ledger as the journal stands now, without writing it (for a refusal, or a
        reader that must not wait on the ledger's lock)."""
        return ledger.fold(ledger.parse(self.backend.ledger().read()), self.backend.journal_records())

    def _eviction_order(self, target: str, current: list[str]) -> list[str]:
        try:
            state = self._ledger_now()
        except StoreError as exc:  # metadata is advice here: without it, the oldest go first
            log.warning("could not read entry metadata: %s", exc)
            state = ledger.empty()
        return ledger.eviction_order(state, target, current)

    def _make_room(self, target: str, current: list[str], updated: list[str]) -> list[str] | None:
        """``updated`` without the least used, oldest entries of ``current`` that keep it over
        the limit; None when even evicting every old entry would not make room."""
        limit = self._limits[target]
        kept = list(updated)
        for entry in self._eviction_order(target, current):
            if E.char_count(kept) <= limit:
                break
            kept.remove(entry)
        return kept if E.char_count(kept) <= limit else None

    def _folded(self) -> dict[str, Any]:
        """Fold the journal and the live entries into the ledger, store it, and return it."""
        records = list(self.backend.journal_records())
        live = {target: parse(self.backend.read(file_name, strict=True))
                for target, file_name in TARGET_FILES.items()}
        journaled: dict[str, list[str] | None] = dict.fromkeys(TARGET_FILES)
        for record in records:
            if record.get("target") in journaled and isinstance(record.get("after"), list):
                journaled[record["target"]] = list(record["after"])
        out: dict[str, Any] = {}
        if not records and not any(live.values()) and not self.backend.ledger().read():
            return ledger.empty()  # nothing to know yet: reading metadata creates nothing

        def change(text: str) -> str:
            state = ledger.fold(ledger.parse(text), records)
            for target in TARGET_FILES:
                ledger.reconcile(state, target, live[target], journaled[target])
            ledger.bound(state)
            out["state"] = state
            return ledger.render(state)

        self.backend.ledger().change(change)
        return dict(out["state"])

    def details(self, target: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """Each live entry with its metadata: when it was added and last changed, and by whom
        (``*_by``: origin, token, session), how many sessions' prompts it was in, when a tool
        or recall last surfaced it. By target (both when ``target`` is None)."""
        targets = [target] if target is not None else list(TARGET_FILES)
        for name in targets:
            self._check_target(name)
        state = self._folded()
        return {name: ledger.entry_details(state, name, self.entries(name)) for name in targets}

    def archived(self, query: str | None = None, *, target: str | None = None) -> list[dict[str, Any]]:
        """Entries that left the notes (removed, replaced, evicted, undone, edited away), newest
        first, each with its ``id``; ``query``: only those holding each of its words."""
        if target is not None:
            self._check_target(target)
        return ledger.search_archive(self._folded(), query, target)

    def restore(self, item_id: str, *, origin: str = "api") -> MemoryResult:
        """Add an archived entry back to its file through the normal write path (lock, scan,
        budget, journal, approval gate for the model)."""
        items = ledger.search_archive(self._folded())
        try:
            item_id = address.unique_id(item_id, [str(i.get("id")) for i in items], "archived entry",
                                        "`silcrow memory archive`") or item_id
        except Refused as refused:
            return refused.refusal.result()
        found = [i for i in items if i.get("id") == item_id]
        if not found:
            return Refusal(f"no archived entry {threats.display_safe(str(item_id))!r}; list them with "
                           "`silcrow memory archive`").result()
        item = found[0]
        result = self.add(str(item["target"]), str(item["text"]), origin=origin)
        if result.get("success"):
            result["restored"] = item_id
        return result

    def mirror_archive(self, remember: Callable[[str], Any]) -> int:
        """Hand each archived entry not mirrored yet to ``remember`` (e.g. the recall provider's
        ``remember``), so a note dropped from the prompt can still be recalled when it matters;
        returns how many went. An item whose ``remember`` fails stays unmirrored, for next time."""
        items = [i for i in ledger.search_archive(self._folded()) if not i.get("mirrored")]
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

            self._touch(mark)
        return len(done)

    def note_prompt_use(self, session: str | None = None) -> None:
        """Count this session's system prompt for every entry of the frozen snapshot (call once
        when a session's prompt is built). Metadata only: a failure is logged, never raised."""
        if self._snapshot is None:
            self.load()
        shown = {target: self.entries(target) for target in TARGET_FILES if self.snapshot_block(target)}

        def count(state: dict[str, Any]) -> None:
            for target, entries in shown.items():
                ledger.note_prompt(state, target, entries, session)

        self._touch(count)

    def note_surfaced(self, target: str, entries: list[str], how: str) -> None:
        """Record that a tool or recall showed ``entries`` of ``target``."""
        self._check_target(target)
        self._touch(lambda state: ledger.note_surfaced(state, target, entries, how))

    def consolidate(self, *, embed: Any = None, merge: Any = None,
                    unused_days: int = consolidation.UNUSED_DAYS) -> list[dict[str, Any]]:
        """The review pass (see :mod:`silcrow.store._review`): near-duplicates, contained and
        contradicted entries, entries unused for ``unused_days``, each made a pending proposal
        with its reason (``embed``: texts -> normalised vectors, for duplicates by meaning;
        ``merge``: the merged wording of two entries, e.g. from a model). Nothing is applied;
        a finding already pending is not proposed again, nor one the user rejected while its
        entries are unchanged (returned with ``declined``: when and why). Returns the findings,
        each with its ``proposal_id``."""
        details = self.details()
        pending = self.pending()
        waiting = {(p.target, p.why) for p in pending if p.why} | {p.finding for p in pending if p.finding}
        declined = consolidation.declined(ledger.parse(self.backend.ledger().read()),
                                          self.proposals.decided())
        # The pass's proposals name who asked for it (a server's caller: its token), like any other.
        who = current_proposer.get()
        proposer = Proposer(client="review") if who is None else Proposer(client="review").over(who)
        out: list[dict[str, Any]] = []
        for target in TARGET_FILES:
            live = [d["text"] for d in details[target]]
            for finding in consolidation.find(target, live, details=details[target], embed=embed, merge=merge,
                                       unused_days=unused_days):
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
                    self.proposals.add(proposal)
                except Refused as refused:  # the box (or the review's share of it) is full
                    shown["not_proposed"] = refused.refusal.error
                else:
                    shown["proposal_id"] = proposal.id
                out.append(shown)
        return out

    def _touch(self, update: Callable[[dict[str, Any]], Any]) -> None:
        def change(text: str) -> str:
            state = ledger.parse(text)
            update(state)
            return ledger.render(state)

        try:
            self.backend.ledger().change(change)
        except (StoreError, OSError) as exc:
            log.warning("could not record entry usage: %s", exc)


def _caller() -> dict[str, str] | None:
    """Who is making this write or decision, as a server set it for the request (its token's
    name and id, its client, the session it claims); None outside a server (the CLI, a library)."""
    who = current_proposer.get()
    return who.record() or None if who is not None else None


def _loses_text(raw: str, rendered: str) -> bool:
    """Whether writing ``rendered`` for ``raw`` drops more than whitespace and delimiters."""
    def squash(text: str) -> str:
        return "".join(text.replace("§", "").split())

    return squash(raw) != squash(rendered)


def _held_ids(holds: Holds) -> list[str] | None:
    """The pattern ids of uncertain hits a person confirmed by approving a held proposal."""
    return list(dict.fromkeys(h.pattern_id for h in holds)) if holds else None
