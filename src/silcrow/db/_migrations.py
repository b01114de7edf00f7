"""The migration runner of the PostgreSQL layer: numbered migrations, recorded in the database,
applied by `silcrow db migrate`.

The migrations themselves belong to the domains (each ``_schema`` module's
``POSTGRES`` statements) and are assembled into one numbered plan by
:mod:`silcrow.schema`; this module applies and checks a plan it is given.
Everything lives in the schema ``silcrow`` (connections put it first on the
search path), so silcrow's tables never collide with others in a shared
database. pgvector's type comes from the ``vector`` extension.

Applying takes an advisory lock, so two hosts migrating at once apply each
migration once. Opening a backend only checks (:func:`check_schema`): a
database that is behind is a clear error, never a silent upgrade.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from silcrow.db._fold import FUNCTION_SQL, SHORTCUT_SQL
from silcrow.errors import ConfigError

SCHEMA = "silcrow"
_ADVISORY_KEY = 0x5EC0  # pg_advisory_lock key for migrations

#: The setting a connection names its profile in (see :func:`owned_by`); the ``profile`` column
#: of the per-profile tables defaults to it, so a row cannot be written without an owner.
PROFILE_SETTING = "silcrow.profile"
#: Makes the ``profile`` column of a per-profile table default to the connection's profile
#: and refuse an empty one (the domains' migrations append it to ``ALTER TABLE ... ``).
OWNED = (
    f"ALTER COLUMN profile SET DEFAULT current_setting('{PROFILE_SETTING}'),"
    " ADD CHECK (profile <> '')"
)

#: What every migration plan starts with (migration 1): pgvector's type and silcrow.fold().
FOUNDATION = ("CREATE EXTENSION IF NOT EXISTS vector", FUNCTION_SQL)
#: Migration 7: silcrow.fold() gives the same results, returning text without a letter to fold as it is.
FOLD_SHORTCUT = (SHORTCUT_SQL,)

#: (version, name, statements). Append only: never edit a migration that shipped.
Migrations = Sequence[tuple[int, str, tuple[str, ...]]]


class Migratable(Protocol):
    """What the runner needs of a database (:class:`silcrow.db.Database` is one): its plan, a
    plain connection, and where it is, for messages."""

    migrations: Migrations
    where: str

    def connect(self) -> Any: ...


def owned_by(conn: Any, profile: str) -> None:
    """Name ``profile`` as the owner of what the current transaction reads and writes."""
    if not profile:
        raise ConfigError("a profile name is empty; give the name of the profile (e.g. default)")
    conn.execute("SELECT set_config(%s, %s, true)", (PROFILE_SETTING, profile))


def applied(conn: Any) -> list[tuple[int, str]]:
    """(version, name) of the migrations recorded in the database; [] for a fresh one."""
    exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f"{SCHEMA}.schema_migrations",)).fetchone()
    if not exists or not exists[0]:
        return []
    rows = conn.execute(f"SELECT version, name FROM {SCHEMA}.schema_migrations ORDER BY version").fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


def migrate(db: Migratable, migrations: Migrations | None = None) -> list[int]:
    """Apply the missing migrations of ``migrations`` (default: the plan ``db`` was opened with),
    each in its own transaction; returns the versions applied."""
    plan = db.migrations if migrations is None else migrations
    done: list[int] = []
    with db.connect() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_ADVISORY_KEY,))
        try:
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {SCHEMA}.schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            have = {v for v, _ in applied(conn)}
            _refuse_newer(db, max(have, default=0), plan)
            for version, name, statements in plan:
                if version in have:
                    continue
                with conn.transaction():
                    conn.execute(f"SET LOCAL search_path = {SCHEMA}, public")
                    for sql in statements:
                        conn.execute(sql)
                    conn.execute(
                        f"INSERT INTO {SCHEMA}.schema_migrations (version, name) VALUES (%s, %s)",
                        (version, name),
                    )
                done.append(version)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_ADVISORY_KEY,))
    return done


def check_schema(db: Migratable, migrations: Migrations | None = None) -> int:
    """Raise a clear ConfigError unless the database has exactly the schema of ``migrations``
    (default: the plan ``db`` was opened with)."""
    plan = db.migrations if migrations is None else migrations
    with db.connect() as conn:
        have = max((v for v, _ in applied(conn)), default=0)
    _refuse_newer(db, have, plan)
    if have < version(plan):
        raise ConfigError(
            f"the PostgreSQL database at {db.where} has silcrow schema version {have}, this silcrow needs "
            f"{version(plan)}: run `silcrow db migrate` (with the same DSN) first"
        )
    return have


def version(migrations: Migrations) -> int:
    """The schema version a migration plan ends at."""
    return migrations[-1][0] if migrations else 0


def _refuse_newer(db: Migratable, have: int, plan: Migrations) -> None:
    if have > version(plan):
        raise ConfigError(
            f"the PostgreSQL database at {db.where} has silcrow schema version {have}, newer than this "
            f"silcrow knows ({version(plan)}); upgrade silcrow on this host"
        )
