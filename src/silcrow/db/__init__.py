"""The one PostgreSQL layer: a pooled connection per DSN with bounded retries and clear errors
(:class:`Database`), the migration runner (:func:`migrate`, :func:`check_schema`) and diacritic
folding (:func:`fold`).

The domains' PostgreSQL backends sit in their own packages (:mod:`silcrow.store`,
:mod:`silcrow.recall.local`, :mod:`silcrow.sessions`) and use this layer through the names
below; it imports none of them, and :mod:`silcrow.schema` is the plan of every domain's tables
it applies. Its API is :class:`Database` (``__all__``); a database at silcrow's schema is
opened through :mod:`silcrow.schema`, and the runner's parts are importable here for silcrow's
own packages, not API. The modules named ``_x`` are internal. Needs the ``postgres`` extra
(``pip install 'silcrow[postgres]'``): psycopg 3, psycopg_pool and pgvector, imported only when
a database is first used. See docs/postgres.md.
"""

from __future__ import annotations

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow.db._database import Database
from silcrow.db._database import database as database
from silcrow.db._database import redact as redact
from silcrow.db._fold import fold as fold
from silcrow.db._migrations import FOLD_SHORTCUT as FOLD_SHORTCUT
from silcrow.db._migrations import FOUNDATION as FOUNDATION
from silcrow.db._migrations import OWNED as OWNED
from silcrow.db._migrations import PROFILE_SETTING as PROFILE_SETTING
from silcrow.db._migrations import SCHEMA as SCHEMA
from silcrow.db._migrations import Migrations as Migrations
from silcrow.db._migrations import applied as applied
from silcrow.db._migrations import check_schema as check_schema
from silcrow.db._migrations import migrate as migrate
from silcrow.db._migrations import owned_by as owned_by
from silcrow.db._migrations import version as version

__all__ = [
    "Database",
]
