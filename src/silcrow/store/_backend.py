"""The persistence interface behind :class:`~silcrow.store.MemoryStore`.

Everything the store needs from storage fits in three operations, so that a
PostgreSQL backend (``SELECT ... FOR UPDATE`` in a transaction, a journal
table) can replace the files without changing any behaviour:

* read the raw text of a target without locking (readers never block);
* a locked read-modify-write transaction that re-reads the text under the
  lock, may replace it atomically, and may append to the journal;
* read the journal (for history, without locking).

Undo reads the journal *inside* the transaction (``Transaction.records``),
so the record it reverts cannot change under it, and every journal record
is written through the transaction that made the change.

Texts are ``str``; a backend that stores bytes decodes them with
``surrogateescape`` so undecodable bytes survive an append unchanged.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from silcrow.store._pending import Proposal, ProposalBox


class Transaction(ABC):
    """One exclusive read-modify-write of one target."""

    @abstractmethod
    def read(self) -> str:
        """The current text, read under the lock ('' when there is none)."""

    @abstractmethod
    def write(self, text: str) -> None:
        """Replace the text atomically: readers see the old or the new text, never a mix."""

    @abstractmethod
    def journal(self, record: dict[str, Any]) -> None:
        """Append one record to the history journal as part of this transaction.

        The record must be in the journal before the lock is released (journal
        order is commit order). It need not be durable on its own: a record
        lost to a power cut is bridged by the next write's ``outside_edit``.
        """

    @abstractmethod
    def last_record(self, target: str) -> dict[str, Any] | None:
        """The newest journal record of ``target`` (None when it has none)."""

    def parsed(self, entries: list[str]) -> None:  # noqa: B027 - optional, nothing to do by default
        """The entries the caller parsed from :meth:`read`: a backend may use them to tell that
        the target's newest journal record ends with them without rebuilding it."""

    @abstractmethod
    def records(self, target: str) -> list[dict[str, Any]]:
        """Every journal record of ``target``, oldest first, read under this transaction's lock
        (damaged records are skipped)."""

    @abstractmethod
    def backup(self, text: str) -> str:
        """Keep a copy of ``text`` somewhere a person can find it; return where."""

    # An approval applies a proposal in the transaction of its target: the proposal leaves the
    # box in the same durable step that writes its effect. These defaults suit backends that
    # keep nothing across a crash; the file and PostgreSQL backends override both.

    def claim(self, box: ProposalBox, proposal_id: str) -> Proposal | None:
        """The pending proposal ``proposal_id``, locked for this transaction (None when it is
        no longer pending: another approval or a rejection decided it first)."""
        return next((p for p in box.waiting() if p.id == proposal_id), None)

    def settle(self, box: ProposalBox, proposal: Proposal, text: str | None) -> None:
        """Decide the claimed ``proposal`` as approved with this transaction: it leaves the box
        if and only if the transaction commits. ``text`` is what the transaction is about to
        write (None when the proposal changes nothing)."""
        box.settle(proposal)


class LedgerDocument(ABC):
    """Where the entry metadata and archive of one profile are kept (see
    :mod:`silcrow.store._ledger`): one text, read without a lock, changed under one."""

    @abstractmethod
    def read(self) -> str:
        """The stored text ('' when there is none)."""

    @abstractmethod
    def change(self, change: Callable[[str], str]) -> None:
        """Replace the text with ``change(text)``, exclusively and atomically."""


class _MemoryLedger(LedgerDocument):
    def __init__(self) -> None:
        self._text = ""

    def read(self) -> str:
        return self._text

    def change(self, change: Callable[[str], str]) -> None:
        self._text = change(self._text)


class StoreBackend(ABC):
    """Where the two curated-memory texts and their journal live."""

    @abstractmethod
    def location(self, target_file: str) -> str:
        """A human-readable place for messages (a path, a table row)."""

    @abstractmethod
    def read(self, target_file: str, *, strict: bool = False) -> str:
        """The current text without locking ('' when there is none).

        With ``strict=False`` undecodable bytes become U+FFFD (for display);
        with ``strict=True`` they are kept as surrogate escapes (for checks).
        """

    @abstractmethod
    def transaction(self, target_file: str) -> AbstractContextManager[Transaction]:
        """Exclusive access to one target; raises LockTimeoutError when it cannot be had in time.

        When the block ends normally, what it wrote is durable; when it ends
        with an exception, nothing it did need be kept.
        """

    @abstractmethod
    def journal_records(self) -> Iterator[dict[str, Any]]:
        """Every journal record, oldest first; damaged records are skipped."""

    @abstractmethod
    def leftovers(self, target_file: str) -> list[str]:
        """Debris of interrupted writes (e.g. temp files) that a transaction would clean up."""

    def reread(self) -> None:  # noqa: B027 - optional, nothing to do by default
        """A session's snapshot is about to be read from here: take the place as it is now (a
        project's notes moved away while an earlier session had them start afresh from here)."""

    def recover(self) -> None:
        """Finish or undo approvals a crash interrupted (see FileBackend); nothing by default."""

    def proposals(self) -> ProposalBox:
        """Where this store keeps pending proposals (see :mod:`silcrow.store._pending`). This
        default keeps them in the process only; backends that persist notes persist these too."""
        box: ProposalBox | None = getattr(self, "_memory_box", None)
        if box is None:
            from silcrow.store._pending import MemoryBox

            box = self._memory_box = MemoryBox()
        return box

    def ledger(self) -> LedgerDocument:
        """Where this store keeps its entry metadata and archive. This default keeps them in
        the process only; backends that persist notes persist these too."""
        found: LedgerDocument | None = getattr(self, "_memory_ledger", None)
        if found is None:
            found = self._memory_ledger = _MemoryLedger()
        return found
