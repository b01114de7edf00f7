"""Where a project's notes live, and the record of each project of a profile.

A project's notes (``PROJECT.md``) are a whole notes store of their own, kept in the home and
never in the repository: in files mode the directory ``<profile path>/projects/<key>/`` holds
``PROJECT.md`` with its own journal, locks, pending box, ledger and archive, plus
``project.json`` (the project's root, when its notes were made and last used); in PostgreSQL
mode they are the notes rows of the owner ``<profile>/project/<key>``, which no profile name
can be (a profile name holds no ``/``), and the record is one more row of that owner. The key
is :func:`silcrow._projects.project_key` of the root's real path.

A project whose root is gone (a clone deleted, a directory renamed) keeps its notes: it can be
archived (its notes move aside, under ``projects/.archive/``, or the owner
``<profile>/project-archive/...``) or moved to its new root (its notes move to the new root's
key); neither drops an entry.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow import _locking as locking
from silcrow import _private
from silcrow._atomic import replace_file
from silcrow._projects import project_key
from silcrow.config import ProfileSettings, env_switch
from silcrow.errors import LockTimeoutError, StoreError
from silcrow.store._backend import StoreBackend
from silcrow.store._entries import ENTRY_DELIMITER, PROJECT_FILES, PROJECT_TARGET

__all__ = ["ArchivedProject", "Project", "ProjectRecord", "Projects"]

PROJECTS_DIR = "projects"
ARCHIVE_DIR = ".archive"
RECORD_FILE = "project.json"
# A profile name never holds "/" (silcrow._paths.validate_profile): these owners are no profile's.
OWNER_PART = "/project/"
ARCHIVED_PART = "/project-archive/"
# "Last used" is advice for a person choosing what to archive: rewriting it more often than
# this would cost a write on every session start for nothing.
TOUCH_EVERY = 60.0
# How many known projects a "no project with notes at ..." error names.
_KNOWN_SHOWN = 5
# Every table that holds notes rows of an owner (silcrow.schema._notes).
_OWNER_TABLES = ("curated_notes", "curated_journal", "curated_backups", "pending_proposals",
                 "curated_ledger")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _stamp() -> str:
    """Now, as a name's suffix (an archived project's directory or owner), to the microsecond:
    a project archived, used again and archived again within a second gets a second name."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def _age(stamp: str) -> float:
    try:
        return (datetime.now(UTC) - datetime.fromisoformat(stamp.replace("Z", "+00:00"))).total_seconds()
    except ValueError:
        return float("inf")


@dataclass(frozen=True)
class ProjectRecord:
    """What a profile knows of one project: its key, root, and when its notes were made and
    last used."""

    key: str
    root: str
    created: str
    last_used: str

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "root": self.root, "created": self.created, "last_used": self.last_used}

    @classmethod
    def parse(cls, key: str, text: str) -> ProjectRecord | None:
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("root"), str):
            return None
        return cls(key, data["root"], str(data.get("created") or ""), str(data.get("last_used") or ""))

    def render(self) -> str:
        return json.dumps({"root": self.root, "created": self.created, "last_used": self.last_used},
                          ensure_ascii=True, indent=1) + "\n"


@dataclass(frozen=True)
class ArchivedProject:
    """A project's notes set aside by an archive: ``name`` is its place on the shelf
    (``<key>-<time>``), ``archived`` when (ISO 8601), ``record`` what was known of the project."""

    name: str
    archived: str
    record: ProjectRecord
    entries: int

    @classmethod
    def of(cls, name: str, texts: dict[str, str]) -> ArchivedProject:
        """The archive ``name`` from its files' texts (the record and ``PROJECT.md``, either may
        be missing)."""
        key, _, stamp = name.rpartition("-")
        try:
            when = datetime.strptime(stamp, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
            archived = when.isoformat(timespec="seconds").replace("+00:00", "Z")
        except ValueError:
            key, archived = name, ""
        record = ProjectRecord.parse(key, texts.get(RECORD_FILE, "")) or ProjectRecord(key, "", "", "")
        body = texts.get(PROJECT_FILES[PROJECT_TARGET], "")
        return cls(name, archived, record, len(body.split(ENTRY_DELIMITER)) if body.strip() else 0)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "archived": self.archived, **self.record.as_dict(),
                "entries": self.entries}


@dataclass(frozen=True)
class Project:
    """The project a store's notes belong to: its root (a real path) and key."""

    root: Path
    key: str
    registry: Projects = field(compare=False, repr=False)

    def touch(self, *, create: bool = True) -> None:
        """Note that the project's notes were used now (``create``: make its record if it has
        none; else only a known project's record is brought up to date)."""
        self.registry.touch(self, create=create)


class Projects:
    """The projects of one profile: where each one's notes live, and their records."""

    def __init__(self, where: ProfileSettings, *, lock_timeout: float | None = None) -> None:
        self.where = where
        self.lock_timeout = lock_timeout
        self.shared = where.storage.shared
        self.directory = Path(where.path) / PROJECTS_DIR

    def project(self, root: str | os.PathLike[str]) -> Project:
        real = Path(os.path.realpath(os.fspath(root)))
        return Project(real, project_key(real), self)

    def owner(self, key: str) -> str:
        """The owner of a project's rows in PostgreSQL."""
        return f"{self.where.name}{OWNER_PART}{key}"

    def backend(self, project: Project) -> StoreBackend:
        """The notes backend of ``project``: its directory, or its rows."""
        if self.shared:
            from silcrow.store._postgres import PostgresBackend

            assert self.where.storage.dsn is not None
            return PostgresBackend(self.where.storage.dsn, self.owner(project.key))
        from silcrow.store._files import DEFAULT_LOCK_TIMEOUT, FileBackend

        return FileBackend(self.directory / project.key,
                           lock_timeout=self.lock_timeout or DEFAULT_LOCK_TIMEOUT, home=self.where.path,
                           allow_outside_home=env_switch("memory_outside_home"), remake=False)

    # -- records ---------------------------------------------------------------------------------

    def touch(self, project: Project, *, create: bool = True) -> None:
        known = self.record(project.key)
        if known is None and not create:
            return
        if known is not None and known.root == str(project.root) and _age(known.last_used) < TOUCH_EVERY:
            return
        now = _now()
        self._write_record(ProjectRecord(project.key, str(project.root),
                                         known.created if known is not None else now, now))

    def record(self, key: str) -> ProjectRecord | None:
        if self.shared:
            rows = self._query("SELECT body FROM curated_notes WHERE profile = %s AND target_file = %s",
                               (self.owner(key), RECORD_FILE))
            text = bytes(rows[0]["body"]).decode("utf-8", "replace") if rows else None
            return None if text is None else ProjectRecord.parse(key, text)
        try:
            text = (self.directory / key / RECORD_FILE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return ProjectRecord.parse(key, text)

    def records(self) -> list[ProjectRecord]:
        """Every project of the profile that has notes or a record, most recently used first."""
        found: list[ProjectRecord] = []
        if self.shared:
            prefix = f"{self.where.name}{OWNER_PART}"
            rows = self._query(
                "SELECT profile, target_file, body FROM curated_notes WHERE left(profile, %s) = %s",
                (len(prefix), prefix))
            keys = sorted({str(r["profile"])[len(prefix):] for r in rows})
            bodies = {str(r["profile"])[len(prefix):]: bytes(r["body"]).decode("utf-8", "replace")
                      for r in rows if r["target_file"] == RECORD_FILE}
            for key in keys:
                record = ProjectRecord.parse(key, bodies.get(key, "")) if key in bodies else None
                found.append(record or ProjectRecord(key, "", "", ""))
        else:
            try:
                keys = sorted(p.name for p in self.directory.iterdir()
                              if p.is_dir() and not p.name.startswith("."))
            except OSError:
                keys = []
            for key in keys:
                record = self.record(key)
                if record is None and not self._holds_notes(key):
                    continue
                found.append(record or ProjectRecord(key, "", "", ""))
        return sorted(found, key=lambda r: r.last_used, reverse=True)

    def _holds_notes(self, key: str) -> bool:
        """Whether the directory of ``key`` holds a project's notes or record: one with neither
        (usage counters an earlier session left) is no project to list, and no obstacle to a
        move (it is set aside, whole)."""
        folder = self.directory / key
        return (folder / RECORD_FILE).exists() or (folder / PROJECT_FILES[PROJECT_TARGET]).exists()

    def find(self, given: str) -> ProjectRecord:
        """The project ``given`` names: its root as listed (or the real path of a root that
        still exists), or its key. A StoreError says what is known when none matches."""
        records = self.records()
        real = os.path.realpath(given) if given else given
        for record in records:
            if given in (record.key, record.root) or (record.root and real == record.root):
                return record
        # The most recently used few: a listing of every project would bury the message.
        known = ", ".join(r.root or r.key for r in records[:_KNOWN_SHOWN]) or "none"
        if len(records) > _KNOWN_SHOWN:
            known += f" and {len(records) - _KNOWN_SHOWN} more"
        raise StoreError(f"no project with notes at {given!r} in this profile (known: {known}); "
                         "list them with `silcrow memory projects`")

    # -- archive and move ------------------------------------------------------------------------

    def archive(self, given: str) -> ProjectRecord:
        """Move the notes of the project ``given`` names aside, whole (nothing is deleted)."""
        record = self.find(given)
        if self.shared:
            shelved = f"{self.where.name}{ARCHIVED_PART}{record.key}-{_stamp()}"
            self._rename_owner(self.owner(record.key), shelved)
        else:
            self._set_aside(record.key)
        return record

    def _set_aside(self, key: str) -> None:
        shelf = self.directory / ARCHIVE_DIR
        _private.private_dir(shelf)
        self._rename_dir(self.directory / key, shelf / f"{key}-{_stamp()}")

    def archived(self) -> list[ArchivedProject]:
        """The archived projects of the profile, most recently archived first."""
        texts: dict[str, dict[str, str]] = {}
        wanted = (RECORD_FILE, PROJECT_FILES[PROJECT_TARGET])
        if self.shared:
            prefix = f"{self.where.name}{ARCHIVED_PART}"
            for row in self._query("SELECT profile, target_file, body FROM curated_notes "
                                   "WHERE left(profile, %s) = %s", (len(prefix), prefix)):
                mine = texts.setdefault(str(row["profile"])[len(prefix):], {})
                if row["target_file"] in wanted:
                    mine[str(row["target_file"])] = bytes(row["body"]).decode("utf-8", "replace")
        else:
            try:
                shelved = [p for p in (self.directory / ARCHIVE_DIR).iterdir() if p.is_dir()]
            except OSError:
                shelved = []
            for folder in shelved:
                found = {}
                for name in wanted:
                    try:
                        found[name] = (folder / name).read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                if found:  # a directory set aside holding neither (usage counters) is no project
                    texts[folder.name] = found
        listed = [ArchivedProject.of(name, found) for name, found in texts.items()]
        return sorted(listed, key=lambda a: (a.archived, a.name), reverse=True)

    def restore(self, given: str) -> ArchivedProject:
        """Put the archived notes ``given`` names back in their place: the archive's name, or the
        project's key or root (its most recent archive). Refused, nothing changed, when that
        project has notes of its own now (made since it was archived)."""
        shelved = self._archive_named(given)
        key, root = shelved.record.key, shelved.record.root or shelved.record.key
        taken = (f"the project at {root} has notes of its own now (made since it was archived); nothing "
                 f"was restored: archive them first (`silcrow memory projects archive {root}`), then "
                 "restore again")
        if self.shared:
            if self._query("SELECT 1 FROM curated_notes WHERE profile = %s LIMIT 1", (self.owner(key),)):
                raise StoreError(taken)
            self._rename_owner(f"{self.where.name}{ARCHIVED_PART}{shelved.name}", self.owner(key))
        else:
            if (self.directory / key).exists():
                if self._holds_notes(key):
                    raise StoreError(taken)
                self._set_aside(key)
            self._rename_dir(self.directory / ARCHIVE_DIR / shelved.name, self.directory / key)
        return shelved

    def _archive_named(self, given: str) -> ArchivedProject:
        shelved = self.archived()
        real = os.path.realpath(given) if given else given
        for archive in shelved:  # most recent first
            record = archive.record
            if given in (archive.name, record.key, record.root) or (record.root and real == record.root):
                return archive
        known = ", ".join(f"{a.record.root or a.record.key} ({a.name})" for a in shelved[:_KNOWN_SHOWN])
        if len(shelved) > _KNOWN_SHOWN:
            known += f" and {len(shelved) - _KNOWN_SHOWN} more"
        raise StoreError(f"no archived project at {given!r} in this profile (archived: {known or 'none'}); "
                         "list them with `silcrow memory projects --archived`")

    def move(self, given: str, new_root: str | os.PathLike[str]) -> ProjectRecord:
        """Give the notes of the project ``given`` names to the project at ``new_root``, whole;
        refused when that project has notes of its own (archive or empty them first)."""
        record = self.find(given)
        target = self.project(new_root)
        if target.key == record.key:
            raise StoreError(f"{given} and {new_root} are the same project; nothing to move")
        if self.shared:
            if self._query("SELECT 1 FROM curated_notes WHERE profile = %s LIMIT 1",
                           (self.owner(target.key),)):
                raise StoreError(self._taken(target))
            self._rename_owner(self.owner(record.key), self.owner(target.key))
        else:
            if (self.directory / target.key).exists():
                if self._holds_notes(target.key):
                    raise StoreError(self._taken(target))
                self._set_aside(target.key)
            self._rename_dir(self.directory / record.key, self.directory / target.key)
        now = _now()
        self._write_record(ProjectRecord(target.key, str(target.root), record.created or now, now))
        return ProjectRecord(target.key, str(target.root), record.created or now, now)

    @staticmethod
    def _taken(target: Project) -> str:
        return (f"the project at {target.root} has notes of its own; archive them first "
                f"(`silcrow memory projects archive {target.root}`), then move again")

    # -- storage ---------------------------------------------------------------------------------

    def _write_record(self, record: ProjectRecord) -> None:
        if self.shared:
            from silcrow.store._postgres import WHAT

            db = self._db()
            with db.transaction(StoreError, WHAT) as conn:
                conn.execute(
                    "INSERT INTO curated_notes (profile, target_file, body) VALUES (%s, %s, %s) "
                    "ON CONFLICT (profile, target_file)"
                    " DO UPDATE SET body = excluded.body, updated_at = now()",
                    (self.owner(record.key), RECORD_FILE, record.render().encode("utf-8")))
            return
        folder = self.directory / record.key
        try:
            _private.private_dir(folder)
            replace_file(folder / RECORD_FILE, record.render(), mode=_private.FILE_MODE)
        except OSError as exc:
            raise StoreError(f"cannot write the project record {folder / RECORD_FILE}: "
                             f"{exc.strerror or exc}. Check that the home is a writable directory") from exc

    def _rename_dir(self, old: Path, new: Path) -> None:
        """Move a project's directory whole, under the lock its notes' writers take: a write in
        progress finishes first (one that holds on past the lock timeout is waited for no
        longer: nothing is moved), and a directory another process moved or archived meanwhile,
        or a target that appeared meanwhile, is refused; nothing is ever merged into another."""
        from silcrow.store._files import DEFAULT_LOCK_TIMEOUT

        timeout = self.lock_timeout or DEFAULT_LOCK_TIMEOUT
        lock = locking.ExclusiveLock(old / (PROJECT_FILES[PROJECT_TARGET] + ".lock"), timeout)
        try:
            lock.acquire()
        except FileNotFoundError:
            raise StoreError(f"the notes at {old} were moved or archived meanwhile (by another process); "
                             "nothing was moved: list them again with `silcrow memory projects`") from None
        except locking.LockWaitTimeout:
            raise LockTimeoutError(f"the notes at {old} are being written (their lock was held for "
                                   f"{timeout:g}s); nothing was moved: retry when that write is done"
                                   ) from None
        try:
            if os.path.lexists(new):
                raise StoreError(f"cannot move {old} to {new}: it exists already (made meanwhile); "
                                 "nothing was moved: list the projects again with `silcrow memory projects`")
            os.rename(old, new)
        except OSError as exc:
            raise StoreError(f"cannot move {old} to {new}: {exc.strerror or exc}; nothing was moved") from exc
        finally:
            lock.release()

    def _db(self) -> Any:
        from silcrow import schema

        assert self.where.storage.dsn is not None
        return schema.database(self.where.storage.dsn)

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        from silcrow.store._postgres import WHAT

        db = self._db()

        def once() -> list[Any]:
            with db.transaction(StoreError, WHAT) as conn:
                return list(conn.execute(sql, params).fetchall())

        return list(db.retrying(once))

    def _rename_owner(self, old: str, new: str) -> None:
        """Give every row of ``old`` to ``new`` in one transaction; refused (nothing changed) when
        ``old`` has no notes any more (moved or archived meanwhile) or ``new`` has some."""
        from silcrow.store._postgres import WHAT

        with self._db().transaction(StoreError, WHAT) as conn:
            # Both owners' notes rows locked in one order, so two moves at once take turns.
            held = {str(row["profile"]) for row in conn.execute(
                "SELECT profile FROM curated_notes WHERE profile = ANY(%s) ORDER BY profile FOR UPDATE",
                ([old, new],)).fetchall()}
            if old not in held:
                raise StoreError(f"the notes of {old} were moved or archived meanwhile (by another process); "
                                 "nothing was moved: list them again with `silcrow memory projects`")
            if new in held:
                raise StoreError(f"{new} has notes already (made meanwhile); nothing was moved: list the "
                                 "projects again with `silcrow memory projects`")
            for table in _OWNER_TABLES:
                conn.execute(f"UPDATE {table} SET profile = %s WHERE profile = %s", (new, old))
