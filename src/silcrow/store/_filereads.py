"""Reading a notes file as it is on disk: its exact bytes with one open, how a file is told from
its replacement, and what to say when it cannot be read."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from silcrow.errors import StoreError


def read_bytes(path: Path, shown: Path) -> tuple[bytes, os.stat_result | None]:
    """The file's bytes and its status (``b""`` and None when it does not exist); ``shown`` is
    how errors name it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return b"", None
    except OSError as exc:
        raise StoreError(unusable_file_message(shown, exc)) from exc
    try:
        found = os.fstat(fd)
        # Plain reads (no file object: it would stat and seek again): the size, then to the end.
        chunks = [os.read(fd, found.st_size + 1)]
        # A local regular file's read stops short only at its end, so one read usually does;
        # read on when it stopped before the size (a network or FUSE file may return less),
        # when the file grew, or when it is no regular file, until a read returns nothing.
        if len(chunks[0]) != found.st_size or not stat.S_ISREG(found.st_mode):
            while chunks[-1]:
                chunks.append(os.read(fd, 1 << 16))
        return b"".join(chunks), found
    except OSError as exc:
        raise StoreError(unusable_file_message(shown, exc)) from exc
    finally:
        os.close(fd)


def read_text(path: Path, errors: str) -> str:
    # Decoded as a whole (no newline translation): what is written back is what was read.
    return read_bytes(path, path)[0].decode("utf-8", errors)


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


def identity(found: os.stat_result) -> list[int]:
    """A file's inode, size, modification and change times: another file, or this one changed
    in place, differs (the change time cannot be set back, as the modification time can)."""
    return [found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
