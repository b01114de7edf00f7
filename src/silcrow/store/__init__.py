"""Curated notes: MEMORY.md and USER.md, in the system prompt.

The public names are listed in ``__all__``: the store (:class:`MemoryStore`, and
:data:`ENTRY_DELIMITER` between its entries), what a mutation returns (:class:`MemoryResult`,
and :class:`Refusal` for why one was refused), what a read returns (:class:`NotesView`), the
persistence seam (:class:`StoreBackend`) and the write-approval gate's proposals and who made
them (:class:`Proposal`, :class:`Proposer`). The backends (``FileBackend``,
``PostgresBackend``, ``notes_backend``), the gate's parts, how entries are addressed as `memory
show` shows them, the review's judgement and the files a transfer moves are importable from
here for silcrow's own packages, not API. The modules behind them (``_store``, ``_entries``,
``_document``, ``_edits``, ``_results``, ``_files``, ``_journal``, ``_render``, ``_pending``,
``_backend``, ``_postgres``) are internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr
from silcrow.store import _address, _journal, _ledger, _pending
from silcrow.store._address import entry_id as entry_id
from silcrow.store._address import matching_entries as matching_entries
from silcrow.store._address import resolve_entry as resolve_entry
from silcrow.store._backend import StoreBackend
from silcrow.store._backend import Transaction as Transaction
from silcrow.store._entries import ENTRY_DELIMITER
from silcrow.store._entries import PROJECT_FILES as PROJECT_FILES
from silcrow.store._entries import PROJECT_TARGET as PROJECT_TARGET
from silcrow.store._entries import TARGET_FILES as TARGET_FILES
from silcrow.store._files import FileBackend as FileBackend
from silcrow.store._ledger import LEDGER_FILE as LEDGER_FILE
from silcrow.store._ledger import shown_origin as shown_origin
from silcrow.store._pending import PENDING_FILE as PENDING_FILE
from silcrow.store._pending import WRITE_POLICIES as WRITE_POLICIES
from silcrow.store._pending import (
    Proposal,
    Proposer,
)
from silcrow.store._pending import ProposalBox as ProposalBox
from silcrow.store._pending import box_warnings as box_warnings
from silcrow.store._pending import current_proposer as current_proposer
from silcrow.store._pending import who_text as who_text
from silcrow.store._projects import OWNER_PART as OWNER_PART
from silcrow.store._projects import PROJECTS_DIR as PROJECTS_DIR
from silcrow.store._projects import Project as Project
from silcrow.store._projects import ProjectRecord as ProjectRecord
from silcrow.store._projects import Projects as Projects
from silcrow.store._render import safe_entry as safe_entry
from silcrow.store._results import MemoryResult, NotesView, Refusal
from silcrow.store._review import supersedes as supersedes
from silcrow.store._store import MemoryStore
from silcrow.store._store import notes_backend as notes_backend

if TYPE_CHECKING:
    from silcrow.store._postgres import PostgresBackend as PostgresBackend
    from silcrow.store._postgres import journal_line as journal_line

__all__ = [
    "ENTRY_DELIMITER",
    "MemoryResult",
    "MemoryStore",
    "NotesView",
    "Proposal",
    "Proposer",
    "Refusal",
    "StoreBackend",
]

# Renamed for silcrow's own packages (transfer, the CLI, the servers, the gate), which may not
# import the store's private modules; like the `x as x` imports above, not API.
notes_version = _address.version
JOURNAL_FILE = _journal.JOURNAL_NAME
read_journal = _journal.read
write_journal = _journal.write_all
author_label = _ledger.label
proposal_steps = _pending.steps

# The PostgreSQL backend pulls in psycopg and the db layer; a home on files never needs it.
__getattr__ = lazy_getattr(__name__, dict.fromkeys(("PostgresBackend", "journal_line"),
                                                   "silcrow.store._postgres"))
