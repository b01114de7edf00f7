"""Which project a server request works in: the ``X-Silcrow-Project`` header, checked.

A client names its project by a directory on the server's machine (its working directory, or
the project's root); the request then serves that project's notes (``PROJECT.md``) beside the
profile's, as the agent does in a project. What the header may reach is only those notes: the
directory is used to find the git work tree that holds it (a few ``stat`` calls), and the
notes are read and written in the home under the key of that tree's root
(:func:`silcrow._projects.project_key`), never in the directory or anywhere the path points.

A header that is not a path (not UTF-8, a control character, relative, too long) is malformed
(400); a path that is no directory inside a git work tree on this machine is refused (422),
with one message whether it does not exist, is a file or lies outside any work tree, so the
header tells a caller no more about the server's files than whether a directory is a project.
A token may be limited to some projects (``silcrow tokens create --project DIR``): naming
another, or none, is then 403.
"""

from __future__ import annotations

import os
from pathlib import Path

from silcrow._projects import find_project

__all__ = ["MAX_PATH", "PROJECT_HEADER", "ProjectRefused", "project_of", "requested_project"]

PROJECT_HEADER = "X-Silcrow-Project"
_HEADER_KEY = PROJECT_HEADER.lower().encode("ascii")
#: The longest path the header may hold (Linux's PATH_MAX).
MAX_PATH = 4096


class ProjectRefused(Exception):
    """The header's project is refused: ``status`` and the message that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def requested_project(headers: list[tuple[bytes, bytes]] | tuple[tuple[bytes, bytes], ...]) -> Path | None:
    """The project root the request's ``X-Silcrow-Project`` header names, or None without one
    (a blank header is none). Raises :class:`ProjectRefused` (see the module's doc)."""
    value = next((v for k, v in headers if k == _HEADER_KEY), None)
    if value is None or not value.strip():
        return None
    try:
        text = value.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ProjectRefused(400, f"the {PROJECT_HEADER} header is not UTF-8; send the project directory's "
                             "absolute path as UTF-8") from None
    return project_of(text, where=f"the {PROJECT_HEADER} header")


def project_of(text: str, *, where: str) -> Path:
    """The root of the git work tree holding the directory ``text`` (an absolute path on this
    machine); ``where``: what gave it, for the message. Raises :class:`ProjectRefused`."""
    if len(text) > MAX_PATH or any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise ProjectRefused(400, f"{where} is not a path (over {MAX_PATH} characters, or a control "
                             "character in it); send the project directory's absolute path")
    if not os.path.isabs(text):
        raise ProjectRefused(400, f"{where} holds {text[:200]!r}, a relative path; send the absolute "
                             "path of the project's directory on the server's machine")
    root = find_project(text) if os.path.isdir(text) else None
    if root is None:
        raise ProjectRefused(422, f"{where} names {text[:200]!r}, which is not a directory inside a git "
                             "work tree on the server's machine; send the absolute path of a project "
                             "directory there, or leave it out to work without project notes")
    return root
