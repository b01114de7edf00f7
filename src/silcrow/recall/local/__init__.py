"""The built-in local recall provider: SQLite (WAL, FTS5) plus in-memory vectors.

The public names are listed in ``__all__``: the provider (:class:`LocalProvider`), the
storage interface with its two backends (:class:`RecallBackend`; :class:`RecallStore` on a
home's ``recall.db``, :class:`PostgresRecall` on a shared PostgreSQL database) and
:func:`open_recall`, the storage of a home or profile. What goes in and comes out
(``RecallRecord``, ``RecallHit``) is :mod:`silcrow.recall`'s; the reranker is
:mod:`silcrow.models`'. What a transfer between backends uses (``connect_recall_db``,
``body_text``, ``dated_text``) is importable from here for silcrow's own packages, not API. The
modules behind them (``_provider``, ``_backend``, ``_store``, ``_postgres``, ``_retrieval``, ...)
are internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr
from silcrow.models import CrossEncoderReranker as CrossEncoderReranker
from silcrow.models import Reranker as Reranker
from silcrow.models import get_reranker as get_reranker
from silcrow.recall._records import RecallHit as RecallHit
from silcrow.recall._records import RecallRecord as RecallRecord
from silcrow.recall.local import _db
from silcrow.recall.local._backend import RecallBackend
from silcrow.recall.local._db import stored_embedder as stored_embedder
from silcrow.recall.local._provider import LocalProvider, open_recall
from silcrow.recall.local._records import MemoryFilter as MemoryFilter
from silcrow.recall.local._retrieval import body_text as body_text
from silcrow.recall.local._retrieval import dated_text as dated_text

if TYPE_CHECKING:
    from silcrow.recall.local._postgres import PostgresRecall
    from silcrow.recall.local._store import RecallStore

__all__ = [
    "LocalProvider",
    "PostgresRecall",
    "RecallBackend",
    "RecallStore",
    "open_recall",
]

# Renamed for transfer, which may not import this package's private modules; not API.
connect_recall_db = _db.connect

# The PostgreSQL backend pulls in psycopg and every domain's schema; a home on files never needs it.
__getattr__ = lazy_getattr(__name__, {"PostgresRecall": "silcrow.recall.local._postgres",
                                      "RecallStore": "silcrow.recall.local._store"})
