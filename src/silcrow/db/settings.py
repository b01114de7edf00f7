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
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from silcrow.errors import ConfigError
from silcrow.paths import config_file

if TYPE_CHECKING:
    from silcrow.store.backend import StoreBackend

ENV = "SILCROW_DATABASE_URL"
BACKENDS = ("files", "postgres")


def database_url(
    home: Path, *, flag: str | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The DSN of the PostgreSQL database ``home`` uses, or None for the files backend."""
    if flag:
        return flag
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return env[ENV]
    path = config_file(home)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}; fix or delete the file") from exc
    storage = data.get("storage", {})
    if not isinstance(storage, dict):
        raise ConfigError(f"[storage] in {path} must be a table with backend and dsn; fix the file")
    backend = storage.get("backend", "files")
    if backend not in BACKENDS:
        raise ConfigError(
            f"bad setting [storage] backend = {backend!r} in {path}: use one of {', '.join(BACKENDS)}"
        )
    if backend == "files":
        return None
    dsn = storage.get("dsn")
    if not isinstance(dsn, str) or not dsn.strip():
        raise ConfigError(
            f'[storage] backend = "postgres" in {path} needs dsn = "postgresql://user@host/dbname" '
            f"(or set {ENV})"
        )
    return dsn.strip()


def profile_of(home: Path) -> str:
    """The profile a home stands for: its name under ``<base>/profiles/``, else "default".

    In a shared database the profile (not the directory) says whose notes these are, so
    two hosts with their own homes and the same profile name share one set of notes.
    """
    return home.name if home.parent.name == "profiles" else "default"


def curated_backend(home: Path) -> StoreBackend | None:
    """The curated-notes storage ``home`` is set to use; None for its own files (the default)."""
    dsn = database_url(home)
    if dsn is None:
        return None
    from silcrow.db.curated import PostgresBackend

    return PostgresBackend(dsn, profile_of(home))
