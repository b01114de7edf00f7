"""Replace a file atomically and durably: the one write-and-rename helper.

A temporary file in the same directory is written, fsynced and renamed over
the target, then the directory is fsynced so the rename itself survives a
crash. Readers see the old bytes or the new ones, never a mix or an empty
file. The temporary file is named ``.<name>.<random>.tmp``: a writer that
dies before its rename leaves one, and ``store/_files.py`` finds and removes
those by that shape.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = ["TEMP_SUFFIX", "fsync_directory", "replace_file", "temp_prefix"]


def fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable. Windows cannot open a directory for fsync;
    there the rename's durability is left to NTFS's metadata journal."""
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


TEMP_SUFFIX = ".tmp"


def temp_prefix(name: str) -> str:
    """How the temporary files of ``name`` start: hidden, and never ``name`` itself."""
    return f".{name}."


# What mkstemp opens with (a new file, never through a link, not inherited, binary on
# Windows), without its per-call overhead: this is on the curated notes' write path.
_TEMP_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


# By target: how its temporary files' names start (built once; it is on every write).
_PREFIXES: dict[Path, str] = {}


def _create_temp(path: Path) -> tuple[int, str]:
    """A new, empty temporary file (mode 0600) beside ``path``: its descriptor and name."""
    prefix = _PREFIXES.get(path)
    if prefix is None:
        prefix = os.path.join(os.path.dirname(path), temp_prefix(os.path.basename(path)))
        if len(_PREFIXES) < 1024:
            _PREFIXES[path] = prefix
    while True:
        name = f"{prefix}{secrets.token_hex(4)}{TEMP_SUFFIX}"
        try:
            return os.open(name, _TEMP_FLAGS, 0o600), name
        except FileExistsError:  # a random name taken: draw another
            continue


def replace_file(
    path: Path, data: str | bytes, *, mode: int | None = None, sync_directory: bool = True
) -> os.stat_result:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; ``mode`` sets its permissions
    (default: 0600). ``sync_directory=False`` leaves the directory's fsync to the
    caller (who then owes it before reporting the write done, e.g. after releasing a lock).
    Returns the status of the file put in place (its inode, size and times tell later
    whether the file is still that one, unchanged)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _create_temp(path)
    try:
        try:
            # Most often the file was created with that mode already: a chmod would only add a
            # metadata change to the filesystem's journal.
            if mode is not None and os.fstat(fd).st_mode & 0o7777 != mode:
                os.fchmod(fd, mode)
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        # After the rename, which changes the file's ctime; nobody else renames over it meanwhile
        # when the caller holds its lock.
        written = os.stat(path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if sync_directory:
        fsync_directory(path.parent)
    return written
