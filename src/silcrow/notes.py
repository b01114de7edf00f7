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

A session in a project (the git work tree it runs in) also has the project's notes,
``PROJECT.md``: a store of their own (:meth:`silcrow.home.Profile.notes` with ``project=``),
which this service serves as the target ``project`` beside ``memory`` and ``user``: the same
calls, every guarantee of the store, proposals of both in one list. Without a project, the
target ``project`` is refused (a write) or a :class:`~silcrow.errors.ProjectRequiredError`
(a read), saying why and what to do where it was asked (the surface's own advice: a flag for
the CLI, ``project=`` for the library, a header for the servers).

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
from pathlib import Path
from typing import Any, Protocol

from silcrow.errors import ProjectRequiredError, ReviewRequiredError, StoreError
from silcrow.store import (
    PROJECT_FILES,
    PROJECT_TARGET,
    TARGET_FILES,
    MemoryResult,
    MemoryStore,
    NotesView,
    Proposal,
    Proposer,
    Refusal,
    current_proposer,
    proposal_steps,
    safe_entry,
)

__all__ = ["Notes", "WriteListener"]

log = logging.getLogger(__name__)


class WriteListener(Protocol):
    """What hears of committed note writes: the recall manager (``MemoryManager``)."""

    def on_memory_write(self, action: str, target: str, content: str) -> None: ...


# Why a session has no project notes, when nobody said: what the refusal of target "project" tells.
NO_PROJECT = "none was given to this session"
# What to do about it, when the caller does not say: the library's own way to name one.
NO_PROJECT_ADVICE = "name a directory inside a git work tree (project=DIR)"


class Notes:
    """Typed reads and writes of one store's notes (and of a project's, as the target
    ``project``); committed writes reach ``recall`` too."""

    def __init__(self, store: MemoryStore, recall: WriteListener | None = None, *,
                 project_store: MemoryStore | None = None, no_project: str = NO_PROJECT,
                 advice: str = NO_PROJECT_ADVICE) -> None:
        """``store``: the profile's notes (``memory``, ``user``); ``project_store``: the notes of
        the project the session runs in (a store made with ``project=``), else None, and then
        ``no_project`` says why and ``advice`` what to do on the caller's surface (a refusal of
        target ``project`` says both)."""
        if project_store is not None and project_store.project is None:
            raise StoreError("project_store must be a project's notes (MemoryStore.of(..., project=root))")
        self.store = store
        self.recall = recall
        self.project_store = project_store
        self._no_project = no_project
        self._advice = advice

    @property
    def project(self) -> Path | None:
        """The root of the project whose notes this serves as target ``project``; None outside one."""
        return None if self.project_store is None or self.project_store.project is None \
            else self.project_store.project.root

    @property
    def targets(self) -> tuple[str, ...]:
        """The targets served: ``memory`` and ``user``, and ``project`` in a project."""
        return (*TARGET_FILES, *(PROJECT_FILES if self.project_store is not None else ()))

    def _stores(self) -> list[MemoryStore]:
        return [self.store] if self.project_store is None else [self.store, self.project_store]

    def _no_project_text(self) -> str:
        return f"target 'project' needs a project, and {self._no_project}: {self._advice}"

    def _of(self, target: Any) -> MemoryStore:
        """The store serving ``target`` (for a read: ProjectRequiredError when it is ``project``
        and there is none; any other bad target is the profile store's to answer)."""
        if target == PROJECT_TARGET:
            if self.project_store is None:
                raise ProjectRequiredError(self._no_project_text())
            return self.project_store
        return self.store

    def _writing(self, target: Any) -> MemoryStore | None:
        """The store a write of ``target`` goes to; None when it is ``project`` and there is none."""
        if target == PROJECT_TARGET and self.project_store is None:
            return None
        return self._of(target)

    def _by_proposal(self, given: str) -> MemoryStore:
        """The store whose box holds the proposal ``given`` names (its id or a prefix of it):
        the project's when only its box has one, else the profile's."""
        if self.project_store is None or not isinstance(given, str) or not given:
            return self.store
        mine = [p.id for p in self.project_store.pending()]
        if given in mine or (any(i.startswith(given) for i in mine)
                             and not any(p.id.startswith(given) for p in self.store.pending())):
            return self.project_store
        return self.store

    # -- reads -----------------------------------------------------------------------------------

    def read(self, target: str, *, shown_to: str | None = None) -> NotesView:
        """The live entries of ``target`` and their usage, from one read. ``shown_to``: the
        entries are being shown to that kind of caller (``"tool"``), which their metadata keeps."""
        store = self._of(target)
        view = store.read(target)
        if shown_to is not None:
            store.note_surfaced(target, list(view.entries), shown_to)
        return view

    def pending(self) -> list[Proposal]:
        """The writes held for a person's approval (the project's too), oldest first."""
        if self.project_store is None:
            return self.store.pending()
        return sorted([*self.store.pending(), *self.project_store.pending()], key=lambda p: p.time)

    def entries(self, target: str) -> list[str]:
        """The live entries of ``target``, verbatim (for a person's own view and for addressing
        an entry; what goes to a model or a client is :meth:`read`'s ``safe_entries``)."""
        return self._of(target).entries(target)

    def usage(self, target: str) -> str:
        """Live usage of ``target``, e.g. ``"62% — 1,364/2,200 chars"``."""
        return self._of(target).usage(target)

    def char_limit(self, target: str) -> int:
        return self._of(target).char_limit(target)

    def location(self, target: str) -> str:
        """Where ``target`` lives, for people: a path, or a row of a database."""
        return self._of(target).location(target)

    def load(self) -> None:
        """Read the files now and freeze the snapshot the prompt section shows."""
        for store in self._stores():
            store.load()

    def prompt_section(self) -> str:
        """The frozen blocks as they go into a system prompt ('' when all are empty): the
        profile's two, then the project's (naming its root) in a project. Each entry is in the
        one safe rendering (a threat as ``[BLOCKED: ...]``, invisible characters as
        ``<U+XXXX>``). The snapshot is the one :meth:`load` froze (taken now if none was)."""
        return "\n\n".join(s for store in self._stores() if (s := store.system_prompt_section()))

    def snapshot_block(self, target: str) -> str | None:
        """The frozen block of ``target`` alone; None when it was empty at :meth:`load`."""
        return self._of(target).snapshot_block(target)

    # Duck-typed name the prompt builder (:func:`silcrow.agent.build_system_prompt`) reads.
    system_prompt_section = prompt_section

    def note_prompt_use(self, session: str | None = None) -> None:
        """Count a session's system prompt for every entry of the frozen snapshot."""
        for store in self._stores():
            store.note_prompt_use(session)
        self.note_session_start()

    def note_session_start(self) -> None:
        """A session starts with these notes (an agent, a hook, ``silcrow mcp``, an integration):
        the project's record notes its use (``last_used``; a project without one gets none). A
        person's reads (``silcrow memory show``) are no use and do not call this."""
        if self.project_store is not None:
            _touched(self.project_store, create=False)

    def history(self, target: str | None = None, *, safe: bool = False) -> list[dict[str, Any]]:
        """Committed mutations (and undos), oldest first; of ``target`` only when given.
        ``safe``: each entry (``before``, ``after``) in the one safe rendering, for a client."""
        if target is not None:
            records = self._of(target).history(target)
        else:
            records = sorted((r for store in self._stores() for r in store.history()),
                             key=lambda r: str(r.get("time") or ""))
        if not safe:
            return records
        return [{**r, **{side: [_safe(r.get("target"), e) for e in r.get(side) or []]
                         for side in ("before", "after")}} for r in records]

    def doctor(self) -> list[dict[str, Any]]:
        """Every file checked: shape, budget, threats, leftovers of crashed writers."""
        return [found for store in self._stores() for found in store.doctor()]

    def details(self, target: str | None = None, *, safe: bool = False) -> dict[str, list[dict[str, Any]]]:
        """Each live entry with its metadata, by target (all when ``target`` is None).
        ``safe``: each ``text`` in the one safe rendering, for a client."""
        if target is not None:
            described = self._of(target).details(target)
        else:
            described = {name: items for store in self._stores() for name, items in store.details().items()}
        if not safe:
            return described
        return {name: [{**item, "text": _safe(name, item.get("text"))} for item in items]
                for name, items in described.items()}

    def archived(self, query: str | None = None, *, target: str | None = None,
                 safe: bool = False) -> list[dict[str, Any]]:
        """Entries that left the notes, newest first; ``query``: only those holding its words.
        ``safe``: each ``text`` in the one safe rendering, for a client."""
        if target is not None:
            items = self._of(target).archived(query, target=target)
        else:
            items = sorted((i for store in self._stores() for i in store.archived(query)),
                           key=lambda i: str(i.get("archived") or ""), reverse=True)
        if not safe:
            return items
        return [{**item, "text": _safe(item.get("target"), item.get("text"))} for item in items]

    def review(self, *, sequential: bool = False) -> list[dict[str, Any]]:
        """The held writes, each with its net effect on the live entries (see
        :meth:`MemoryStore.review`); the project's after the profile's."""
        return [item for store in self._stores() for item in store.review(sequential=sequential)]

    def box_usage(self) -> dict[str, Any]:
        """How full the box of held writes is; in a project, the project's box under
        ``project``."""
        usage = self.store.box_usage()
        if self.project_store is not None:  # a box of its own, which fills on its own
            usage = {**usage, "project": self.project_store.box_usage()}
        return usage

    def resolve_proposal_id(self, given: str) -> str:
        """The held write's id ``given`` is a unique prefix of, else ``given`` itself."""
        return self._by_proposal(given).resolve_proposal_id(given)

    # -- upkeep ----------------------------------------------------------------------------------

    def due_for_review(self) -> list[str]:
        """The targets full enough to be due for a review pass."""
        return [t for store in self._stores() for t in store.due_for_review()]

    def consolidate(self, *, embed: Any = None, merge: Any = None, decide: Any = None,
                    unused_days: int | None = None) -> list[dict[str, Any]]:
        """The review pass (see :meth:`MemoryStore.consolidate`): findings held as proposals."""
        days = {} if unused_days is None else {"unused_days": unused_days}
        return [finding for store in self._stores()
                for finding in store.consolidate(embed=embed, merge=merge, decide=decide, **days)]

    def mirror_archive(self, remember: Callable[[str], Any]) -> int:
        """Hand each archived entry not mirrored yet to ``remember``; how many went."""
        return sum(store.mirror_archive(remember) for store in self._stores())

    def reset_turn(self) -> None:
        """Start a new turn of the stores' per-turn state."""
        for store in self._stores():
            store.reset_turn()

    @property
    def proposer(self) -> Proposer:
        """Who this notes' held writes name as their proposer, unless a call names its own."""
        return self.store.proposer

    @proposer.setter
    def proposer(self, value: Proposer) -> None:
        for store in self._stores():
            store.proposer = value

    @property
    def hold_judge(self) -> Any:
        """Who may release a note the scan's learned stages hold (a model's judgement, see
        :mod:`silcrow.safety._hold_judge`), for every store served: the project's notes too."""
        return self.store.hold_judge

    @hold_judge.setter
    def hold_judge(self, value: Any) -> None:
        for store in self._stores():
            store.hold_judge = value

    # -- writes ----------------------------------------------------------------------------------

    def add(self, target: str, content: str, *, origin: str, caller: Proposer | None = None,
            force: bool = False) -> MemoryResult:
        if (store := self._writing(target)) is None:
            return self._refused_project()
        with _calling(caller):
            result = store.add(target, content, origin=origin, force=force)
        return self._told(result, target, [{"action": "add", "content": content}])

    def replace(self, target: str, old_text: str, content: str, *, origin: str,
                caller: Proposer | None = None, force: bool = False) -> MemoryResult:
        if (store := self._writing(target)) is None:
            return self._refused_project()
        with _calling(caller):
            result = store.replace(target, old_text, content, origin=origin, force=force)
        step = {"action": "replace", "old_text": old_text, "content": content}
        return self._told(result, target, [step])

    def remove(self, target: str, old_text: str, *, origin: str,
               caller: Proposer | None = None) -> MemoryResult:
        if (store := self._writing(target)) is None:
            return self._refused_project()
        with _calling(caller):
            result = store.remove(target, old_text, origin=origin)
        return self._told(result, target, [{"action": "remove", "old_text": old_text}])

    def batch(self, target: str, operations: Any, *, origin: str,
              caller: Proposer | None = None) -> MemoryResult:
        """Several add/replace/remove steps, all or nothing, in one write."""
        if (store := self._writing(target)) is None:
            return self._refused_project()
        with _calling(caller):
            result = store.apply_batch(target, operations, origin=origin)
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
        if (store := self._writing(target)) is None:
            return self._refused_project()
        result = store.undo(target, origin=origin)
        if store is self.project_store and result.get("success"):
            _touched(store)
        return result

    def restore(self, item_id: str, *, origin: str, caller: Proposer | None = None) -> MemoryResult:
        """Add an archived entry back (see :meth:`MemoryStore.restore`); recall hears of it as of
        any committed add."""
        store = self.store
        if self.project_store is not None and any(str(i.get("id", "")).startswith(item_id)
                                                  for i in self.project_store.archived()):
            store = self.project_store
        # The entry the store restores, by the whole id it answers (the caller may have given a
        # prefix): recall hears of it as of any add.
        candidates = [i for i in store.archived() if str(i.get("id", "")).startswith(str(item_id))]
        with _calling(caller):
            result = store.restore(item_id, origin=origin)
        item = next((i for i in candidates if i.get("id") == result.get("restored")), None)
        if item is None:
            return result
        return self._told(result, item["target"], [{"action": "add", "content": item["text"]}])

    def decide(self, proposal_id: str, approve: bool, *, reason: str | None = None,
               origin: str = "approved", base: str | None = None) -> MemoryResult:
        """A person's decision on a held write: ``approve`` applies it through the store's write
        path (``base``: the version of the notes the person saw the change against; recall hears
        of it as of any committed write), else it is dropped."""
        store = self._by_proposal(proposal_id)
        if not approve:
            return store.reject(proposal_id, reason)
        found = next((p for p in store.pending() if p.id == proposal_id), None)
        result = store.approve(proposal_id, origin=origin, base=base)
        if found is None:
            return result
        return self._told(result, found.target, proposal_steps(found))

    # -- the rule that joins the two memories ----------------------------------------------------

    def _refused_project(self) -> MemoryResult:
        return Refusal(self._no_project_text(), target=PROJECT_TARGET).result()

    def _told(self, result: MemoryResult, target: Any, steps: Sequence[Any]) -> MemoryResult:
        """Pass a committed write on to recall; a refused or held one is not in the notes."""
        if target == PROJECT_TARGET and self.project_store is not None and result.get("success"):
            _touched(self.project_store)
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
    return safe_entry(str(entry), {**TARGET_FILES, **PROJECT_FILES}.get(str(target), "MEMORY.md"))


def _touched(store: MemoryStore, *, create: bool = True) -> None:
    """Note the use of a project's notes in its record (``create``: make the record, as a
    write does). The record is advice for a person: a failure is logged, never raised."""
    if store.project is None:
        return
    try:
        store.project.touch(create=create)
    except Exception:
        log.warning("could not note the use of the project at %s", store.project.root, exc_info=True)


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
