"""The built-in local recall provider: SQLite (WAL, FTS5) plus in-memory vectors.

The public names are listed in ``__all__``: the provider (:class:`LocalProvider`), what goes in
and comes out (:class:`RecallRecord`, :class:`RecallHit`, :class:`MemoryFilter`), and the
storage interface with its two backends (:class:`RecallBackend`; :class:`RecallStore` on a
home's ``recall.db``, :class:`PostgresRecall` on a shared PostgreSQL database), and the optional
reranker of its best hits (:class:`Reranker`, :func:`get_reranker`, from :mod:`silcrow.models`),
and :func:`open_recall`, the storage of a home or profile; moving a profile between backends
uses :func:`connect_recall_db` (a ``recall.db`` opened and migrated) and the indexed texts of a
memory, :func:`body_text` and :func:`dated_text`. The modules
behind them (``_provider``, ``_backend``, ``_store``, ``_postgres``, ``_retrieval``, ...) are
internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from silcrow._lazy import lazy_getattr
from silcrow.models import CrossEncoderReranker, Reranker, get_reranker
from silcrow.recall._records import RecallHit, RecallRecord
from silcrow.recall.local._backend import RecallBackend
from silcrow.recall.local._db import connect as connect_recall_db
from silcrow.recall.local._db import stored_embedder
from silcrow.recall.local._provider import LocalProvider, open_recall
from silcrow.recall.local._records import MemoryFilter
from silcrow.recall.local._retrieval import body_text, dated_text

if TYPE_CHECKING:
    from silcrow.recall.local._postgres import PostgresRecall
    from silcrow.recall.local._store import RecallStore

__all__ = [
    "CrossEncoderReranker",
    "LocalProvider",
    "MemoryFilter",
    "PostgresRecall",
    "RecallBackend",
    "RecallHit",
    "RecallRecord",
    "RecallStore",
    "Reranker",
    "body_text",
    "connect_recall_db",
    "dated_text",
    "get_reranker",
    "open_recall",
    "stored_embedder",
]

# The PostgreSQL backend pulls in psycopg and every domain's schema; a home on files never needs it.
__getattr__ = lazy_getattr(__name__, {"PostgresRecall": "silcrow.recall.local._postgres",
                                      "RecallStore": "silcrow.recall.local._store"})
