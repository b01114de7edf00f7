"""Opening a home: the one place that turns a directory and a profile into silcrow's parts.

:func:`open_profile` is the composition root. It reads the settings once
(arguments, then the environment, then the profile's ``config.toml``, then
the home's ``config.toml``, then the defaults), decides the storage once
(the profile's files, or a PostgreSQL database), and hands out the parts
built on that decision: the curated notes (:meth:`Profile.store`, and the
service every surface calls, :meth:`Profile.notes`), the session archive
(:meth:`Profile.sessions`), the local recall storage
(:meth:`Profile.recall_storage`), the configured recall provider
(:meth:`Profile.provider`) and a manager running it (:meth:`Profile.recall`):
the only places notes and a manager are put together. The CLI, the servers and the Hermes plugin open a
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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from silcrow._paths import DEFAULT_PROFILE
from silcrow._projects import find_project
from silcrow.config import (
    ProfileSettings,
    profile_settings,
)

if TYPE_CHECKING:
    from silcrow.models import Embedder
    from silcrow.notes import Notes, WriteListener
    from silcrow.recall import MemoryManager, MemoryProvider
    from silcrow.recall.local import RecallBackend
    from silcrow.sessions import SessionBackend
    from silcrow.store import MemoryStore, StoreBackend

__all__ = [
    "DEFAULT_PROFILE",
    "Profile",
    "open_profile",
]

@dataclass(frozen=True)
class Profile(ProfileSettings):
    """One profile of a home, opened: its settings and storage, and the parts built on them."""

    # -- curated notes ---------------------------------------------------------------------

    def notes_backend(self, *, lock_timeout: float | None = None) -> StoreBackend:
        """Where the curated notes live: ``<path>/memories/``, or this profile's notes in the
        database."""
        return self.store(lock_timeout=lock_timeout).backend

    def store(self, *, lock_timeout: float | None = None, backend: StoreBackend | None = None) -> MemoryStore:
        """A :class:`~silcrow.store.MemoryStore` of this profile with every setting of its
        ``[memory]`` table (limits, write policy, on_full, review threshold), on ``backend`` (one
        opened earlier, to keep what it caches) or a new one; ``MemoryStore(home)`` is the same."""
        from silcrow.store import MemoryStore

        return MemoryStore.of(self, lock_timeout=lock_timeout, backend=backend)

    def notes(self, recall: WriteListener | None = None, *, lock_timeout: float | None = None,
              backend: StoreBackend | None = None,
              project: str | os.PathLike[str] | None = None, no_project: str | None = None,
              advice: str | None = None) -> Notes:
        """The notes service every surface calls (:class:`~silcrow.notes.Notes`) over
        :meth:`store`; its committed writes reach ``recall`` (a manager from :meth:`recall`).

        ``project``: a directory; the git work tree holding it is the session's project, whose
        notes (:meth:`project_store`) the service serves as the target ``project``. None, or a
        directory in no work tree: no project (the target ``project`` is refused, saying why:
        ``no_project``, a caller's own reason for having none, and ``advice``, what to do on the
        caller's surface; by default the library's: ``project=DIR``)."""
        from silcrow.notes import NO_PROJECT, NO_PROJECT_ADVICE, Notes

        root = None if project is None else find_project(project)
        why = ((no_project or NO_PROJECT) if project is None
               else f"{os.fspath(project)} is not inside a git work tree")
        return Notes(self.store(lock_timeout=lock_timeout, backend=backend), recall,
                     project_store=(None if root is None
                                    else self.project_store(root, lock_timeout=lock_timeout)),
                     no_project=why, advice=advice or NO_PROJECT_ADVICE)

    def project_store(self, root: str | os.PathLike[str], *,
                      lock_timeout: float | None = None) -> MemoryStore:
        """The notes of the project at ``root`` (``PROJECT.md``, its one target ``project``), kept
        in this profile: ``<path>/projects/<key>/``, or the database. A directory inside a work
        tree means that work tree; a path in none (a root that is gone) is taken as the root."""
        from silcrow.store import MemoryStore

        return MemoryStore.of(self, lock_timeout=lock_timeout, project=find_project(root) or root)

    def projects(self) -> list[dict[str, Any]]:
        """The projects of this profile with notes, most recently used first: each one's
        ``root``, ``key``, ``created``, ``last_used``, ``exists`` (whether its root is still
        there), ``entries``, ``usage`` and ``pending`` (the model's writes to it held for a
        person's approval, which only a session in that project lists)."""
        from silcrow.store import MemoryStore, Project, Projects

        registry = Projects(self)
        listed = []
        for record in registry.records():
            place = Project(Path(record.root or record.key), record.key, registry)
            store = MemoryStore.of(self, project=place)
            view = store.read("project")
            listed.append({**record.as_dict(), "exists": bool(record.root) and os.path.isdir(record.root),
                           "entries": len(view.entries), "usage": view.usage,
                           "pending": len(store.pending())})
        return listed

    def archive_project(self, root: str) -> dict[str, Any]:
        """Move the notes of the project at ``root`` (as :meth:`projects` lists it, or its key)
        aside, whole: they leave every listing and prompt, and nothing is deleted."""
        from silcrow.store import Projects

        return Projects(self).archive(root).as_dict()

    def archived_projects(self) -> list[dict[str, Any]]:
        """The projects whose notes were archived, most recently archived first: each one's
        ``name`` (its place among the archives), ``archived`` (when), ``root``, ``key``,
        ``created``, ``last_used`` and ``entries``."""
        from silcrow.store import Projects

        return [archive.as_dict() for archive in Projects(self).archived()]

    def restore_project(self, given: str) -> dict[str, Any]:
        """Put archived notes back (``given``: the archive's name, or the project's root or key:
        its most recent archive), as :meth:`archived_projects` lists them. Refused when that
        project has notes of its own now."""
        from silcrow.store import Projects

        return Projects(self).restore(given).as_dict()

    def move_project(self, old: str, new: str | os.PathLike[str]) -> dict[str, Any]:
        """Give the notes of the project at ``old`` (a root that is gone, as :meth:`projects`
        lists it, or its key) to the git work tree holding ``new``, whole. Refused when ``new``
        is in no work tree, or its project has notes of its own."""
        from silcrow.errors import StoreError
        from silcrow.store import Projects

        registry = Projects(self)
        registry.find(old)  # what is moved is checked first: a missing one says so
        root = find_project(new)
        if root is None:
            raise StoreError(f"{os.fspath(new)} is not inside a git work tree; give the project's new root")
        return registry.move(old, root).as_dict()

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
        """The recall provider ``name`` (default: the configured one, or the configured several
        as one ``ProviderSet``) for this profile, or None when it is ``"none"``. Not initialised:
        :meth:`recall` runs it."""
        from silcrow.recall import open_provider

        return open_provider(self, name, embedder=embedder)

    def recall(self, session_id: str = "", *, provider: str | MemoryProvider | None = None,
               embedder: str | Embedder | None = None, context: Mapping[str, Any] | None = None,
               initialize: bool = True, available_only: bool = True, **options: Any) -> MemoryManager:
        """A :class:`~silcrow.recall.MemoryManager` running this profile's recall provider, or
        its several at once (``provider``: another name, ``"none"``, or an instance), opened,
        checked and initialised
        for ``session_id`` (``context``: more for the provider's ``initialize``); ``options`` are
        the manager's. A provider that is not available is left out with a warning: recall is
        then empty, the notes unaffected. The caller shuts the manager down."""
        from silcrow.recall import MemoryManager, MemoryProvider

        found = (provider if isinstance(provider, MemoryProvider)
                 else self.provider(provider, embedder=embedder))
        return MemoryManager.of(found, session_id, context={"home": str(self.path), **(context or {})},
                                initialize=initialize, available_only=available_only, **options)


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
