"""The one PostgreSQL layer: a pooled connection per DSN with bounded retries and clear errors
(:class:`Database`), the migration runner (:func:`migrate`, :func:`check_schema`) and diacritic
folding (:func:`fold`).

The domains' PostgreSQL backends sit in their own packages
(:mod:`silcrow.store`, :mod:`silcrow.recall.local`,
:mod:`silcrow.sessions`) and use this layer through the names below; it
imports none of them, and :mod:`silcrow.schema` is the plan of every domain's
tables it applies. The public names are listed in ``__all__``; the modules
named ``_x`` are internal. Needs the ``postgres`` extra (``pip install
'silcrow[postgres]'``): psycopg 3, psycopg_pool and pgvector, imported only
when a database is first used. See docs/postgres.md.
"""

from __future__ import annotations

from silcrow.db._database import Database, database, redact
from silcrow.db._fold import fold
from silcrow.db._migrations import (
    FOLD_SHORTCUT,
    FOUNDATION,
    OWNED,
    PROFILE_SETTING,
    SCHEMA,
    Migrations,
    applied,
    check_schema,
    migrate,
    owned_by,
    version,
)

__all__ = [
    "Database",
    "FOLD_SHORTCUT",
    "FOUNDATION",
    "Migrations",
    "OWNED",
    "PROFILE_SETTING",
    "SCHEMA",
    "applied",
    "check_schema",
    "database",
    "fold",
    "migrate",
    "owned_by",
    "redact",
    "version",
]
