"""Which project a directory belongs to: the git work tree that holds it.

A project is found by walking up from a directory to the first one that holds ``.git`` (a
directory in a plain clone, a file in a ``git worktree`` or a submodule), after symlinks are
resolved. Its root's real path is the project's identity, and :func:`project_key` turns it into
the name its notes are kept under in the home: a readable slug of the root's name and a short
hash of the whole real path, so two checkouts named alike never share notes. No git command is
run: the answer is the same with or without git installed, and costs a few ``stat`` calls.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

__all__ = ["find_project", "project_key"]

# The part of a key a person reads: the root's name, in characters any file system and
# PostgreSQL text take, cut short.
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_SLUG_CHARS = 40
_HASH_CHARS = 12


def find_project(start: str | os.PathLike[str]) -> Path | None:
    """The root of the git work tree holding ``start`` (a directory, or a file in one), with
    symlinks resolved; None outside any work tree (or when ``start`` does not exist)."""
    try:
        here = Path(os.path.realpath(os.path.expanduser(os.fspath(start))))
    except (OSError, ValueError):
        return None
    if not here.is_dir():
        if not here.exists():
            return None
        here = here.parent
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return None


def project_key(root: str | os.PathLike[str]) -> str:
    """The stable name of the project at ``root`` (its real path): ``<slug>-<hash>``."""
    real = os.path.realpath(os.fspath(root))
    slug = _UNSAFE.sub("-", os.path.basename(real.rstrip(os.sep)) or "root").strip("-.")[:_SLUG_CHARS]
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:_HASH_CHARS]
    return f"{slug or 'project'}-{digest}"
