"""The file backend: lock, re-read, atomic replace, backups, journal.

A write of ``MEMORY.md`` goes like this:

1. resolve ``MEMORY.md`` (it may be a symlink), check that it stays inside the
   home, and use that one resolved file for the whole transaction;
2. take an exclusive lock on the sidecar ``MEMORY.md.lock`` (never on the
   data file itself: ``os.replace`` swaps the data file's inode, and a lock on
   a replaced inode protects nothing);
3. remove temp files left by a writer that crashed (listed before the lock,
   removed under it: no live writer can own one then), on the first write of
   the target by this backend (and after ``leftovers()`` looked), not on every
   one;
4. re-read ``MEMORY.md`` from disk, under the lock: what another process
   wrote a moment ago is the base of this change;
5. write the new text to a temp file in the same directory, fsync it,
   ``os.replace`` it over ``MEMORY.md`` (:func:`silcrow._atomic.replace_file`),
   append the journal record;
6. release the lock, then fsync the directory before returning.

Readers take no lock: ``os.replace`` is atomic, so they see the old or the
new file, never an empty or half-written one.

The memory directory is created and made private (see ``silcrow._private``)
on a backend's first transaction, not on every write; a directory removed
since is made again when its lock file cannot be created.

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
import json
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow import _locking as locking
from silcrow import _private
from silcrow._atomic import TEMP_SUFFIX, replace_file, temp_prefix
from silcrow._atomic import fsync_directory as _fsync_dir
from silcrow._paths import default_home, memories_dir
from silcrow.config import SWITCHES, env_switch
from silcrow.errors import LockTimeoutError, StoreError
from silcrow.store import _journal as journal
from silcrow.store import _ledger as ledger
from silcrow.store._backend import LedgerDocument, StoreBackend, Transaction
from silcrow.store._filereads import digest, identity, read_bytes, read_text
from silcrow.store._pending import PENDING_FILE, DocumentBox, Proposal, ProposalBox, settled

DEFAULT_LOCK_TIMEOUT = 10.0
# Beside a target while an approval writes it: which proposal, and the digest of the text it
# writes, so that the next transaction of the target can tell whether the write happened.
INTENT_SUFFIX = ".approving"
# The notes files an intent can name (the store's TARGET_FILES; it imports this module).
NOTE_FILES = ("MEMORY.md", "USER.md", "PROJECT.md")
NOTE_TARGETS = {"MEMORY.md": "memory", "USER.md": "user", "PROJECT.md": "project"}
OUTSIDE_HOME_ENV = SWITCHES["memory_outside_home"]


class FileTransaction(Transaction):
    """One locked read-modify-write of a target file.

    An approval in it (:meth:`claim`, :meth:`settle`) also holds the box's lock, always
    taken after the target's (never before one: no lock-order deadlock), and goes:

    1. claim: lock ``.pending.json``, read it, find the proposal (still pending?);
    2. settle: write the intent ``<target>.approving`` durably (proposal id, digest of the
       new text);
    3. write the target (atomic, durable) and its journal record (naming the proposal);
    4. at the end: rewrite ``.pending.json`` with the proposal decided, then remove the intent.

    A crash before 3 leaves the proposal pending (the intent is dropped: the target does not
    hold its text); after 3 the next transaction of the target finds the intent, sees the
    write done (the journal names the proposal, or the target holds the digested text) and
    finishes 4. So a proposal leaves the box only once its effect is on disk, and is never
    applied twice.
    """

    def __init__(self, backend: FileBackend, path: Path, real: Path, target_file: str = "") -> None:
        self._backend = backend
        self._target_file = target_file
        self._path = path
        # The file itself: a MEMORY.md symlinked into, say, a dotfiles repository stays a
        # symlink, and the file replaced is the real one, from its own directory.
        self._real = real
        self._mode: int | None = None  # the file's permission bits, from the read
        self._read = False
        # The file as read, and as written: its inode, size and times (see _identity, journal).
        self._file: list[int] | None = None
        self._entries: list[str] | None = None  # what the caller parsed of it
        self._recalled: dict[str, journal.Last | None] = {}
        # The directory of a rename whose durability is still owed (see the module docstring).
        self.renamed_in: Path | None = None
        # An approval's share of the box (see the class docstring).
        self._box: contextlib.ExitStack | None = None
        self._box_tx: Transaction | None = None
        self._box_state: dict[str, list[Proposal]] = {}
        self._settling: Proposal | None = None
        self._intent: Path | None = None

    def read(self) -> str:
        data, found = read_bytes(self._real, self._path)
        self._mode, self._read = (found.st_mode if found is not None else None), True
        self._file = identity(found) if found is not None else None
        self._entries = None
        return data.decode("utf-8", "surrogateescape")

    def parsed(self, entries: list[str]) -> None:
        self._entries = entries

    def write(self, text: str) -> None:
        if not self._read:
            with contextlib.suppress(FileNotFoundError):
                self._mode = os.stat(self._real).st_mode
        # The owner's bits as they were (nobody else's); a new file is private.
        mode = _private.FILE_MODE if self._mode is None else self._mode & 0o700
        written = replace_file(self._real, text.encode("utf-8", "surrogateescape"), mode=mode,
                               sync_directory=False)
        self._file, self._entries = identity(written), None
        self.renamed_in = self._real.parent

    def _newest(self, target: str) -> journal.Last | None:
        # Once per transaction: holding the target's lock, nobody else appends its records.
        if target not in self._recalled:
            known = None
            if target == self._backend.target_of(self._target_file) and self._file is not None \
                    and self._entries is not None:
                known = (self._file, self._entries)
            self._recalled[target] = self._backend.recall(target, known)
        return self._recalled[target]

    def journal(self, record: dict[str, Any]) -> None:
        target = record["target"]
        # The file this record leaves, when this transaction wrote it: the next writer that
        # finds that very file in place knows this record's entries without rebuilding them.
        written = self._file if self.renamed_in is not None and \
            target == self._backend.target_of(self._target_file) else None
        last, ended = journal.append(self._backend.journal_path, record, self._newest(target),
                                     before_compact=self._backend.fold_ledger, file=written)
        self._backend.remember(target, last, ended)
        self._recalled[target] = last

    def last_record(self, target: str) -> dict[str, Any] | None:
        found = self._newest(target)
        return found.record if found is not None else None

    def records(self, target: str) -> list[dict[str, Any]]:
        return [r for r in journal.read(self._backend.journal_path) if r.get("target") == target]

    def backup(self, text: str) -> str:
        return str(self._backend.backup(self._path, text))

    def claim(self, box: ProposalBox, proposal_id: str) -> Proposal | None:
        if self._box_tx is None:
            stack = contextlib.ExitStack()
            self._box_tx = stack.enter_context(self._backend.transaction(PENDING_FILE))
            self._box = stack
            self._box_state = DocumentBox.parse(self._box_tx.read())
        return next((p for p in self._box_state["pending"] if p.id == proposal_id), None)

    def settle(self, box: ProposalBox, proposal: Proposal, text: str | None) -> None:
        if text is not None:
            intent = {"proposal": proposal.id, "target": proposal.target, "after": digest(text),
                      "by": proposal.decided_by}
            path = self._backend.intent_path(self._target_file)
            data = json.dumps(intent).encode("ascii")
            replace_file(path, data, mode=_private.FILE_MODE, sync_directory=True)
            self._intent = path
        self._settling = proposal

    def finish(self) -> None:
        """End normally (the target's lock still held): decide the settled proposal in the box."""
        try:
            if self._settling is not None and self._box_tx is not None:
                settling = self._settling
                decided = settled(self._box_state, settling.id, "approved", by=settling.decided_by)
                if decided is not None:
                    self._box_tx.write(DocumentBox.render(self._box_state))
        finally:
            self._close_box()
        if self._intent is not None:
            # Not synced: an intent that outlives its approval is found done and removed.
            self._intent.unlink(missing_ok=True)

    def abandon(self) -> None:
        """End on an error: a settled write that reached the disk is decided all the same;
        otherwise the proposal stays pending and the intent goes."""
        if self._settling is not None and self.renamed_in is not None:
            self.finish()
            return
        self._close_box()
        if self._intent is not None:
            self._intent.unlink(missing_ok=True)

    def _close_box(self) -> None:
        box, self._box, self._box_tx = self._box, None, None
        if box is not None:
            box.close()


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
        remake: bool = True,
    ) -> None:
        self.directory = Path(directory)
        # Whether a directory removed while this backend used it is made again. A project's notes
        # are not: their directory leaves only when it is archived or moved, and a session that
        # wrote on would start the project's notes afresh at the old place.
        self.remake = remake
        self._seen = False  # a file was found in the directory (so it existed while in use)
        self.lock_timeout = lock_timeout
        self.home = Path(home) if home is not None else self.directory.parent
        self.allow_outside_home = allow_outside_home
        self._newest: dict[str, tuple[journal.Stamp, journal.Last]] = {}
        self._made_private = False  # this home's notes, journal, backups and locks checked once
        self._root: tuple[Path, str] | None = None  # the home, and where it resolves to
        self._journal = self.directory / journal.JOURNAL_NAME
        # By target file (and by resolved name): a path is costly to build on every write.
        self._paths: dict[str, Path] = {}
        self._lock_paths: dict[str, Path] = {}
        self._real_paths: dict[str, Path] = {}
        # By target file: the directory's (device, inode) and the rules when the file was
        # resolved, and the file it resolved to (see _checked).
        self._resolved: dict[str, tuple[tuple[int, int, Path, bool], Path]] = {}
        self._intents: dict[str, str] = {}
        # Targets whose crashed writers' temp files this backend has removed (see transaction).
        self._swept: set[str] = set()
        # Where a target's temp files can be, and how their names start (see leftovers).
        self._temp_places: dict[tuple[str, Path], tuple[tuple[str, str], ...]] = {}

    def _resolved_home(self) -> str:
        # Resolved once per home: a memory file's own links are followed on every call.
        if self._root is None or self._root[0] != self.home:
            self._root = (self.home, os.path.realpath(self.home))
        return self._root[1]

    def _checked(self, target_file: str) -> tuple[Path, Path]:
        """The file's path and the file it resolves to, which must be inside the home.

        A file that is not a symlink resolves to its name in the resolved directory: that is
        kept per target, and used again while the file is still no link (one ``lstat``) and the
        directory is still the same one (one ``stat``): a full resolution walks every component
        of the path, and this runs on every write."""
        path = self.path(target_file)
        try:
            link = stat.S_ISLNK(os.lstat(path).st_mode)
            found = os.stat(self.directory)
        except OSError:  # missing, or not a directory: resolved (and reported) the long way
            return self._resolve(path)
        self._seen = True
        if link:
            return self._resolve(path)
        key = (found.st_dev, found.st_ino, self.home, self.allow_outside_home)
        cached = self._resolved.get(target_file)
        if cached is not None and cached[0] == key:
            return path, cached[1]
        checked = self._resolve(path)
        self._resolved[target_file] = (key, checked[1])
        return checked

    def _resolve(self, path: Path) -> tuple[Path, Path]:
        real = os.path.realpath(path)
        if self.allow_outside_home or real == (root := self._resolved_home()) or real.startswith(
            root.rstrip(os.sep) + os.sep
        ):
            resolved = self._real_paths.get(real)
            if resolved is None:
                resolved = self._real_paths[real] = Path(real)
            return path, resolved
        raise StoreError(
            f"{path} resolves to {real}, outside the silcrow home {self.home}; silcrow does not read "
            "or write memory files elsewhere (a link could put any file into the prompt). Move the "
            f"file into {self.home}, or set {OUTSIDE_HOME_ENV}=1 to allow it"
        )

    @property
    def journal_path(self) -> Path:
        return self._journal

    def remember(self, target: str, last: journal.Last, stamp: journal.Stamp) -> None:
        """Keep the record this process just appended, to skip reading it back next time."""
        self._newest[target] = (stamp, last)

    def target_of(self, target_file: str) -> str | None:
        """The journal's name of the notes file ``target_file`` (None for other files)."""
        return NOTE_TARGETS.get(target_file)

    def recall(self, target: str, known: tuple[list[int], list[str]] | None = None) -> journal.Last | None:
        """The newest journal record of ``target``: the one remembered when nobody appended
        since (the journal ends where it ended then), else the remembered one brought up to
        date with what was appended since, else read from the journal. ``known``: the
        identity of the target's file as read under its lock and the entries parsed from it
        (see :func:`journal.follow`)."""
        remembered = self._newest.get(target)
        if remembered is not None:
            if remembered[0] == journal.stamp(self.journal_path):
                return remembered[1]
            # Others appended since (writers in other processes): read only what they added.
            followed = journal.follow(self.journal_path, target, remembered[1], remembered[0], known)
            if followed is not None:
                self._newest[target] = (followed[1], followed[0])
                return followed[0]
            self._newest.pop(target, None)
        # Where the journal ended before reading: only records of other targets can be
        # appended meanwhile (the caller holds this target's lock), so following from there
        # next time finds every later record of this target.
        ended = journal.stamp(self.journal_path, head=True)
        found = journal.last(self.journal_path, target)
        if found is not None and ended is not None:
            self._newest[target] = (ended, found)
        return found

    def path(self, target_file: str) -> Path:
        found = self._paths.get(target_file)
        if found is None:
            found = self._paths[target_file] = self.directory / target_file
        return found

    def location(self, target_file: str) -> str:
        return str(self.path(target_file))

    def read(self, target_file: str, *, strict: bool = False) -> str:
        return read_text(self._checked(target_file)[0], "surrogateescape" if strict else "replace")

    def _make_private(self) -> None:
        """Create the memory directory, and make it and what it holds private (see _private);
        once per backend, and again if the directory disappears."""
        try:
            # A profile's home sits in <base>/profiles/, which is as private as the homes in it.
            top = self.home.parent if self.home.parent.name == "profiles" else self.home
            _private.private_dir(self.directory, home=top)
            for child in self.directory.iterdir():
                _private.tighten(child)
        except OSError as exc:
            raise StoreError(
                f"cannot use the memory directory {self.directory}: {exc.strerror or exc}. "
                "Check that the path (and --home / SILCROW_HOME) points to a writable directory"
            ) from exc
        self._made_private = True

    def reread(self) -> None:
        if not self.remake and not self.directory.is_dir():  # moved away: a new session starts afresh
            self._seen = self._made_private = False

    def _gone(self) -> StoreError:
        return StoreError(
            f"{self.directory} was moved or archived while these notes were open (`silcrow memory "
            "projects`); nothing was written: start a new session to use the notes where they are now")

    def _lock(self, lock: locking.ExclusiveLock) -> None:
        if not self._made_private:
            if not self.remake and self._seen and not self.directory.is_dir():
                raise self._gone()  # read while it was there, gone before the first write
            self._make_private()
        try:
            lock.acquire()
        except FileNotFoundError:  # the directory was removed since: make it again
            if not self.remake:
                raise self._gone() from None
            self._make_private()
            lock.acquire()

    @contextlib.contextmanager
    def transaction(self, target_file: str) -> Iterator[Transaction]:
        path, real = self._checked(target_file)
        lock_path = self._lock_paths.get(target_file)
        if lock_path is None:
            lock_path = self._lock_paths[target_file] = path.with_name(path.name + ".lock")
        lock = locking.ExclusiveLock(lock_path, self.lock_timeout)
        # Listed before the lock, so the listing is not part of the time the lock is held (see
        # _remove_leftovers); once per target and backend (a process's store), not on every
        # write: a writer that dies leaves one temp file, removed by the next store opened on
        # the home (or by `silcrow memory doctor`), and never read as the notes.
        seen = self.leftovers(target_file, real) if target_file not in self._swept else []
        try:
            self._lock(lock)
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
        try:
            transaction = FileTransaction(self, path, real, target_file)
            self._remove_leftovers(seen)
            self._swept.add(target_file)
            if target_file != PENDING_FILE and os.path.lexists(self._intent_name(target_file)):
                self._recover(transaction, target_file)
            try:
                yield transaction
            except BaseException:
                transaction.abandon()
                raise
            transaction.finish()
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

    def intent_path(self, target_file: str) -> Path:
        return self.directory / (target_file + INTENT_SUFFIX)

    def _intent_name(self, target_file: str) -> str:
        # Looked for on every write: its name is built once.
        found = self._intents.get(target_file)
        if found is None:
            found = self._intents[target_file] = str(self.intent_path(target_file))
        return found

    def _recover(self, transaction: FileTransaction, target_file: str) -> None:
        """Finish an approval of ``target_file`` that a crash interrupted (see FileTransaction):
        its proposal is decided if its write reached the disk, else it stays pending."""
        path = self.intent_path(target_file)
        try:
            intent = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            intent = None
        if isinstance(intent, dict) and isinstance(intent.get("proposal"), str):
            last = transaction.last_record(str(intent.get("target")))
            journaled = last is not None and (last.get("proposal") or {}).get("id") == intent["proposal"]
            if journaled or digest(transaction.read()) == intent.get("after"):
                with self.transaction(PENDING_FILE) as box_tx:
                    state = DocumentBox.parse(box_tx.read())
                    by = intent.get("by") if isinstance(intent.get("by"), dict) else None
                    if settled(state, intent["proposal"], "approved", by=by) is not None:
                        box_tx.write(DocumentBox.render(state))
        path.unlink(missing_ok=True)

    def recover(self) -> None:
        try:
            names = os.listdir(self.directory)
        except OSError:
            return
        for name in NOTE_FILES:
            if name + INTENT_SUFFIX in names:
                with self.transaction(name):
                    pass  # taking the target's lock recovers its interrupted approval

    def leftovers(self, target_file: str, real: Path | None = None) -> list[str]:
        """Temp files of writers of ``target_file`` that died before their rename (``real``: the
        file it resolves to, when known). The next transaction of the target removes them."""
        self._swept.discard(target_file)
        if real is None:
            real = Path(os.path.realpath(self.path(target_file)))
        places = self._temp_places.get((target_file, real))
        if places is None:
            places = self._temp_places[(target_file, real)] = tuple({
                (str(self.directory), temp_prefix(target_file)),
                (str(real.parent), temp_prefix(real.name)),
            })
        found: set[str] = set()
        for directory, prefix in places:
            try:
                names = os.listdir(directory)
            except (FileNotFoundError, NotADirectoryError):
                continue
            found.update(
                os.path.join(directory, n) for n in names if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)
            )
        return sorted(found)

    def _remove_leftovers(self, seen: list[str]) -> None:
        # Called with the target's lock held, on temp files listed before it was taken: each
        # was made by a writer holding the lock then, which has since released it, so it
        # either renamed its temp file (it is gone) or died (it is a leftover). One that died
        # after the listing is cleaned by the next write.
        for leftover in seen:
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

    def ledger(self) -> LedgerDocument:
        return FileLedger(self)

    def fold_ledger(self) -> None:
        """Fold the journal into the ledger before compaction drops its oldest records (called
        with a target's lock and the journal's lock held; the ledger has a lock of its own)."""
        records = list(journal.read(self.journal_path))
        self.ledger().change(lambda text: ledger.render(ledger.fold(ledger.parse(text), records)))


class FileLedger(LedgerDocument):
    """``.ledger.json`` beside the notes: 0600, changed under its own sidecar lock with the
    notes' atomic write, read without a lock."""

    def __init__(self, backend: FileBackend) -> None:
        self._backend = backend

    def read(self) -> str:
        return self._backend.read(ledger.LEDGER_FILE, strict=True)

    def change(self, change: Any) -> None:
        with self._backend.transaction(ledger.LEDGER_FILE) as tx:
            tx.write(change(tx.read()))


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
