"""Every table silcrow owns, by domain, and the one numbered PostgreSQL migration plan.

Each domain's tables are declared once, in its module here: the curated
notes (``_notes.py``), the local recall provider
(:mod:`silcrow.schema.recall`) and the session archive
(:mod:`silcrow.schema.sessions`). They sit below the domains that use them:
a domain's SQLite file is migrated by the domain itself (through
:mod:`silcrow._sqlite`) from its module here, and a domain's PostgreSQL backend
opens the shared database through :func:`database`, whose schema holds every
domain, so its migrations are one numbered, append-only sequence, assembled
here from the domains' statements in the order they shipped. :mod:`silcrow.db`
applies it and opens databases at it; this package imports no domain.
"""

from __future__ import annotations

from silcrow._table import Table
from silcrow.db import FOLD_SHORTCUT, FOUNDATION, Database, Migrations, version
from silcrow.db import check_schema as _check_schema
from silcrow.db import database as _database
from silcrow.db import migrate as _migrate
from silcrow.schema import _notes as notes
from silcrow.schema import langgraph, recall, sessions

__all__ = [
    "check_schema",
    "database",
    "migrate",
]

#: (version, name, statements). Append only: never edit a migration that shipped.
MIGRATIONS: Migrations = [
    (
        1,
        "curated notes and journal, recall memories (tsvector + pgvector), sessions",
        (*FOUNDATION, *notes.POSTGRES[1], *recall.POSTGRES[1], *sessions.POSTGRES[1]),
    ),
    (2, "recall memories and sessions belong to one profile", (*recall.POSTGRES[2], *sessions.POSTGRES[2])),
    (3, "pending proposals of the write-approval gate, one JSON document per profile", notes.POSTGRES[3]),
    (4, "each profile's number of recall memories, kept by a trigger", recall.POSTGRES[4]),
    (5, "entry metadata and the archive of the curated notes, one JSON document per profile",
     notes.POSTGRES[5]),
    (6, "items of LangGraph stores (silcrow.integrations.langgraph)", langgraph.POSTGRES[6]),
    (7, "diacritic folding returns text without a letter to fold as it is (the tsvectors of an ingest)",
     FOLD_SHORTCUT),
    (8, "how many of each profile's recall memories hold each word, kept by a trigger", recall.POSTGRES[8]),
    (9, "an ingest writes the tsvector of recall memories itself (a trigger fills it where one does not)",
     recall.POSTGRES[9]),
]
SCHEMA_VERSION = version(MIGRATIONS)

#: Every table of every domain (see :class:`silcrow._table.Table`).
TABLES: tuple[Table, ...] = (*notes.TABLES, *recall.TABLES, *sessions.TABLES, *langgraph.TABLES)


def database(dsn: str) -> Database:
    """The shared PostgreSQL database at ``dsn``, whose schema must be at :data:`SCHEMA_VERSION`."""
    return _database(dsn, MIGRATIONS)


def migrate(db: Database) -> list[int]:
    """Apply the migrations ``db`` is missing; returns the versions applied."""
    return _migrate(db, MIGRATIONS)


def check_schema(db: Database) -> int:
    """Raise a clear ConfigError unless ``db`` is at :data:`SCHEMA_VERSION`; returns it."""
    return _check_schema(db, MIGRATIONS)
