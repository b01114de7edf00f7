"""Which storage a home uses: its files (the default) or a PostgreSQL database.

Precedence as for every setting: an explicit value (a ``--dsn`` flag), then
``SILCROW_DATABASE_URL``, then the ``[storage]`` table of the home's
``config.toml``::

    [storage]
    backend = "postgres"              # or "files" (the default)
    dsn = "postgresql://user@host/db"
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from silcrow.config import Rule, Settings, Text
from silcrow.errors import ConfigError

if TYPE_CHECKING:
    from silcrow.store.backend import StoreBackend

ENV = "SILCROW_DATABASE_URL"
BACKENDS = ("files", "postgres")


Backend = Annotated[str, Rule(f"one of {', '.join(BACKENDS)}", lambda v: v in BACKENDS)]


@dataclass(frozen=True)
class StorageSettings:
    """The ``[storage]`` table of config.toml."""

    backend: Backend = "files"
    dsn: Text | None = None


def database_url(
    home: Path, *, flag: str | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The DSN of the PostgreSQL database ``home`` uses, or None for the files backend.

    A DSN given as a flag or in the environment selects PostgreSQL by itself; in
    config.toml it takes ``backend = "postgres"`` (the table is read, and checked,
    through :meth:`Settings.section`).
    """
    if flag:
        return flag
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return env[ENV]
    settings = Settings.from_toml(home)
    storage = settings.section("storage", StorageSettings)
    if storage.backend == "files":
        return None
    if not storage.dsn or not storage.dsn.strip():
        raise ConfigError(
            f'[storage] backend = "postgres" in {settings.source} needs '
            f'dsn = "postgresql://user@host/dbname" (or set {ENV})'
        )
    return storage.dsn.strip()


def profile_of(home: Path) -> str:
    """The profile a home stands for: its name under ``<base>/profiles/``, else "default".

    In a shared database the profile (not the directory) says whose notes these are, so
    two hosts with their own homes and the same profile name share one set of notes.
    """
    return home.name if home.parent.name == "profiles" else "default"


def curated_backend(home: Path) -> StoreBackend:
    """The curated-notes storage ``home`` is set to use: its own files (the default), or the
    notes of its profile in the PostgreSQL database its settings name."""
    dsn = database_url(home)
    if dsn is None:
        from silcrow.store.files import open_backend

        return open_backend(home)
    from silcrow.db.curated import PostgresBackend

    return PostgresBackend(dsn, profile_of(home))
