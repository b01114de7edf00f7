"""Everything silcrow keeps under a home is private to its owner: files 0600, directories 0700.

A home holds personal data (the notes, their copies in recall.db and sessions.db, transcripts,
tokens), so no other local user may read any of it. Every file and directory is created through
these helpers with the private mode (a umask can only take bits away, never add them), and one
found looser (made by an older silcrow, or by hand) is tightened once, with a warning, which the
CLI prints as one line on stderr.

SQLite creates a database's ``-wal``, ``-shm`` and ``-journal`` files with the permissions of the
database file itself, so :func:`private_sqlite` creates that file (empty, which SQLite reads as a
new database) before SQLite opens it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

FILE_MODE = 0o600
DIR_MODE = 0o700
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def tighten(path: Path) -> None:
    """Take group and other permissions off ``path`` (a file or directory of ours), saying so."""
    try:
        info = os.stat(path)
    except OSError:
        return
    loose = stat.S_IMODE(info.st_mode) & 0o077
    if not loose or info.st_uid != os.geteuid():
        return  # already private, or not ours to change
    if stat.S_ISDIR(info.st_mode) and (
        info.st_mode & stat.S_ISVTX or Path(path).resolve() in (Path("/"), Path.home().resolve())
    ):
        return  # a shared directory (/tmp) or the user's home given as --home: never ours to lock
    try:
        os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077)
    except OSError as exc:
        log.warning("%s is readable by other users (mode %o) and could not be made private: %s",
                    path, stat.S_IMODE(info.st_mode), exc.strerror or exc)
        return
    log.warning("%s was readable by other users (mode %o); made it private (mode %o)",
                path, stat.S_IMODE(info.st_mode), stat.S_IMODE(info.st_mode) & ~0o077)


def private_dir(path: Path, *, home: Path | None = None) -> Path:
    """Make ``path`` (and any missing parent) as 0700 directories; tighten the existing ones from
    ``home`` down to ``path`` (only ``path`` itself without ``home``)."""
    path = Path(path)
    missing: list[Path] = []
    level = path
    while not level.is_dir():
        missing.append(level)
        if level.parent == level:
            break
        level = level.parent
    for level in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            os.mkdir(level, DIR_MODE)
    chain = [path]
    if home is not None:
        home = Path(home)
        chain += [p for p in path.parents if p == home or home in p.parents]
    for level in chain:
        if level not in missing:
            tighten(level)
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` empty with mode 0600, or tighten it if it exists."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except FileExistsError:
        tighten(path)
    else:
        os.close(fd)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` as the whole of a new or existing private file."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with open(fd, "wb") as handle:
        handle.write(data)
    tighten(path)


def private_sqlite(path: Path) -> Path:
    """Prepare a SQLite database file before SQLite opens it: its directory 0700, the file 0600
    (so the journal files SQLite makes next to it are 0600 too), looser companions tightened."""
    path = Path(path)
    private_dir(path.parent)
    private_file(path)
    for suffix in SQLITE_COMPANIONS:
        tighten(path.with_name(path.name + suffix))
    return path
