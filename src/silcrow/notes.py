"""The curated notes as every surface uses them: one typed service over a store.

:class:`Notes` is the one way a surface reads and changes the notes: the agent's
memory tool (:mod:`silcrow.tool`), the MCP server, the REST API, the inspector and
the approval gate all call it. Each call says where it came from (``origin``:
``"tool"``, ``"mcp"``, ``"rest"``, ``"inspector"``, ...), which the journal
records, and may name its caller (a :class:`~silcrow.store.Proposer`: session,
client, token), which a held write's proposal records. The results are the
store's typed ones (:class:`~silcrow.store.MemoryResult`,
:class:`~silcrow.store.NotesView`); tool JSON is made of them only at the
model's edge.

It also owns the one rule that joins the two memories: a committed write is
passed on to the recall provider (``on_memory_write``), after the notes are
written and never instead of them; a write held for approval is passed on when
a person approves it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any, Protocol

from silcrow.errors import ReviewRequiredError
from silcrow.store import (
    TARGET_FILES,
    MemoryResult,
    MemoryStore,
    NotesView,
    Proposal,
    Proposer,
    current_proposer,
    proposal_steps,
    safe_entry,
)

__all__ = ["Notes", "WriteListener"]

log = logging.getLogger(__name__)


class WriteListener(Protocol):
    """What hears of committed note writes: the recall manager (``MemoryManager``)."""

    def on_memory_write(self, action: str, target: str, content: str) -> None: ...


class Notes:
    """Typed reads and writes of one store's notes; committed writes reach ``recall`` too."""

    def __init__(self, store: MemoryStore, recall: WriteListener | None = None) -> None:
        self.store = store
        self.recall = recall

    # -- reads -----------------------------------------------------------------------------------

    def read(self, target: str, *, shown_to: str | None = None) -> NotesView:
        """The live entries of ``target`` and their usage, from one read. ``shown_to``: the
        entries are being shown to that kind of caller (``"tool"``), which their metadata keeps."""
        view = self.store.read(target)
        if shown_to is not None:
            self.store.note_surfaced(target, list(view.entries), shown_to)
        return view

    def pending(self) -> list[Proposal]:
        """The writes held for a person's approval, oldest first."""
        return self.store.pending()

    def entries(self, target: str) -> list[str]:
        """The live entries of ``target``, verbatim (for a person's own view and for addressing
        an entry; what goes to a model or a client is :meth:`read`'s ``safe_entries``)."""
        return self.store.entries(target)

    def usage(self, target: str) -> str:
        """Live usage of ``target``, e.g. ``"62% — 1,364/2,200 chars"``."""
        return self.store.usage(target)

    def char_limit(self, target: str) -> int:
        return self.store.char_limit(target)

    def location(self, target: str) -> str:
        """Where ``target`` lives, for people: a path, or a row of a database."""
        return self.store.location(target)

    def load(self) -> None:
        """Read both files now and freeze the snapshot the prompt section shows."""
        self.store.load()

    def prompt_section(self) -> str:
        """Both frozen blocks as they go into a system prompt ('' when both are empty): each
        entry in the one safe rendering (a threat as ``[BLOCKED: ...]``, invisible characters as
        ``<U+XXXX>``). The snapshot is the one :meth:`load` froze (taken now if none was)."""
        return self.store.system_prompt_section()

    def snapshot_block(self, target: str) -> str | None:
        """The frozen block of ``target`` alone; None when it was empty at :meth:`load`."""
        return self.store.snapshot_block(target)

    # Duck-typed name the prompt builder (:func:`silcrow.agent.build_system_prompt`) reads.
    system_prompt_section = prompt_section

    def note_prompt_use(self, session: str | None = None) -> None:
        """Count a session's system prompt for every entry of the frozen snapshot."""
        self.store.note_prompt_use(session)

    def history(self, target: str | None = None, *, safe: bool = False) -> list[dict[str, Any]]:
        """Committed mutations (and undos), oldest first; of ``target`` only when given.
        ``safe``: each entry (``before``, ``after``) in the one safe rendering, for a client."""
        records = self.store.history(target)
        if not safe:
            return records
        return [{**r, **{side: [_safe(r.get("target"), e) for e in r.get(side) or []]
                         for side in ("before", "after")}} for r in records]

    def doctor(self) -> list[dict[str, Any]]:
        """Both files checked: shape, budget, threats, leftovers of crashed writers."""
        return self.store.doctor()

    def details(self, target: str | None = None, *, safe: bool = False) -> dict[str, list[dict[str, Any]]]:
        """Each live entry with its metadata, by target (both when ``target`` is None).
        ``safe``: each ``text`` in the one safe rendering, for a client."""
        described = self.store.details(target)
        if not safe:
            return described
        return {name: [{**item, "text": _safe(name, item.get("text"))} for item in items]
                for name, items in described.items()}

    def archived(self, query: str | None = None, *, target: str | None = None,
                 safe: bool = False) -> list[dict[str, Any]]:
        """Entries that left the notes, newest first; ``query``: only those holding its words.
        ``safe``: each ``text`` in the one safe rendering, for a client."""
        items = self.store.archived(query, target=target)
        if not safe:
            return items
        return [{**item, "text": _safe(item.get("target"), item.get("text"))} for item in items]

    def review(self, *, sequential: bool = False) -> list[dict[str, Any]]:
        """The held writes, each with its net effect on the live entries (see
        :meth:`MemoryStore.review`)."""
        return self.store.review(sequential=sequential)

    def box_usage(self) -> dict[str, Any]:
        """How full the box of held writes is."""
        return self.store.box_usage()

    def resolve_proposal_id(self, given: str) -> str:
        """The held write's id ``given`` is a unique prefix of, else ``given`` itself."""
        return self.store.resolve_proposal_id(given)

    # -- upkeep ----------------------------------------------------------------------------------

    def due_for_review(self) -> list[str]:
        """The targets full enough to be due for a review pass."""
        return self.store.due_for_review()

    def consolidate(self, *, embed: Any = None, merge: Any = None, decide: Any = None,
                    unused_days: int | None = None) -> list[dict[str, Any]]:
        """The review pass (see :meth:`MemoryStore.consolidate`): findings held as proposals."""
        if unused_days is None:
            return self.store.consolidate(embed=embed, merge=merge, decide=decide)
        return self.store.consolidate(embed=embed, merge=merge, decide=decide, unused_days=unused_days)

    def mirror_archive(self, remember: Callable[[str], Any]) -> int:
        """Hand each archived entry not mirrored yet to ``remember``; how many went."""
        return self.store.mirror_archive(remember)

    def reset_turn(self) -> None:
        """Start a new turn of the store's per-turn state."""
        self.store.reset_turn()

    @property
    def proposer(self) -> Proposer:
        """Who this notes' held writes name as their proposer, unless a call names its own."""
        return self.store.proposer

    @proposer.setter
    def proposer(self, value: Proposer) -> None:
        self.store.proposer = value

    # -- writes ----------------------------------------------------------------------------------

    def add(self, target: str, content: str, *, origin: str, caller: Proposer | None = None,
            force: bool = False) -> MemoryResult:
        with _calling(caller):
            result = self.store.add(target, content, origin=origin, force=force)
        return self._told(result, target, [{"action": "add", "content": content}])

    def replace(self, target: str, old_text: str, content: str, *, origin: str,
                caller: Proposer | None = None, force: bool = False) -> MemoryResult:
        with _calling(caller):
            result = self.store.replace(target, old_text, content, origin=origin, force=force)
        step = {"action": "replace", "old_text": old_text, "content": content}
        return self._told(result, target, [step])

    def remove(self, target: str, old_text: str, *, origin: str,
               caller: Proposer | None = None) -> MemoryResult:
        with _calling(caller):
            result = self.store.remove(target, old_text, origin=origin)
        return self._told(result, target, [{"action": "remove", "old_text": old_text}])

    def batch(self, target: str, operations: Any, *, origin: str,
              caller: Proposer | None = None) -> MemoryResult:
        """Several add/replace/remove steps, all or nothing, in one write."""
        with _calling(caller):
            result = self.store.apply_batch(target, operations, origin=origin)
        steps = operations if isinstance(operations, list) else []
        return self._told(result, target, steps)

    def may_undo(self, *, person: bool) -> bool:
        """The undo permission: a person may always step the notes back; a model's caller only
        while its writes are not held for a person (``write_policy = "approve"``), since an undo
        would step back the person's edits and approvals too, and is never held itself."""
        return person or self.store.write_policy != "approve"

    def undo(self, target: str, *, origin: str, person: bool = True) -> MemoryResult:
        """Restore ``target`` as it was before its last committed change. ``person``: whether a
        person asks (see :meth:`may_undo`); a caller that may not undo gets
        :class:`~silcrow.errors.ReviewRequiredError`."""
        if not self.may_undo(person=person):
            action = 'undo while write_policy = "approve"'
            raise ReviewRequiredError(
                f"{action} takes a person: the model's writes wait for a person's approval, and an undo "
                "would step back their edits and approvals too; a person undoes with `silcrow memory "
                "undo` or the inspector", action=action)
        return self.store.undo(target, origin=origin)

    def restore(self, item_id: str, *, origin: str, caller: Proposer | None = None) -> MemoryResult:
        """Add an archived entry back (see :meth:`MemoryStore.restore`); recall hears of it as of
        any committed add."""
        item = next((i for i in self.store.archived() if i.get("id") == item_id), None)
        with _calling(caller):
            result = self.store.restore(item_id, origin=origin)
        if item is None:
            return result
        return self._told(result, item["target"], [{"action": "add", "content": item["text"]}])

    def decide(self, proposal_id: str, approve: bool, *, reason: str | None = None,
               origin: str = "approved", base: str | None = None) -> MemoryResult:
        """A person's decision on a held write: ``approve`` applies it through the store's write
        path (``base``: the version of the notes the person saw the change against; recall hears
        of it as of any committed write), else it is dropped."""
        if not approve:
            return self.store.reject(proposal_id, reason)
        found = next((p for p in self.store.pending() if p.id == proposal_id), None)
        result = self.store.approve(proposal_id, origin=origin, base=base)
        if found is None:
            return result
        return self._told(result, found.target, proposal_steps(found))

    # -- the rule that joins the two memories ----------------------------------------------------

    def _told(self, result: MemoryResult, target: Any, steps: Sequence[Any]) -> MemoryResult:
        """Pass a committed write on to recall; a refused or held one is not in the notes."""
        if self.recall is None or not result.get("success") or result.get("pending"):
            return result
        try:
            tell_recall(self.recall, str(target), steps)
        except Exception:  # the notes are written; a provider's hiccup is only logged
            log.exception("could not tell the recall provider about a %s write", target)
        return result


def _safe(target: Any, entry: Any) -> str:
    """An entry of ``target`` as a client or a model may be shown it: the one safe rendering
    (:func:`silcrow.store.safe_entry`: a threat as ``[BLOCKED: ...]``, invisible characters as
    ``<U+XXXX>``)."""
    return safe_entry(str(entry), TARGET_FILES.get(str(target), "MEMORY.md"))


def tell_recall(recall: WriteListener, target: str, steps: Sequence[Any]) -> None:
    """Each step of a committed write (the memory tool's ``{action, content, old_text}``) as the
    provider hears it: a removal by the text it removed, the others by their new text."""
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        action = str(step.get("action", ""))
        content = step.get("old_text") if action == "remove" else step.get("content")
        recall.on_memory_write(action, target, str(content or ""))


@contextlib.contextmanager
def _calling(caller: Proposer | None) -> Iterator[None]:
    """``caller`` as the proposer of a write held in this call (what it leaves unset comes from
    an outer context, e.g. a server's per-request proposer)."""
    if caller is None:
        yield
        return
    outer = current_proposer.get()
    if outer is not None:
        given = caller
        caller = Proposer(**{f.name: getattr(given, f.name) or getattr(outer, f.name)
                             for f in fields(Proposer)})
    token = current_proposer.set(caller)
    try:
        yield
    finally:
        current_proposer.reset(token)
