"""MemoryStore: the agent's curated notes, MEMORY.md and USER.md.

Two views of the same files, on purpose:

* the *frozen snapshot*, captured by :meth:`MemoryStore.load`, is what goes
  into the system prompt; writes never change it, so the prompt prefix (and
  the provider's prompt cache) stays byte-identical for the whole session;
* the *live entries*, read from disk on every call, are what mutations act on
  and what tool results report.

Every mutation returns a :class:`~silcrow.store.MemoryResult` and
never raises for bad input: a caller reads the result, so each error says what
was wrong and what to do next. The store is the reads and the door to its parts,
each a module of its own job: the write path (``_write.py``: lock, re-read, edit,
budget, atomic write, journal), the approval box (``_gate.py``) and the upkeep
(``_upkeep.py``: entry metadata, the archive, the review pass).
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
from silcrow.errors import StoreError
from silcrow.store import _entries as E
from silcrow.store import _render as render
from silcrow.store._backend import StoreBackend
from silcrow.store._document import Document, parse
from silcrow.store._edits import (
    add_edit,
    batch_edit,
    checked_content,
    checked_old_text,
    remove_edit,
    replace_edit,
)
from silcrow.store._entries import PROJECT_FILES, PROJECT_TARGET, TARGET_FILES
from silcrow.store._files import DEFAULT_LOCK_TIMEOUT, FileBackend, open_backend
from silcrow.store._gate import Gate
from silcrow.store._pending import MAX_OPERATIONS, Proposal, ProposalBox, Proposer, checked_policy
from silcrow.store._projects import Project, Projects
from silcrow.store._results import Done, MemoryResult, NotesView, Refusal, Refused
from silcrow.store._review import UNUSED_DAYS
from silcrow.store._upkeep import Upkeep
from silcrow.store._write import ON_FULL, Holds, WritePath, confirmed_ids, held_ids, known_target

__all__ = ["APPROVED_ORIGIN", "MODEL_ORIGINS", "TARGET_FILES", "MemoryStore", "notes_backend"]

log = logging.getLogger(__name__)

MAX_FAILED_ATTEMPTS = 3

# Writes from the model; a threat hit refuses them whatever ``force`` says.
MODEL_ORIGIN = "tool"
# Every origin of writes made on a model's behalf: its memory tool, and the MCP and REST servers
# that agents call. Each is journaled as itself; each is held under write_policy = "approve".
MODEL_ORIGINS = frozenset({MODEL_ORIGIN, "mcp", "rest"})
# A proposal of the model that a person approved (write_policy = "approve").
APPROVED_ORIGIN = "approved"


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
        project_char_limit: int | None = None,
        project: Project | None = None,
    ) -> None:
        """The notes of ``home`` (default: ``$SILCROW_HOME`` or ``~/.silcrow``) with every setting
        of its ``[memory]`` table, as :meth:`of` (``open_profile(home).store()``) applies them; or
        the notes on ``backend``, with the defaults. An argument given overrides its setting.
        ``project``: the store is that project's notes, whose one target is ``project``
        (``PROJECT.md``, ``project_char_limit``), on the project's own backend unless
        ``backend`` is given."""
        if backend is not None and home is not None:
            raise StoreError("give MemoryStore a home or a backend, not both")
        if backend is None:
            # The home's settings, read as open_profile reads them: the storage ([storage]) and
            # every [memory] setting this store was not given.
            profile = profile_settings(home)
            backend = (notes_backend(profile, lock_timeout=lock_timeout) if project is None
                       else project.registry.backend(project))
            settings = profile.settings
        else:
            settings = Settings()
        memory_char_limit = settings.memory_char_limit if memory_char_limit is None else memory_char_limit
        user_char_limit = settings.user_char_limit if user_char_limit is None else user_char_limit
        write_policy = settings.write_policy if write_policy is None else write_policy
        on_full = settings.on_full if on_full is None else on_full
        review_threshold = settings.review_threshold if review_threshold is None else review_threshold
        project_char_limit = settings.project_char_limit if project_char_limit is None else project_char_limit
        for name, value in (
            ("memory_char_limit", memory_char_limit),
            ("user_char_limit", user_char_limit),
            ("project_char_limit", project_char_limit),
        ):
            if value <= 0:
                raise StoreError(f"{name} must be a positive number of characters, got {value}")
        self.backend = backend
        # The project these notes belong to (None: a profile's MEMORY.md and USER.md).
        self.project = project
        self.targets: dict[str, str] = dict(TARGET_FILES if project is None else PROJECT_FILES)
        self._limits = ({"memory": memory_char_limit, "user": user_char_limit} if project is None
                        else {PROJECT_TARGET: project_char_limit})
        # "approve": writes from the model become pending proposals (see silcrow.store._pending).
        self.write_policy = checked_policy(write_policy)
        if on_full not in ON_FULL:
            raise StoreError(f"unknown on_full {on_full!r}: use one of {', '.join(ON_FULL)}")
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
        # The parts, each of its own job, on the same backend.
        self._upkeep = Upkeep(backend, self.targets)
        # What an add that would overflow a file does (on_full): refuse (naming the eviction
        # candidates), or archive the least used, oldest entries to make room.
        self._writes = WritePath(backend, self._limits, on_full, self._upkeep, self.targets)
        self._gate = Gate(self._writes)
        # With a chat model configured and [memory] judge_held_notes on, the entry point sets a
        # judge of what the scan's learned stages hold (silcrow.agent.model_hold_judge): a note it
        # releases is saved, and the journal records its reason (``released_by_model``).
        self.hold_judge: threats.HoldJudge | None = None

    @property
    def on_full(self) -> str:
        """What an add that would overflow a file does: ``refuse`` or ``archive_oldest``."""
        return self._writes.on_full

    @classmethod
    def of(cls, profile: ProfileSettings, *, lock_timeout: float | None = None,
           backend: StoreBackend | None = None,
           project: str | os.PathLike[str] | Project | None = None) -> MemoryStore:
        """The notes of an opened profile with every setting of its ``[memory]`` table (limits,
        write policy, on_full, review threshold), on ``backend`` (one opened earlier, to keep what
        it caches) or its own. What ``MemoryStore(home)`` and ``Profile.store()`` both build.
        ``project``: a project's root; the store is then that project's notes (``PROJECT.md``),
        kept in the profile beside its own."""
        settings = profile.settings
        place = (project if project is None or isinstance(project, Project)
                 else Projects(profile, lock_timeout=lock_timeout).project(project))
        if backend is None:
            backend = (notes_backend(profile, lock_timeout=lock_timeout) if place is None
                       else place.registry.backend(place))
        return cls(backend=backend,
                   memory_char_limit=settings.memory_char_limit, user_char_limit=settings.user_char_limit,
                   write_policy=settings.write_policy, on_full=settings.on_full,
                   review_threshold=settings.review_threshold, project_char_limit=settings.project_char_limit,
                   project=place)

    # ----------------------------------------------------------------- reads

    def _check_target(self, target: str) -> str:
        if not (isinstance(target, str) and target in self.targets):
            shown = threats.display_safe(repr(target)[:80])
            raise StoreError(f"unknown memory target {shown}: use {' or '.join(map(repr, self.targets))}")
        return self.targets[target]

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
        return [target for target in self.targets if self.fullness(target) >= self.review_threshold]

    def usage(self, target: str) -> str:
        """Live usage, e.g. ``"62% — 1,364/2,200 chars"``."""
        return self.read(target).usage

    def read(self, target: str) -> NotesView:
        """The live entries of ``target`` with their usage, from one read of the file."""
        entries = self.entries(target)
        return NotesView(target, self.targets[target], tuple(entries), E.char_count(entries),
                         self.char_limit(target))

    def load(self) -> None:
        """Read the files and capture the frozen snapshot for the system prompt."""
        self.backend.reread()
        snapshot: dict[str, str | None] = {}
        title = None if self.project is None else render.project_title(self.project.root)
        for target, file_name in self.targets.items():
            document = Document.parse(self.backend.read(file_name, strict=True))
            limit = self._limits[target]
            problems = document.problems(limit)
            shown = document.entries
            if problems:  # undecodable bytes (if any) are shown as U+FFFD in the prompt
                shown = list(dict.fromkeys(E.replace_undecodable(e) for e in shown))
            snapshot[target] = render.render_block(target, shown, limit, file_name, drifted=bool(problems),
                                                   title=title)
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
        blocks = [self.snapshot_block(t) for t in self.targets]
        return "\n\n".join(b for b in blocks if b)

    def history(self, target: str | None = None) -> list[dict[str, Any]]:
        """Committed mutations (and undos), oldest first."""
        if target is not None:
            self._check_target(target)
        return [r for r in self.backend.journal_records() if target is None or r.get("target") == target]

    def doctor(self) -> list[dict[str, Any]]:
        """Check both files: shape, budget, threats, leftovers of crashed writers."""
        return [self._diagnose(target) for target in self.targets]

    def _diagnose(self, target: str) -> dict[str, Any]:
        file_name = self.targets[target]
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
            hits = render.blocking_hits(entry)
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
        return self._guarded(lambda: self._writes.undo(known_target(target, self.targets), origin))

    def _guarded(self, operation: Callable[[], Done]) -> MemoryResult:
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
            done = operation()
        except Refused as refused:
            refusal = refused.refusal
        else:
            self._consolidating = False
            self._failed_attempts = 0
            return done.result()
        shown = [*(refusal.current_entries or []), *(refusal.matches or [])]
        if shown and refusal.target in self.targets:
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
        # What the model is told to do about it is the memory tool's wording (silcrow.tool).
        return replace(
            refusal,
            terminal=True,
            error=(f"{refusal.error} — {MAX_FAILED_ATTEMPTS} memory updates have failed in a row this "
                   "turn; memory updates work again next turn."),
        ).result()

    # -------------------------------------------- the write entry: checked, then held or committed

    def _gated(self, origin: str) -> Holds:
        """A list to collect uncertain threat hits in when writes from ``origin`` are held for
        approval (they become a proposal, flagged); None when they are written (or refused)."""
        return [] if origin in MODEL_ORIGINS and self.write_policy == "approve" else None

    def _add(self, target: Any, content: Any, origin: str, force: bool = False) -> Done:
        target = known_target(target, self.targets)
        force = force and origin not in MODEL_ORIGINS
        gated = self._gated(origin)
        released: list[dict[str, Any]] = []
        text = checked_content(content, "give the fact to save as 'content'", force, gated,
                               self.hold_judge, released)
        if gated is not None:
            return self._gate.propose(target, "add", add_edit(text), gated, self.proposer, content=text)
        return self._writes.commit(target, "add", origin, add_edit(text), appends=True,
                                   confirmed=confirmed_ids(text, force), released=_first(released))

    def _replace(self, target: Any, old_text: Any, new_content: Any, origin: str,
                 force: bool = False) -> Done:
        target = known_target(target, self.targets)
        old = checked_old_text(old_text, "replace")
        force = force and origin not in MODEL_ORIGINS
        gated = self._gated(origin)
        released: list[dict[str, Any]] = []
        text = checked_content(
            new_content, "give the new text of the entry as 'content' (to delete it, use remove)", force,
            gated, self.hold_judge, released,
        )
        edit = replace_edit(self._writes.where(target), old, text)
        if gated is not None:
            return self._gate.propose(target, "replace", edit, gated, self.proposer, content=text,
                                      old_text=old)
        return self._writes.commit(target, "replace", origin, edit, confirmed=confirmed_ids(text, force),
                                   released=_first(released))

    def _remove(self, target: Any, old_text: Any, origin: str) -> Done:
        target = known_target(target, self.targets)
        old = checked_old_text(old_text, "remove")
        edit = remove_edit(self._writes.where(target), old)
        if self._gated(origin) is not None:
            return self._gate.propose(target, "remove", edit, [], self.proposer, old_text=old)
        return self._writes.commit(target, "remove", origin, edit)

    def _batch(self, target: Any, operations: Any, origin: str) -> Done:
        target = known_target(target, self.targets)
        gated = self._gated(origin)
        if gated is not None and isinstance(operations, list) and len(operations) > MAX_OPERATIONS:
            raise Refused(Refusal(
                f"A batch waiting for approval holds at most {MAX_OPERATIONS} operations; this one has "
                f"{len(operations):,}. Nothing was saved: split it into batches of at most {MAX_OPERATIONS} "
                "(the user reviews each on its own).", target=target))
        edit = batch_edit(self._writes.where(target), operations, gated)
        if gated is not None:
            return self._gate.propose(target, "batch", edit, gated, self.proposer,
                                      operations=list(operations))
        return self._writes.commit(target, "batch", origin, edit, confirmed=held_ids(gated))

    # ------------------------------------------------------- the approval gate

    @property
    def proposals(self) -> ProposalBox:
        """The pending proposals of this store's profile."""
        return self._gate.box

    def pending(self) -> list[Proposal]:
        """Writes from the model waiting for approval, oldest first."""
        return self._gate.pending()

    def box_usage(self) -> dict[str, Any]:
        """How full the box of pending proposals is (see :func:`silcrow.store._pending.usage`)."""
        return self._gate.box_usage()

    def review(self, *, sequential: bool = False) -> list[dict[str, Any]]:
        """The pending proposals, each with its net effect on the live entries (see
        :func:`silcrow.store._pending.effect`): ``changes`` (entries removed, added, changed),
        ``base`` (pass it to :meth:`approve`), ``problem`` (why it cannot apply now) and ``stale``.
        With ``sequential`` each is computed against the entries the ones before it leave when
        they are approved in order, oldest first (what ``approve --all`` meets)."""
        return self._gate.review(sequential=sequential)

    def resolve_proposal_id(self, given: str) -> str:
        """The pending proposal's id ``given`` is a unique prefix of (at least four characters),
        else ``given`` itself; :class:`Refused` when it starts several."""
        return self._gate.resolve_id(given)

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
        return self._gate.approve(proposal_id, origin=origin, base=base)

    def reject(self, proposal_id: str, reason: str | None = None) -> MemoryResult:
        """Drop a pending proposal; it is kept a while among the decided ones, with ``reason``."""
        return self._gate.reject(proposal_id, reason)

    # ------------------------------------------------------ metadata and archive

    def details(self, target: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """Each live entry with its metadata: when it was added and last changed, and by whom
        (``*_by``: origin, token, session), how many sessions' prompts it was in, when a tool
        or recall last surfaced it. By target (both when ``target`` is None)."""
        targets = [target] if target is not None else list(self.targets)
        for name in targets:
            self._check_target(name)
        return self._upkeep.details(targets)

    def archived(self, query: str | None = None, *, target: str | None = None) -> list[dict[str, Any]]:
        """Entries that left the notes (removed, replaced, evicted, undone, edited away), newest
        first, each with its ``id``; ``query``: only those holding each of its words."""
        if target is not None:
            self._check_target(target)
        return self._upkeep.archived(query, target)

    def restore(self, item_id: str, *, origin: str = "api") -> MemoryResult:
        """Add an archived entry back to its file through the normal write path (lock, scan,
        budget, journal, approval gate for the model)."""
        try:
            item = self._upkeep.archived_item(item_id)
        except Refused as refused:
            return refused.refusal.result()
        if item is None:
            return Refusal(f"no archived entry {threats.display_safe(str(item_id))!r}; list them with "
                           "`silcrow memory archive`").result()
        result = self.add(str(item["target"]), str(item["text"]), origin=origin)
        if result.get("success"):
            result["restored"] = str(item["id"])
        return result

    def mirror_archive(self, remember: Callable[[str], Any]) -> int:
        """Hand each archived entry not mirrored yet to ``remember`` (e.g. the recall provider's
        ``remember``), so a note dropped from the prompt can still be recalled when it matters;
        returns how many went. An item whose ``remember`` fails stays unmirrored, for next time."""
        return self._upkeep.mirror(remember)

    def note_prompt_use(self, session: str | None = None) -> None:
        """Count this session's system prompt for every entry of the frozen snapshot (call once
        when a session's prompt is built). Metadata only: a failure is logged, never raised."""
        if self._snapshot is None:
            self.load()
        self._upkeep.note_prompt({target: self.entries(target) for target in self.targets
                                  if self.snapshot_block(target)}, session)

    def note_surfaced(self, target: str, entries: list[str], how: str) -> None:
        """Record that a tool or recall showed ``entries`` of ``target``."""
        self._check_target(target)
        self._upkeep.note_surfaced(target, entries, how)

    def consolidate(self, *, embed: Any = None, merge: Any = None, decide: Any = None,
                    unused_days: int = UNUSED_DAYS) -> list[dict[str, Any]]:
        """The review pass (see :mod:`silcrow.store._review`): near-duplicates, contained and
        contradicted entries, entries unused for ``unused_days``, each made a pending proposal
        with its reason (``embed``: texts -> normalised vectors, for duplicates by meaning;
        ``merge``: the merged wording of two entries, e.g. from a model; ``decide``: a model's
        judgement of a pair, see :func:`silcrow.store._review.find`). Nothing is applied;
        a finding already pending is not proposed again, nor one the user rejected while its
        entries are unchanged (returned with ``declined``: when and why). Returns the findings,
        each with its ``proposal_id``."""
        return self._upkeep.consolidate(self.details(), self.pending(), self.proposals, embed=embed,
                                        merge=merge, decide=decide, unused_days=unused_days)


def _first(released: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The chat model's release of a held write, for the journal; None when there was none."""
    return released[0] if released else None
