"""The file backend: lock, re-read, atomic replace, backups, journal.

A write of ``MEMORY.md`` goes like this:

1. take an exclusive lock on the sidecar ``MEMORY.md.lock`` (never on the
   data file itself: ``os.replace`` swaps the data file's inode, and a lock on
   a replaced inode protects nothing);
2. remove temp files left by a writer that crashed (we hold the lock, so no
   live writer can own one);
3. re-read ``MEMORY.md`` from disk, under the lock: what another process
   wrote a moment ago is the base of this change;
4. write the new text to a temp file in the same directory, fsync it,
   ``os.replace`` it over ``MEMORY.md``, append the journal record;
5. release the lock, then fsync the directory before returning.

Readers take no lock: ``os.replace`` is atomic, so they see the old or the
new file, never an empty or half-written one.

Two fsyncs per write, chosen by measurement (``bench/store.py``): the temp
file's, so that the file the rename exposes is complete even after a power
cut, and the directory's, so that the rename itself survives one (Hermes's
write path skips this one). The directory fsync runs after the lock is
released: the next writer does its work meanwhile, and the filesystem can
commit several writers' renames at once; the write still returns only when
it is durable. The journal is not fsynced (it was a third sync, about a
third of a write's time): it records history, not data, and a record a power
cut drops is bridged on the next write by an ``outside_edit`` record.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow import _private
from silcrow._atomic import fsync_directory as _fsync_dir
from silcrow._paths import default_home, memories_dir
from silcrow.config import SWITCHES, env_switch
from silcrow.errors import LockTimeoutError, StoreError
from silcrow.store import journal, locking
from silcrow.store.backend import StoreBackend, Transaction
from silcrow.store.pending import PENDING_FILE, DocumentBox, ProposalBox

TEMP_SUFFIX = ".tmp"
DEFAULT_LOCK_TIMEOUT = 10.0
OUTSIDE_HOME_ENV = SWITCHES["memory_outside_home"]


def _temp_prefix(name: str) -> str:
    # Hidden, and never matching "<name>" itself, so nothing reads it as data.
    return f".{name}."


def _read_text(path: Path, errors: str) -> str:
    try:
        with open(path, encoding="utf-8", errors=errors, newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise StoreError(unusable_file_message(path, exc)) from exc


def unusable_file_message(path: Path, exc: OSError) -> str:
    """What is wrong with a memory file that cannot be read, and what to do about it."""
    directory = path.parent
    if isinstance(exc, NotADirectoryError):
        return (
            f"cannot read {path}: {directory} (or a folder above it) is a file, not a directory. "
            "Point --home / SILCROW_HOME at a directory, or move that file out of the way"
        )
    if isinstance(exc, IsADirectoryError) or path.is_dir():
        return (
            f"cannot read {path}: it is a directory, not a file. Move or rename that directory "
            f"(silcrow creates {path.name} again on the next write), then retry"
        )
    if isinstance(exc, PermissionError):
        if not os.access(directory, os.R_OK | os.X_OK):
            return (
                f"cannot read {path}: permission denied on the memory directory {directory}. "
                f"Give your user access to it (e.g. `chmod u+rwx {directory}`)"
            )
        return (
            f"cannot read {path}: permission denied. Give your user read and write access to the "
            f"file (e.g. `chmod u+rw {path}`)"
        )
    return f"cannot read {path}: {exc.strerror or exc}. Check that it is a readable file"


class FileTransaction(Transaction):
    def __init__(self, backend: FileBackend, path: Path) -> None:
        self._backend = backend
        self._path = path
        # The directory of a rename whose durability is still owed (see the module docstring).
        self.renamed_in: Path | None = None

    def read(self) -> str:
        return _read_text(self._path, "surrogateescape")

    def write(self, text: str) -> None:
        # A MEMORY.md symlinked into, say, a dotfiles repository stays a
        # symlink: the file replaced is the real one, from its own directory.
        path = Path(os.path.realpath(self._path))
        directory = path.parent
        temp = directory / f"{_temp_prefix(path.name)}{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
        mode = _private.FILE_MODE
        with contextlib.suppress(FileNotFoundError):
            mode = os.stat(path).st_mode & 0o700  # the owner's bits as they were; nobody else's
        data = memoryview(text.encode("utf-8", "surrogateescape"))
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            try:
                while data:
                    data = data[os.write(fd, data):]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        self.renamed_in = directory

    def journal(self, record: dict[str, Any]) -> None:
        target = record["target"]
        self._backend.remember(target, *journal.append(
            self._backend.journal_path, record, self._backend.recall(target)
        ))

    def last_record(self, target: str) -> dict[str, Any] | None:
        found = self._backend.recall(target)
        return found.record if found is not None else None

    def records(self, target: str) -> list[dict[str, Any]]:
        return [r for r in journal.read(self._backend.journal_path) if r.get("target") == target]

    def backup(self, text: str) -> str:
        return str(self._backend.backup(self._path, text))


class FileBackend(StoreBackend):
    """MEMORY.md / USER.md in one directory, with sidecar locks and a JSONL journal.

    A memory file that resolves (through symlinks) to a place outside
    ``home`` (by default the directory's parent, the silcrow home) is refused
    for reading and writing unless ``allow_outside_home``: a link to, say,
    ``/etc/passwd`` would otherwise go into the system prompt and be rewritten.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        home: str | os.PathLike[str] | None = None,
        allow_outside_home: bool = False,
    ) -> None:
        self.directory = Path(directory)
        self.lock_timeout = lock_timeout
        self.home = Path(home) if home is not None else self.directory.parent
        self.allow_outside_home = allow_outside_home
        self._newest: dict[str, tuple[journal.Stamp, journal.Last]] = {}
        self._made_private = False  # this home's notes, journal, backups and locks checked once

    def _checked(self, target_file: str) -> Path:
        path = self.path(target_file)
        if self.allow_outside_home:
            return path
        real = Path(os.path.realpath(path))
        root = Path(os.path.realpath(self.home))
        if real == root or root in real.parents:
            return path
        raise StoreError(
            f"{path} resolves to {real}, outside the silcrow home {self.home}; silcrow does not read "
            "or write memory files elsewhere (a link could put any file into the prompt). Move the "
            f"file into {self.home}, or set {OUTSIDE_HOME_ENV}=1 to allow it"
        )

    @property
    def journal_path(self) -> Path:
        return self.directory / journal.JOURNAL_NAME

    def remember(self, target: str, last: journal.Last, stamp: journal.Stamp) -> None:
        """Keep the record this process just appended, to skip reading it back next time."""
        self._newest[target] = (stamp, last)

    def recall(self, target: str) -> journal.Last | None:
        """The newest journal record of ``target``: the one remembered when nobody appended
        since (the journal ends where it ended then), else read from the journal."""
        remembered = self._newest.get(target)
        if remembered is not None and remembered[0] == journal.stamp(self.journal_path):
            return remembered[1]
        self._newest.pop(target, None)
        return journal.last(self.journal_path, target)

    def path(self, target_file: str) -> Path:
        return self.directory / target_file

    def location(self, target_file: str) -> str:
        return str(self.path(target_file))

    def read(self, target_file: str, *, strict: bool = False) -> str:
        return _read_text(self._checked(target_file), "surrogateescape" if strict else "replace")

    @contextlib.contextmanager
    def transaction(self, target_file: str) -> Iterator[Transaction]:
        try:
            # A profile's home sits in <base>/profiles/, which is as private as the homes in it.
            top = self.home.parent if self.home.parent.name == "profiles" else self.home
            _private.private_dir(self.directory, home=top)
            if not self._made_private:
                for child in self.directory.iterdir():
                    _private.tighten(child)
                self._made_private = True
        except OSError as exc:
            raise StoreError(
                f"cannot use the memory directory {self.directory}: {exc.strerror or exc}. "
                "Check that the path (and --home / SILCROW_HOME) points to a writable directory"
            ) from exc
        path = self._checked(target_file)
        lock_path = path.with_name(path.name + ".lock")
        lock = locking.ExclusiveLock(lock_path, self.lock_timeout)
        try:
            lock.acquire()
        except locking.LockWaitTimeout as exc:
            raise LockTimeoutError(
                f"could not lock {path} within {self.lock_timeout:g}s: another process is writing "
                f"it and holds {lock_path}. Retry in a moment; if it persists, find the holder "
                f"with `fuser {lock_path}` (a crashed holder releases the lock by itself)"
            ) from exc
        except OSError as exc:
            raise StoreError(
                f"cannot create the lock file {lock_path}: {exc.strerror or exc}. Check the permissions "
                f"of {self.directory}"
            ) from exc
        transaction = FileTransaction(self, path)
        try:
            self._remove_leftovers(target_file)
            yield transaction
        except OSError as exc:
            raise StoreError(
                f"could not update {path}: {exc.strerror or exc}. The file is either unchanged or fully "
                f"updated, never partly written; check free disk space and the permissions of "
                f"{self.directory}, then retry"
            ) from exc
        finally:
            lock.release()
        if transaction.renamed_in is not None:
            try:
                _fsync_dir(transaction.renamed_in)
            except OSError as exc:
                raise StoreError(
                    f"{path} was updated, but the update may not survive a power cut: syncing "
                    f"{transaction.renamed_in} failed ({exc.strerror or exc}). Check the disk, then "
                    "check the file with `silcrow memory show`"
                ) from exc

    def leftovers(self, target_file: str) -> list[str]:
        real = Path(os.path.realpath(self.path(target_file)))
        found: set[str] = set()
        for directory, prefix in {
            (self.directory, _temp_prefix(target_file)),
            (real.parent, _temp_prefix(real.name)),
        }:
            try:
                names = os.listdir(directory)
            except (FileNotFoundError, NotADirectoryError):
                continue
            found.update(
                str(directory / n) for n in names if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)
            )
        return sorted(found)

    def _remove_leftovers(self, target_file: str) -> None:
        # Only called with the target's lock held, so every temp file of this
        # target belongs to a writer that died before its os.replace.
        for leftover in self.leftovers(target_file):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)

    def backup(self, path: Path, text: str) -> Path:
        """Save ``text`` as ``<file>.bak.<UTC timestamp>``, reusing an identical recent backup."""
        data = text.encode("utf-8", errors="surrogateescape")
        existing = sorted(path.parent.glob(path.name + ".bak.*"))
        if existing and existing[-1].read_bytes() == data:
            return existing[-1]
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        candidate = path.with_name(f"{path.name}.bak.{stamp}")
        counter = 1
        while candidate.exists():
            candidate = path.with_name(f"{path.name}.bak.{stamp}-{counter}")
            counter += 1
        fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _fsync_dir(path.parent)
        return candidate

    def journal_records(self) -> Iterator[dict[str, Any]]:
        return journal.read(self.journal_path)

    def proposals(self) -> ProposalBox:
        return FileBox(self)


class FileBox(DocumentBox):
    """Pending proposals in ``.pending.json`` beside the notes: created 0600, changed under its
    own sidecar lock with the notes' atomic write, read without a lock."""

    def __init__(self, backend: FileBackend) -> None:
        self._backend = backend

    def _read(self) -> str:
        return self._backend.read(PENDING_FILE)

    def _change(self, change: Any) -> Any:
        with self._backend.transaction(PENDING_FILE) as tx:
            state, value = change(self.parse(tx.read()))
            tx.write(self.render(state))
        return value


def open_backend(
    home: str | os.PathLike[str] | None = None, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT
) -> StoreBackend:
    """The backend of a silcrow home (the default home when None): its memories directory."""
    root = Path(home).expanduser() if home is not None else default_home()
    allow = env_switch("memory_outside_home")
    return FileBackend(
        memories_dir(root), lock_timeout=lock_timeout, home=root, allow_outside_home=allow
    )
