"""Deprecated: which storage a home uses is :mod:`silcrow.home`'s decision
(:func:`~silcrow.home.open_profile`); this module goes in the next release.

Precedence as for every setting: an explicit value (a ``--dsn`` flag), then
``SILCROW_DATABASE_URL``, then the ``[storage]`` table of the home's
``config.toml`` (a profile inherits its home's)::

    [storage]
    backend = "postgres"              # or "files" (the default)
    dsn = "postgresql://user@host/db"
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from silcrow.config import ENV_VARS
from silcrow.home import BACKENDS, StorageSettings, locate, open_profile

if TYPE_CHECKING:
    from silcrow.store import StoreBackend

__all__ = ["BACKENDS", "ENV", "StorageSettings", "curated_backend", "database_url", "profile_of"]

ENV = next(var for var, key in ENV_VARS.items() if key == "storage.dsn")

warnings.warn("silcrow.db.settings is deprecated; use silcrow.home.open_profile", DeprecationWarning,
              stacklevel=2)


def database_url(
    home: Path, *, flag: str | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """The DSN of the PostgreSQL database ``home`` uses, or None for the files backend."""
    return open_profile(home, dsn=flag, environ=environ).storage.dsn


def profile_of(home: Path) -> str:
    """The profile a home directory stands for: its name under ``<home>/profiles/``, else
    "default" (in a shared database the profile, not the directory, says whose notes these are)."""
    return locate(home)[1]


def curated_backend(home: Path) -> StoreBackend:
    """The curated-notes storage of ``home`` (see :meth:`silcrow.home.Profile.notes_backend`)."""
    return open_profile(home).notes_backend()
