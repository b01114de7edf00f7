"""Replace a file atomically and durably: the one write-and-rename helper.

A temporary file in the same directory is written, fsynced and renamed over
the target, then the directory is fsynced so the rename itself survives a
crash. Readers see the old bytes or the new ones, never a mix or an empty
file. (The curated notes' own write path in ``store/files.py`` does the same
steps inline because it keeps the temporary file's name for crash recovery.)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["fsync_directory", "replace_file"]


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


def replace_file(path: Path, data: str | bytes, *, mode: int | None = None) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; ``mode`` sets its permissions
    (default: mkstemp's 0600)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)
