"""The session archive: conversations, their branches and compaction, and full-text search.

One interface, :class:`SessionBackend`, with two storages side by side:
:class:`SessionStore` (``<home>/sessions.db``, SQLite with FTS5) and
:class:`PostgresSessions` (a shared PostgreSQL database, one profile's rows).
:func:`open_sessions` opens that of a home or profile (what
:meth:`silcrow.home.Profile.sessions` hands out). The tables are described once in ``_schema``; ``_records``
shapes rows, ``_search`` is the lineage-aware search both engines run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr
from silcrow._paths import sessions_db
from silcrow.config import ProfileSettings, profile_settings
from silcrow.schema import sessions as _schema
from silcrow.sessions._backend import SessionBackend
from silcrow.sessions._records import SUMMARY_MARKER as SUMMARY_MARKER
from silcrow.sessions._records import SessionInfo as SessionInfo
from silcrow.sessions._records import checked_session_id as checked_session_id
from silcrow.sessions._search import fts_query as fts_query
from silcrow.sessions._sqlite_backend import SessionStore

if TYPE_CHECKING:
    from silcrow.sessions._postgres_backend import PostgresSessions

__all__ = [
    "PostgresSessions",
    "SessionBackend",
    "SessionStore",
    "open_sessions",
]

# The SQLite archive's schema version, for the tests and the migration checks; not API.
SCHEMA_VERSION = _schema.SQLITE_VERSION

# The PostgreSQL backend pulls in every domain's schema; a home on files never needs it.
__getattr__ = lazy_getattr(__name__, {"PostgresSessions": "silcrow.sessions._postgres_backend"})


def open_sessions(home: Path | ProfileSettings) -> SessionBackend:
    """The session storage of ``home`` (a directory, or a profile already opened): its
    ``sessions.db``, or the PostgreSQL database its settings name."""
    where = home if isinstance(home, ProfileSettings) else profile_settings(home)
    if not where.storage.shared:
        return SessionStore(sessions_db(where.path))
    from silcrow.sessions._postgres_backend import PostgresSessions

    assert where.storage.dsn is not None
    return PostgresSessions(where.storage.dsn, where.name)
