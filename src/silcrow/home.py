"""Opening a home: the one place that turns a directory and a profile into silcrow's parts.

:func:`open_profile` is the composition root. It reads the settings once
(arguments, then the environment, then the profile's ``config.toml``, then
the home's ``config.toml``, then the defaults), decides the storage once
(the profile's files, or a PostgreSQL database), and hands out the parts
built on that decision: the curated notes (:meth:`Profile.store`), the
session archive (:meth:`Profile.sessions`), the local recall storage
(:meth:`Profile.recall_storage`) and the configured recall provider
(:meth:`Profile.provider`). The CLI, the servers and the Hermes plugin open a
profile here once per process and hand it down (``Agent(profile=...)``); the
parts never import this module: each domain opens its own storage from the
:class:`~silcrow.config.ProfileSettings` a :class:`Profile` is::

    from silcrow.home import open_profile

    profile = open_profile()                  # $SILCROW_HOME or ~/.silcrow
    work = open_profile(profile="work")       # <home>/profiles/work
    store = work.store()

Profiles. A home holds its own notes (the profile named ``"default"``) and
any number of named profiles under ``<home>/profiles/<name>/``. The name
means the same with either backend: in files mode ``default`` is the home
directory itself, in PostgreSQL mode it is the notes, recall and sessions
stored under profile ``"default"``. A profile inherits its home's
``config.toml`` table by table and may override any key in its own; so a
home configured for PostgreSQL keeps every profile in that database.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from silcrow._paths import DEFAULT_PROFILE
from silcrow.config import (
    BACKENDS,
    ProfileSettings,
    Storage,
    StorageSettings,
    locate,
    profile_settings,
    read_settings,
)

if TYPE_CHECKING:
    from silcrow.models import Embedder
    from silcrow.recall import MemoryProvider
    from silcrow.recall.local import RecallBackend
    from silcrow.sessions import SessionBackend
    from silcrow.store import MemoryStore, StoreBackend

__all__ = [
    "BACKENDS", "DEFAULT_PROFILE", "Profile", "Storage", "StorageSettings",
    "locate", "open_profile", "read_settings",
]

@dataclass(frozen=True)
class Profile(ProfileSettings):
    """One profile of a home, opened: its settings and storage, and the parts built on them."""

    # -- curated notes ---------------------------------------------------------------------

    def notes_backend(self, *, lock_timeout: float | None = None) -> StoreBackend:
        """Where the curated notes live: ``<path>/memories/``, or this profile's notes in the
        database."""
        from silcrow.store import notes_backend

        return notes_backend(self, lock_timeout=lock_timeout)

    def store(self, *, lock_timeout: float | None = None, backend: StoreBackend | None = None) -> MemoryStore:
        """A :class:`~silcrow.store.MemoryStore` of this profile, with its character limits, on
        ``backend`` (one opened earlier, to keep what it caches) or a new one."""
        from silcrow.store import MemoryStore

        return MemoryStore(memory_char_limit=self.settings.memory_char_limit,
                           user_char_limit=self.settings.user_char_limit,
                           backend=backend or self.notes_backend(lock_timeout=lock_timeout),
                           write_policy=self.settings.write_policy,
                           on_full=self.settings.on_full)

    # -- sessions and recall ---------------------------------------------------------------

    def sessions(self) -> SessionBackend:
        """The session archive: ``<path>/sessions.db``, or the database."""
        from silcrow.sessions import open_sessions

        return open_sessions(self)

    def recall_storage(self, embedder: Embedder) -> RecallBackend:
        """The local provider's storage: ``<path>/recall.db``, or the database."""
        from silcrow.recall.local import open_recall

        return open_recall(self, embedder)

    def provider(self, name: str | None = None, *,
                 embedder: str | Embedder | None = None) -> MemoryProvider | None:
        """The recall provider ``name`` (default: the configured one) for this profile, or None
        when it is ``"none"``. Not initialised: hand it to a
        :class:`~silcrow.recall.MemoryManager`."""
        from silcrow.recall import open_provider

        return open_provider(self, name, embedder=embedder)


def open_profile(
    home: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    *,
    dsn: str | None = None,
    environ: Mapping[str, str] | None = None,
    create: bool = False,
    **overrides: Any,
) -> Profile:
    """Open ``profile`` of ``home`` (default: ``$SILCROW_HOME`` or ``~/.silcrow``).

    ``profile`` None or ``"default"`` is the home itself. ``home`` may also be a profile's
    directory (``<home>/profiles/<name>``): it is opened as that profile of that home.
    ``dsn`` (a ``--dsn`` flag) selects that PostgreSQL database; ``overrides`` are other
    settings given as arguments (None means not given). ``create`` makes the directory.
    """
    found = profile_settings(home, profile, dsn=dsn, environ=environ, create=create, **overrides)
    return Profile(path=found.path, home=found.home, name=found.name, settings=found.settings,
                   storage=found.storage)
