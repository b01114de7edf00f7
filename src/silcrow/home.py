"""Opening a home: the one place that turns a directory and a profile into silcrow's parts.

:func:`open_profile` is the composition root. It reads the settings once
(arguments, then the environment, then the profile's ``config.toml``, then
the home's ``config.toml``, then the defaults), decides the storage once
(the profile's files, or a PostgreSQL database), and hands out the parts
built on that decision: the curated notes (:meth:`Profile.store`), the
session archive (:meth:`Profile.sessions`), the local recall storage
(:meth:`Profile.recall_storage`) and the configured recall provider
(:meth:`Profile.provider`). :class:`~silcrow.store.MemoryStore`,
:class:`~silcrow.agent.Agent`, the CLI, the servers and the Hermes plugin all
get their parts here::

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
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from silcrow._paths import DEFAULT_PROFILE, config_file, default_home, resolve_home
from silcrow._private import private_dir
from silcrow.config import Rule, Settings, Text, env_value
from silcrow.errors import ConfigError

if TYPE_CHECKING:
    from silcrow.recall import Embedder, MemoryProvider
    from silcrow.recall.local import RecallBackend
    from silcrow.sessions import SessionBackend
    from silcrow.store import MemoryStore, StoreBackend

__all__ = [
    "BACKENDS", "DEFAULT_PROFILE", "Profile", "Storage", "StorageSettings",
    "locate", "open_profile", "read_settings",
]

BACKENDS = ("files", "postgres")

Backend = Annotated[str, Rule(f"one of {', '.join(BACKENDS)}", lambda v: v in BACKENDS)]


@dataclass(frozen=True)
class StorageSettings:
    """The ``[storage]`` table of config.toml::

        [storage]
        backend = "postgres"              # or "files" (the default)
        dsn = "postgresql://user@host/db"
    """

    backend: Backend = "files"
    dsn: Text | None = None


@dataclass(frozen=True)
class Storage:
    """Where a profile's notes, recall and sessions live, decided once by :func:`open_profile`."""

    backend: Literal["files", "postgres"] = "files"
    dsn: str | None = None

    @property
    def shared(self) -> bool:
        """True for a database (several homes may use it), False for the profile's own files."""
        return self.backend == "postgres"


def locate(path: Path) -> tuple[Path, str]:
    """``(home, profile name)`` of a directory: ``<home>/profiles/<name>`` is profile ``name``
    of ``<home>``, any other directory is a home (profile ``default``)."""
    if path.parent.name == "profiles":
        return path.parent.parent, path.name
    return path, DEFAULT_PROFILE


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}; fix or delete the file") from exc


def read_settings(path: Path) -> Settings:
    """The file settings of the profile directory ``path``: its home's config.toml with the
    profile's own on top (no environment, no arguments; see :func:`open_profile`)."""
    home, name = locate(path)
    layers: list[tuple[dict[str, Any], Path]] = []
    for directory in ((home, path) if path != home else (path,)):
        found = config_file(directory)
        layer = _read_toml(found)
        if layer:
            layers.append((layer, found))
    return Settings.from_layers(layers)


def _storage(settings: Settings, dsn: str | None, environ: Mapping[str, str] | None,
             files: str) -> Storage:
    """A DSN given as an argument or in the environment selects PostgreSQL by itself; in
    config.toml it takes ``backend = "postgres"``. ``files`` names the config files read."""
    given = dsn or env_value("storage.dsn", environ)
    if given:
        return Storage("postgres", given)
    storage = settings.section("storage", StorageSettings)
    if storage.backend == "files":
        return Storage()
    if not storage.dsn or not storage.dsn.strip():
        raise ConfigError(
            f'[storage] backend = "postgres" in {files} needs '
            'dsn = "postgresql://user@host/dbname" (or set SILCROW_DATABASE_URL)'
        )
    return Storage("postgres", storage.dsn.strip())


@dataclass(frozen=True)
class Profile:
    """One profile of a home, opened: its settings and storage, and the parts built on them."""

    path: Path          # the directory of the profile's files (config.toml, memories/, recall.db ...)
    home: Path          # the home it belongs to (== path for the profile "default")
    name: str           # "default" for the home's own profile
    settings: Settings
    storage: Storage

    # -- curated notes ---------------------------------------------------------------------

    def notes_backend(self, *, lock_timeout: float | None = None) -> StoreBackend:
        """Where the curated notes live: ``<path>/memories/``, or this profile's notes in the
        database."""
        if not self.storage.shared:
            from silcrow.store._files import DEFAULT_LOCK_TIMEOUT, open_backend

            return open_backend(self.path, lock_timeout=lock_timeout or DEFAULT_LOCK_TIMEOUT)
        from silcrow.store import PostgresBackend

        assert self.storage.dsn is not None
        return PostgresBackend(self.storage.dsn, self.name)

    def store(self, *, lock_timeout: float | None = None) -> MemoryStore:
        """A :class:`~silcrow.store.MemoryStore` of this profile, with its character limits."""
        from silcrow.store import MemoryStore

        return MemoryStore(memory_char_limit=self.settings.memory_char_limit,
                           user_char_limit=self.settings.user_char_limit,
                           backend=self.notes_backend(lock_timeout=lock_timeout),
                           write_policy=self.settings.write_policy,
                           on_full=self.settings.on_full)

    # -- sessions and recall ---------------------------------------------------------------

    def sessions(self) -> SessionBackend:
        """The session archive: ``<path>/sessions.db``, or the database."""
        if not self.storage.shared:
            from silcrow._paths import sessions_db
            from silcrow.sessions import SessionStore

            return SessionStore(sessions_db(self.path))
        from silcrow.sessions import PostgresSessions

        assert self.storage.dsn is not None
        return PostgresSessions(self.storage.dsn, self.name)

    def recall_storage(self, embedder: Embedder) -> RecallBackend:
        """The local provider's storage: ``<path>/recall.db``, or the database."""
        if not self.storage.shared:
            from silcrow._paths import recall_db
            from silcrow.recall.local import RecallStore

            return RecallStore(recall_db(self.path), embedder)
        from silcrow.recall.local import PostgresRecall

        assert self.storage.dsn is not None
        return PostgresRecall(self.storage.dsn, embedder, self.name)

    def provider(self, name: str | None = None, *,
                 embedder: str | Embedder | None = None) -> MemoryProvider | None:
        """The recall provider ``name`` (default: the configured one) for this profile, or None
        when it is ``"none"``. Not initialised: hand it to a
        :class:`~silcrow.recall.MemoryManager`."""
        chosen = self.settings.provider if name is None else name
        if chosen in ("", "none"):
            return None
        from silcrow.recall import load_provider

        spec = embedder if embedder is not None else self.settings.embedder_spec()
        if chosen == "local":  # its storage is the one decided here (a DSN may be an argument)
            return load_provider(chosen, home=self.path, embedder=spec, storage=self.recall_storage,
                                 reranker=self.settings.reranker)
        return load_provider(chosen, home=self.path, embedder=spec)


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
    base = Path(home).expanduser() if home is not None else default_home(environ)
    path = resolve_home(base, profile).absolute()
    home_dir, name = locate(path)
    settings = read_settings(path).with_env(environ).with_overrides(**overrides)
    read = [config_file(d) for d in dict.fromkeys((home_dir, path)) if config_file(d).exists()]
    try:
        storage = _storage(settings, dsn, environ, " and ".join(map(str, read)) or str(config_file(path)))
    except ConfigError:
        for found in read:  # a bad [storage] line: name the file that holds it
            Settings.from_mapping(_read_toml(found), found).section("storage", StorageSettings)
        raise
    if create:
        private_dir(path)
    return Profile(path=path, home=home_dir, name=name, settings=settings, storage=storage)
