"""The model's own files under ``/memories`` (every path but the curated notes).

They live in ``<profile>/memory-tool/`` (directories 0700, files 0600). Each write is scanned
for threats like a note, capped in size (each file and all of them), the files and directories
capped in number, and replaces the file atomically
(:func:`silcrow._atomic.replace_file`); a read never follows a link. The texts the memory
tool answers with follow the SDK's own local-filesystem tool
(``anthropic/lib/tools/_beta_builtin_memory_tool.py``), so a model reads what it expects.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from silcrow import safety
from silcrow._atomic import replace_file
from silcrow.integrations.anthropic._paths import Where
from silcrow.safety import display_safe

MAX_FILE_BYTES = 64 * 1024
MAX_TOTAL_BYTES = 1024 * 1024
#: Files and directories in all: each costs an inode and a line of every listing, whatever its size.
MAX_ITEMS = 1000
LINE_NUMBER_WIDTH = 6


class FileRefused(ValueError):
    """A file operation that was refused; the message is for the model."""


def numbered(lines: list[str], start: int = 1) -> str:
    return "\n".join(f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(lines))


def size_text(n: int) -> str:
    if n < 1024:
        return f"{n}B"
    k = n / 1024
    if k < 1024:
        return f"{k:.1f}K".replace(".0K", "K")
    return f"{k / 1024:.1f}M".replace(".0M", "M")


def checked_text(text: object, what: str) -> str:
    """``text`` when it may be written: a string, no NUL, within the size cap, no threat."""
    if not isinstance(text, str):
        raise FileRefused(f"{what} must be a string, got {type(text).__name__}")
    if "\x00" in text:
        raise FileRefused(f"{what} contains a NUL character; memory files hold text only")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise FileRefused(f"{what} would make the file {size:,} bytes; a memory file holds at most "
                          f"{MAX_FILE_BYTES:,}: keep it shorter or split it into several files")
    hits = safety.scan(text, learned=True)
    if hits:
        ids = ", ".join(dict.fromkeys(h.pattern_id for h in hits))
        raise FileRefused(f"Refused: the text matched threat pattern(s) {ids}; memory files are read back "
                          "into the conversation, so they may not hold instructions to override the "
                          "system, hidden characters or exfiltration. Write it as a plain note. "
                          "Nothing was changed.")
    return text


def read(where: Where) -> str:
    assert where.file is not None
    try:
        fd = os.open(where.file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError as exc:
        raise FileRefused(f"The path {where.shown} does not exist. Please provide a valid path.") from exc
    except OSError as exc:
        raise FileRefused(f"{where.shown} cannot be read: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise FileRefused(f"The path {where.shown} is not a file.")
        data = handle.read(MAX_FILE_BYTES + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"{where.shown} is not UTF-8 text; delete it and write it again") from exc


def _usage(root: Path) -> tuple[int, int]:
    """The bytes of all files under ``root`` and the number of files and directories."""
    total = items = 0
    for dirpath, dirs, files in os.walk(root):
        items += len(dirs) + len(files)
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except FileNotFoundError:
                continue
    return total, items


def _missing_dirs(root: Path, directory: Path) -> list[Path]:
    """The directories from ``directory`` up that do not exist yet, deepest first."""
    missing = []
    current = directory
    while not current.exists() and current != root.parent:
        missing.append(current)
        current = current.parent
    return missing


def _make_dirs(root: Path, directory: Path) -> None:
    for path in reversed(_missing_dirs(root, directory)):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue
        os.chmod(path, 0o700)


def write(root: Path, where: Where, text: str, *, old_size: int = 0) -> None:
    """Replace (or create) the file atomically, 0600, after the total-size check."""
    assert where.file is not None
    size = len(text.encode("utf-8", "surrogatepass"))
    if root.exists():
        total, items = _usage(root)
        if total - old_size + size > MAX_TOTAL_BYTES:
            raise FileRefused(f"the memory files would exceed {MAX_TOTAL_BYTES:,} bytes in all; delete or "
                              "shorten files you no longer need first")
        new_items = len([d for d in _missing_dirs(root, where.file.parent) if d != root])
        new_items += not os.path.lexists(where.file)
        if new_items and items + new_items > MAX_ITEMS:
            raise FileRefused(f"the memory files would be more than {MAX_ITEMS:,} files and directories in "
                              "all; delete files you no longer need, or gather small ones into one file")
    _make_dirs(root, where.file.parent)
    replace_file(where.file, text, mode=0o600)


def checked_range(view_range: object) -> tuple[int, int] | None:
    """``view_range`` as (first, last), numbered from 1 (last -1: to the end); None for none.
    Anything else is refused with what a valid range looks like."""
    if view_range is None or view_range == []:
        return None
    numbers = list(view_range) if isinstance(view_range, (list, tuple)) else []
    if len(numbers) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        first, last = int(numbers[0]), int(numbers[1])
        if last >= -1:  # a first line under 1 is line 1, as in the SDK's own tool
            return max(1, first), last
    shown = display_safe(repr(view_range)[:80])
    raise FileRefused(f"view_range {shown} is not valid: give two whole numbers [first, last], numbered "
                      "from 1 (last -1 for the end), e.g. [1, 20]")


def view_file(where: Where, view_range: object) -> str:
    picked = checked_range(view_range)
    # What the model reads back is shown as every surface shows text: nothing hidden.
    lines = display_safe(read(where)).split("\n")
    start = 1
    if picked is not None:
        start, last = picked
        lines = lines[start - 1:len(lines) if last == -1 else last]
    return f"Here's the content of {where.shown} with line numbers:\n{numbered(lines, start)}"


def listing(where: Where, top: list[tuple[str, str]]) -> str:
    """The directory's files and directories two levels deep (hidden ones left out), after
    ``top``: (size, name) lines for the curated notes when this is ``/memories``."""
    assert where.file is not None
    items: list[tuple[str, str]] = list(top)
    # A file of the model's own named like a note (PROJECT.md, written before the tool ran in a
    # project) is hidden behind the note, as every path to it is: listed once, as the note.
    notes = {name for _, name in top}

    def walk(directory: Path, prefix: str, depth: int) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            return
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            name = f"{prefix}{entry.name}"
            if name in notes:
                continue
            info = entry.stat(follow_symlinks=False)
            if entry.is_dir(follow_symlinks=False):
                items.append((size_text(info.st_size), f"{name}/"))
                if depth < 2:
                    walk(Path(entry.path), f"{name}/", depth + 1)
            elif entry.is_file(follow_symlinks=False):
                items.append((size_text(info.st_size), name))

    if where.file.exists() and not where.file.is_dir():
        raise FileRefused(f"{where.shown} is a file")
    walk(where.file, "", 1)
    lines = [f"{size}\t{where.shown}/{name}" for size, name in items]
    return (f"Here're the files and directories up to 2 levels deep in {where.shown}, excluding hidden "
            "items:\n" + "\n".join([f"-\t{where.shown}", *lines]))


def delete(root: Path, where: Where) -> None:
    assert where.file is not None
    try:
        info = os.lstat(where.file)
    except FileNotFoundError as exc:
        raise FileRefused(f"The path {where.shown} does not exist") from exc
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(where.file)
    else:
        os.unlink(where.file)
    _prune(root, where.file.parent)


def _prune(root: Path, directory: Path) -> None:
    """Remove ``directory`` and its parents below ``root`` while they are empty: a directory is
    made only to hold a file, and one left empty would count against the bounds and the listing."""
    while directory != root and root in directory.parents:
        try:
            directory.rmdir()
        except OSError:  # not empty (or already gone): the ones above are not empty either
            return
        directory = directory.parent


def rename(root: Path, old: Where, new: Where) -> None:
    assert old.file is not None and new.file is not None
    if not os.path.lexists(old.file):
        raise FileRefused(f"The path {old.shown} does not exist")
    if os.path.lexists(new.file):
        raise FileRefused(f"The destination {new.shown} already exists; delete it first or choose "
                          "another name")
    if new.shown.startswith(old.shown + "/"):
        raise FileRefused(f"{old.shown} cannot be moved inside itself")
    if len([d for d in _missing_dirs(root, new.file.parent) if d != root]) + _usage(root)[1] > MAX_ITEMS:
        raise FileRefused(f"the memory files would be more than {MAX_ITEMS:,} files and directories in all; "
                          "move it into a directory that exists, or delete files you no longer need")
    _make_dirs(root, new.file.parent)
    os.rename(old.file, new.file)
    _prune(root, old.file.parent)

