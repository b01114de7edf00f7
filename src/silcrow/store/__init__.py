"""Curated notes: MEMORY.md and USER.md, in the system prompt.

The public names are listed in ``__all__``: the store (:class:`MemoryStore`, the notes it
keeps, :data:`TARGET_FILES`, and :data:`ENTRY_DELIMITER` between their entries), what a
mutation returns (:class:`MemoryResult`, and :class:`Refusal` for why one was refused), what a
read returns (:class:`NotesView`), the
persistence seam (:class:`StoreBackend` and its :class:`Transaction`; :class:`FileBackend` on
a home's files, :class:`PostgresBackend` on a shared PostgreSQL database) and the
write-approval gate (:class:`Proposal`, :class:`ProposalBox`, :class:`Proposer`,
:data:`current_proposer`, :data:`WRITE_POLICIES`, :func:`proposal_steps`, :func:`box_warnings`,
and :func:`who_text` to show who made a write), :func:`notes_backend`, the storage of a
profile's notes, and how entries are addressed as `memory show` shows them
(:func:`entry_id`, :func:`notes_version`, :func:`resolve_entry`, :func:`matching_entries`),
and :func:`supersedes`, the review's judgement of whether a later statement updates an earlier one;
moving a profile between backends uses the files' names (:data:`JOURNAL_FILE`,
:data:`PENDING_FILE`, :data:`LEDGER_FILE`), :func:`read_journal`, :func:`write_journal` and
:func:`journal_line` (a journal record as PostgreSQL stores it). The modules behind them (``_store``,
``_entries``, ``_document``, ``_edits``, ``_results``, ``_files``, ``_journal``,
``_render``, ``_pending``, ``_backend``, ``_postgres``) are internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from silcrow._lazy import lazy_getattr
from silcrow.store._address import entry_id, matching_entries, resolve_entry
from silcrow.store._address import version as notes_version
from silcrow.store._backend import StoreBackend, Transaction
from silcrow.store._entries import ENTRY_DELIMITER, TARGET_FILES
from silcrow.store._files import FileBackend
from silcrow.store._journal import JOURNAL_NAME as JOURNAL_FILE
from silcrow.store._journal import read as read_journal
from silcrow.store._journal import write_all as write_journal
from silcrow.store._ledger import LEDGER_FILE, shown_origin
from silcrow.store._ledger import label as author_label
from silcrow.store._pending import (
    PENDING_FILE,
    WRITE_POLICIES,
    Proposal,
    ProposalBox,
    Proposer,
    box_warnings,
    current_proposer,
    who_text,
)
from silcrow.store._pending import steps as proposal_steps
from silcrow.store._results import MemoryResult, NotesView, Refusal
from silcrow.store._review import supersedes
from silcrow.store._store import MemoryStore, notes_backend

if TYPE_CHECKING:
    from silcrow.store._postgres import PostgresBackend, journal_line

__all__ = [
    "ENTRY_DELIMITER",
    "FileBackend",
    "JOURNAL_FILE",
    "LEDGER_FILE",
    "MemoryResult",
    "MemoryStore",
    "NotesView",
    "PENDING_FILE",
    "PostgresBackend",
    "Proposal",
    "ProposalBox",
    "Proposer",
    "Refusal",
    "StoreBackend",
    "TARGET_FILES",
    "Transaction",
    "WRITE_POLICIES",
    "author_label",
    "box_warnings",
    "current_proposer",
    "entry_id",
    "journal_line",
    "matching_entries",
    "notes_backend",
    "notes_version",
    "proposal_steps",
    "read_journal",
    "resolve_entry",
    "shown_origin",
    "supersedes",
    "who_text",
    "write_journal",
]

# The PostgreSQL backend pulls in psycopg and the db layer; a home on files never needs it.
__getattr__ = lazy_getattr(__name__, dict.fromkeys(("PostgresBackend", "journal_line"),
                                                   "silcrow.store._postgres"))
