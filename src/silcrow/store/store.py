"""MemoryStore: the agent's curated notes, MEMORY.md and USER.md.

Two views of the same files, on purpose:

* the *frozen snapshot*, captured by :meth:`MemoryStore.load`, is what goes
  into the system prompt; writes never change it, so the prompt prefix (and
  the provider's prompt cache) stays byte-identical for the whole session;
* the *live entries*, read from disk on every call, are what mutations act on
  and what tool results report.

Every mutation returns a dict and never raises for bad input: a model reads
the result, so each error says what was wrong and what to do next.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from silcrow.config import MEMORY_CHAR_LIMIT, USER_CHAR_LIMIT
from silcrow.errors import DriftError, LockTimeoutError, StoreError
from silcrow.paths import default_home, memories_dir
from silcrow.safety import threats
from silcrow.store import entries as E
from silcrow.store import render
from silcrow.store.backend import StoreBackend, Transaction
from silcrow.store.edits import (
    Edit,
    Result,
    Where,
    add_edit,
    batch_edit,
    checked_content,
    checked_old_text,
    refusal,
    remove_edit,
    replace_edit,
    safe_entries,
    safe_shape_problems,
)
from silcrow.store.files import DEFAULT_LOCK_TIMEOUT, FileBackend
from silcrow.store.journal import new_record

log = logging.getLogger(__name__)

TARGET_FILES = {"memory": "MEMORY.md", "user": "USER.md"}
MAX_FAILED_ATTEMPTS = 3


def _known_target(target: Any) -> bool:
    # isinstance first: an unhashable target (a list, a dict) must not raise TypeError.
    return isinstance(target, str) and target in TARGET_FILES


def _unknown_target(target: Any) -> Result:
    shown = threats.display_safe(repr(target)[:80])
    return refusal(f"unknown target {shown}: use 'memory' (your notes) or 'user' (the user profile)")


class MemoryStore:
    """Curated notes that live in the system prompt. See the module docstring."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        *,
        memory_char_limit: int = MEMORY_CHAR_LIMIT,
        user_char_limit: int = USER_CHAR_LIMIT,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        backend: StoreBackend | None = None,
    ) -> None:
        for name, value in (
            ("memory_char_limit", memory_char_limit),
            ("user_char_limit", user_char_limit),
        ):
            if value <= 0:
                raise StoreError(f"{name} must be a positive number of characters, got {value}")
        self.home = Path(home).expanduser() if home is not None else default_home()
        self.backend = backend or FileBackend(memories_dir(self.home), lock_timeout=lock_timeout)
        self._limits = {"memory": memory_char_limit, "user": user_char_limit}
        self._snapshot: dict[str, str | None] | None = None
        # Consolidation guard (see _guarded): consecutive failures since a write
        # was refused for the size limit in this turn.
        self._consolidating = False
        self._failed_attempts = 0
        self._refused_for_size = False

    # ----------------------------------------------------------------- reads

    def _check_target(self, target: str) -> str:
        if not _known_target(target):
            shown = threats.display_safe(repr(target)[:80])
            raise StoreError(f"unknown memory target {shown}: use 'memory' or 'user'")
        return TARGET_FILES[target]

    def path(self, target: str) -> Path:
        """Where ``target`` lives on disk (for the file backend)."""
        return Path(self.backend.location(self._check_target(target)))

    def char_limit(self, target: str) -> int:
        self._check_target(target)
        return self._limits[target]

    def entries(self, target: str) -> list[str]:
        """The live entries of ``target``, read from disk now."""
        return E.parse(self.backend.read(self._check_target(target)))

    def usage(self, target: str) -> str:
        """Live usage, e.g. ``"62% — 1,364/2,200 chars"``."""
        return E.format_usage(E.char_count(self.entries(target)), self.char_limit(target))

    def load(self) -> None:
        """Read both files and capture the frozen snapshot for the system prompt."""
        snapshot: dict[str, str | None] = {}
        for target, file_name in TARGET_FILES.items():
            raw = self.backend.read(file_name, strict=True)
            limit = self._limits[target]
            snapshot[target] = render.render_block(
                target,
                E.parse(E.replace_undecodable(raw)),
                limit,
                file_name,
                drifted=bool(E.shape_problems(raw, limit)),
            )
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
        raw = self.backend.read(file_name, strict=True)
        problems = E.shape_problems(raw, limit)
        backup: str | None = None
        leftovers = self.backend.leftovers(file_name)
        if problems or leftovers:
            # Under the lock: the backup is of a settled file, and the
            # transaction removes temp files of writers that died.
            with self.backend.transaction(file_name) as tx:
                raw = tx.read()
                problems = E.shape_problems(raw, limit)
                if problems:
                    backup = tx.backup(raw)
        current = E.parse(raw)
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
        }

    # ------------------------------------------------------------- mutations

    def reset_turn(self) -> None:
        """Start a new agent turn: forget the failed consolidation attempts of the previous one."""
        self._consolidating = False
        self._failed_attempts = 0

    def add(self, target: str, content: str, *, origin: str = "api") -> Result:
        """Append an entry (an exact duplicate succeeds without adding)."""
        return self._guarded(lambda: self._add(target, content, origin))

    def replace(self, target: str, old_text: str, new_content: str, *, origin: str = "api") -> Result:
        """Replace the entry that contains ``old_text`` with ``new_content``."""
        return self._guarded(lambda: self._replace(target, old_text, new_content, origin))

    def remove(self, target: str, old_text: str, *, origin: str = "api") -> Result:
        """Remove the entry that contains ``old_text``."""
        return self._guarded(lambda: self._remove(target, old_text, origin))

    def apply_batch(self, target: str, operations: Any, *, origin: str = "api") -> Result:
        """Apply several add/replace/remove operations all-or-nothing, with one write."""
        return self._guarded(lambda: self._batch(target, operations, origin))

    def undo(self, target: str, *, origin: str = "api") -> Result:
        """Restore the state before the last committed mutation of ``target`` that is not undone yet."""
        return self._guarded(lambda: self._undo(target, origin))

    def _guarded(self, operation: Callable[[], Result]) -> Result:
        # A model that keeps failing to consolidate a full memory would loop
        # forever. Counting starts when a write is refused for the size limit;
        # that refusal and the failures right after it are the consolidation
        # attempts, and after three in a row the model is told to stop for the
        # rest of the turn. Other failures (a typo in old_text, a bad target)
        # outside consolidation never count, so a library user who never calls
        # reset_turn() is not blocked by them.
        if self._failed_attempts >= MAX_FAILED_ATTEMPTS:
            return self._terminal(refusal("memory updates are paused for the rest of this turn"))
        self._refused_for_size = False
        result = operation()
        if result.get("success"):
            self._consolidating = False
            self._failed_attempts = 0
            return result
        if self._refused_for_size:
            self._consolidating = True
        if not self._consolidating:
            return result
        self._failed_attempts += 1
        if self._failed_attempts >= MAX_FAILED_ATTEMPTS:
            return self._terminal(result)
        return result

    def _terminal(self, result: Result) -> Result:
        return {
            **result,
            "terminal": True,
            "error": (
                f"{result['error']} — {MAX_FAILED_ATTEMPTS} memory updates have failed in a row this "
                "turn. STOP calling the memory tool now and answer the user; if something important "
                "could not be saved, tell the user so. Memory updates work again next turn."
            ),
        }

    def _where(self, target: str) -> Where:
        return Where(TARGET_FILES[target], self._limits[target])

    def _add(self, target: Any, content: Any, origin: str) -> Result:
        if not _known_target(target):
            return _unknown_target(target)
        text = checked_content(content, "give the fact to save as 'content'")
        if isinstance(text, dict):
            return text
        return self._commit(target, "add", origin, add_edit(text), append=text)

    def _replace(self, target: Any, old_text: Any, new_content: Any, origin: str) -> Result:
        if not _known_target(target):
            return _unknown_target(target)
        old = checked_old_text(old_text, "replace")
        if isinstance(old, dict):
            return old
        text = checked_content(
            new_content, "give the new text of the entry as 'content' (to delete it, use remove)"
        )
        if isinstance(text, dict):
            return text
        return self._commit(target, "replace", origin, replace_edit(self._where(target), old, text))

    def _remove(self, target: Any, old_text: Any, origin: str) -> Result:
        if not _known_target(target):
            return _unknown_target(target)
        old = checked_old_text(old_text, "remove")
        if isinstance(old, dict):
            return old
        return self._commit(target, "remove", origin, remove_edit(self._where(target), old))

    def _batch(self, target: Any, operations: Any, origin: str) -> Result:
        if not _known_target(target):
            return _unknown_target(target)
        edit = batch_edit(self._where(target), operations)
        if isinstance(edit, dict):
            return edit
        return self._commit(target, "batch", origin, edit)

    def _undo(self, target: Any, origin: str) -> Result:
        if not _known_target(target):
            return _unknown_target(target)
        file_name = TARGET_FILES[target]
        with self.backend.transaction(file_name) as tx:
            raw = tx.read()
            current = E.parse(raw)
            problems = safe_shape_problems(raw, self._where(target))
            if problems:
                return self._driftrefusal(tx, target, raw, problems)
            pending: list[dict[str, Any]] = []
            for record in self.backend.journal_records():
                if record.get("target") != target:
                    continue
                if record.get("action") == "undo":
                    pending = [r for r in pending if r.get("id") != record.get("undoes")]
                else:
                    pending.append(record)
            if not pending:
                return refusal(
                    f"Nothing to undo in {file_name}: no committed change is left in its history."
                )
            last = pending[-1]
            if current != last["after"]:
                return refusal(
                    f"Cannot undo the last {last['action']} of {file_name} ({last['time']}): the file has "
                    "changed since then outside silcrow's history, and undo would discard that change. "
                    "Nothing was changed; edit the file directly or use replace/remove.",
                    current_entries=safe_entries(current, file_name),
                )
            restored = list(last["before"])
            tx.write(E.serialize(restored))
            tx.journal(
                new_record(
                    target=target,
                    action="undo",
                    origin=origin,
                    before=current,
                    after=restored,
                    undoes=last["id"],
                )
            )
        return self._success(target, restored, f"Undid the {last['action']} of {last['time']}.")

    # ------------------------------------------------------------------ core

    def _success(self, target: str, current: list[str], message: str, **extra: Any) -> Result:
        return {
            "success": True,
            "target": target,
            "usage": E.format_usage(E.char_count(current), self._limits[target]),
            "entry_count": len(current),
            "message": message,
            **extra,
        }

    def _driftrefusal(self, tx: Transaction, target: str, raw: str, problems: list[str]) -> Result:
        file_name = TARGET_FILES[target]
        backup = tx.backup(raw)
        error = DriftError(
            f"{self.backend.location(file_name)} was changed outside silcrow into a shape it would not "
            f"write back unchanged: {'; '.join(problems)}. Nothing was changed; a copy is saved at {backup}. "
            "Fix the file by hand (entries are separated by a line containing only '§'; split or shorten "
            "oversized entries), then retry; `silcrow memory doctor` re-checks it. "
            "Adding entries still works."
        )
        return refusal(str(error), target=target, backup=backup, problems=problems)

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

    def _commit(
        self, target: str, action: str, origin: str, edit: Edit, append: str | None = None
    ) -> Result:
        """Lock, re-read, apply ``edit``, check the budget, write atomically, journal."""
        file_name = TARGET_FILES[target]
        limit = self._limits[target]
        with self.backend.transaction(file_name) as tx:
            raw = tx.read()
            problems = safe_shape_problems(raw, self._where(target))
            if problems and append is None:
                return self._driftrefusal(tx, target, raw, problems)
            current = E.parse(raw)
            self._journal_outside_change(tx, target, current)
            outcome = edit(current)
            if isinstance(outcome, dict):
                return {"target": target, **outcome}
            updated, message = outcome
            if updated == current:
                return self._success(target, current, message)
            used_before, used_after = E.char_count(current), E.char_count(updated)
            # A change that does not grow the file is always allowed, so a file
            # that is over budget can be consolidated step by step.
            if used_after > limit and used_after > used_before:
                self._refused_for_size = True
                return refusal(
                    f"{file_name} would be {used_after:,}/{limit:,} chars after this {action}, over its "
                    "limit; nothing was saved. Consolidate now: merge related entries with replace, shorten "
                    "wordy ones, remove what no longer matters, then retry."
                    + (f" Note: {'; '.join(problems)}." if problems else ""),
                    target=target,
                    current_entries=safe_entries(current, file_name),
                    usage=E.format_usage(used_before, limit),
                )
            if problems and append is not None:
                # The file has a shape silcrow would not rewrite: append to the
                # text as it is, leaving every existing byte alone.
                base = raw.rstrip()
                text = (
                    f"{base}{E.ENTRY_DELIMITER}{E.escape_entry(append)}"
                    if base
                    else E.escape_entry(append)
                )
                updated = E.parse(text)
                message += f" Warning: {'; '.join(problems)}; run `silcrow memory doctor`."
            else:
                text = E.serialize(updated)
            tx.write(text)
            tx.journal(
                new_record(target=target, action=action, origin=origin, before=current, after=updated)
            )
        return self._success(target, updated, message)
