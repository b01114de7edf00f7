"""Claude's memory tool on a silcrow profile: :class:`MemoryTool`.

``/memories/MEMORY.md`` and ``/memories/USER.md`` are the profile's curated notes (and, for a
tool made with ``project=``, ``/memories/PROJECT.md`` the notes of that project), read and
changed only through :class:`~silcrow.notes.Notes`, as every surface does: its lock, re-read,
atomic write, journal, threat scan, character limit and write-approval gate, and its rule that
a committed write (never a held one) is told to the recall provider. Every entry the tool shows
is the notes' one safe rendering (:meth:`~silcrow.store.NotesView.safe_entries`): a threat as
its ``[BLOCKED: ...]`` placeholder, invisible characters as ``<U+XXXX>``, as the system prompt,
the CLI and the servers show it. How the tool's commands map onto entries:

* ``view``: the entries, numbered (a ``view_range`` picks entries by number);
* ``create``: adds each entry of ``file_text`` (entries separated by a line holding only ``§``),
  all or nothing; the notes are never overwritten, and an entry already there is not doubled;
* ``str_replace``: ``old_str`` must occur in exactly one entry, once; that entry becomes the
  entry with ``new_str`` in its place (an entry left empty is removed);
* ``insert``: adds ``insert_text`` as one new entry; notes keep no order, so ``insert_line``
  is only checked to lie within ``0..number of entries``;
* ``delete`` and ``rename`` of the notes are refused (remove an entry with ``str_replace``
  and an empty ``new_str``).

Every other path is a file of the model's own (:mod:`._files`, confined by :mod:`._paths`).
A refusal raises the SDK's ``ToolError``: the tool runner sends its text back as an error
result the model can act on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from silcrow.integrations._extras import require

require("anthropic", "anthropic")

from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError  # noqa: E402

# The notes' lock helper (bounded wait, no polling), reused for the model's own files.
from silcrow._locking import ExclusiveLock, LockWaitTimeout  # noqa: E402
from silcrow.integrations._profile import ProfileArg, ProjectArg, Recall, opened  # noqa: E402
from silcrow.integrations.anthropic import _files as files  # noqa: E402
from silcrow.integrations.anthropic._paths import (  # noqa: E402
    FILES_DIR,
    NOTES,
    PROJECT_NOTES,
    ROOT,
    PathRefused,
    Where,
    resolve,
)
from silcrow.recall import MemoryManager  # noqa: E402
from silcrow.safety import display_safe  # noqa: E402
from silcrow.store import ENTRY_DELIMITER, MemoryResult, Proposer  # noqa: E402

__all__ = ["MemoryTool"]

CLIENT = "anthropic-memory-tool"
LOCK_FILE = "memory-tool.lock"  # beside the files' directory, so never listed or addressed
LOCK_TIMEOUT = 10.0


class _OnFirstWrite:
    """The recall side of :class:`Notes` for the tool: the profile's manager, opened only when
    a committed write is first told to it (the local provider loads an embedding model)."""

    def __init__(self, recall: Recall) -> None:
        self._recall = recall

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        self._recall.manager().on_memory_write(action, target, content)


def _field(command: Any, name: str) -> Any:
    value = getattr(command, name, None)
    if value is None:
        raise ToolError(f"the {command.command!r} command needs {name!r}")
    return value


class MemoryTool(BetaAbstractMemoryTool):
    """Claude's memory tool (``memory_20250818``) on the curated notes and files of a profile.

    ``profile``: a profile name of ``home`` (None: the home's own) or an opened
    :class:`~silcrow.home.Profile`; ``home`` defaults to ``$SILCROW_HOME`` or ``~/.silcrow``.
    ``manager``: the :class:`~silcrow.recall.MemoryManager` to tell about committed writes
    (default: the profile's configured provider, opened on the first write; :meth:`close`
    shuts it down).

    ``project``: a directory, as ``Agent(project=...)`` takes it; the tool then runs in the git
    work tree holding it, whose notes are ``/memories/PROJECT.md`` (listed beside the other two,
    and the third block of :meth:`system_prompt_section`). None (the default): no project, and
    ``PROJECT.md`` is a file of the model's own like any other name.

    The notes' prompt section is captured when the tool is made (:meth:`system_prompt_section`)
    and does not change with the model's writes until :meth:`reload`: a write is durable at
    once, but the system prompt (and its prompt cache) stays the same for the conversation.
    """

    def __init__(self, profile: ProfileArg = None, home: str | os.PathLike[str] | None = None, *,
                 manager: MemoryManager | None = None, cache_control: Any = None,
                 project: ProjectArg = None) -> None:
        super().__init__(cache_control=cache_control)
        self.profile = opened(profile, home)
        self._recall = Recall(self.profile, manager)
        self.notes = self.profile.notes(_OnFirstWrite(self._recall), project=project)
        self.notes.load()
        # The notes' names under /memories: PROJECT.md only in a project, so a tool made without
        # one sees exactly the paths it always did.
        self.note_files = PROJECT_NOTES if self.notes.project is not None else NOTES
        self.root: Path = self.profile.path / FILES_DIR

    # -- what the caller uses ------------------------------------------------------------

    def system_prompt_section(self) -> str:
        """The notes as they go into a system prompt, frozen when the tool was made (or at the
        last :meth:`reload`); '' when both are empty."""
        return self.notes.prompt_section()

    def reload(self) -> None:
        """Capture the notes again, for a new conversation."""
        self.notes.load()

    def close(self) -> None:
        """Let the recall provider finish the writes it was told about, then shut it down."""
        self._recall.close()

    def __enter__(self) -> MemoryTool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the commands ----------------------------------------------------------------------

    def _where(self, path: object) -> Where:
        try:
            return resolve(path, self.root, self.note_files)
        except PathRefused as exc:
            raise ToolError(str(exc)) from exc

    def _guarded(self, run: Callable[[], str], *, write: bool = True) -> str:
        """Run a command on the model's files: its refusals as ToolError; a write holds the files'
        lock, so two processes editing one file never lose an edit (read, change, replace)."""
        try:
            if not write:
                return run()
            with ExclusiveLock(self.profile.path / LOCK_FILE, LOCK_TIMEOUT):
                return run()
        except LockWaitTimeout as exc:
            raise ToolError(f"another process kept the memory files busy for {LOCK_TIMEOUT:g}s; nothing was "
                            "changed: try again") from exc
        except files.FileRefused as exc:
            raise ToolError(str(exc)) from exc
        except OSError as exc:
            raise ToolError(f"the memory file operation failed: {exc.strerror or exc}; nothing else "
                            "was changed") from exc

    def view(self, command: Any) -> str:
        where = self._where(_field(command, "path"))
        if where.target is not None:
            return self._view_notes(where, getattr(command, "view_range", None))
        if where.is_root:
            top = [(f"{self.notes.read(t).used}ch", name) for name, t in self.note_files.items()]
            return self._guarded(lambda: files.listing(where, top), write=False)
        assert where.file is not None
        if where.file.is_dir():
            return self._guarded(lambda: files.listing(where, []), write=False)
        view_range = getattr(command, "view_range", None)
        return self._guarded(lambda: files.view_file(where, view_range), write=False)

    def create(self, command: Any) -> str:
        where = self._where(_field(command, "path"))
        text = _field(command, "file_text")
        if where.target is not None:
            if not isinstance(text, str):
                raise ToolError("file_text must be a string")
            entries = [e.strip() for e in text.replace("\r\n", "\n").split(ENTRY_DELIMITER) if e.strip()]
            if not entries:
                raise ToolError(f"file_text is empty: give one or more entries for {where.shown}, "
                                "separated by a line holding only §")
            operations = [{"action": "add", "content": e} for e in entries]
            return self._answer(where, self._write(where.target, operations))
        if where.is_root:
            raise ToolError(f"{ROOT} is the memory directory; create a file inside it")

        def run() -> str:
            assert where.file is not None
            if os.path.lexists(where.file):
                raise files.FileRefused(f"File {where.shown} already exists; change it with str_replace "
                                        "or insert, or delete it first")
            files.write(self.root, where, files.checked_text(text, "file_text"))
            return f"File created successfully at: {where.shown}"

        return self._guarded(run)

    def str_replace(self, command: Any) -> str:
        where = self._where(_field(command, "path"))
        old, new = _field(command, "old_str"), _field(command, "new_str")
        if not isinstance(old, str) or not isinstance(new, str) or not old:
            raise ToolError("old_str must be a non-empty string and new_str a string")
        if where.target is not None:
            return self._replace_in_notes(where, old, new)
        if where.is_root:
            raise ToolError(f"{ROOT} is a directory; give a file path")

        def run() -> str:
            content = files.read(where)
            count = content.count(old)
            if count == 0:
                raise files.FileRefused(f"No replacement was performed, old_str `{old}` did not appear "
                                        f"verbatim in {where.shown}.")
            if count > 1:
                lines = sorted({content[:i].count("\n") + 1 for i in _positions(content, old)})
                raise files.FileRefused(f"No replacement was performed. Multiple occurrences of old_str "
                                        f"`{old}` in lines: {', '.join(map(str, lines))}. Please ensure "
                                        "it is unique")
            updated = files.checked_text(content.replace(old, new), "the edited file")
            files.write(self.root, where, updated, old_size=len(content.encode("utf-8")))
            line = content[:content.find(old)].count("\n")
            shown = updated.split("\n")
            first = max(0, line - 2)
            return ("The memory file has been edited. Here is the snippet showing the change (with line "
                    f"numbers):\n{files.numbered(shown[first:line + 3], first + 1)}")

        return self._guarded(run)

    def insert(self, command: Any) -> str:
        where = self._where(_field(command, "path"))
        line, text = _field(command, "insert_line"), _field(command, "insert_text")
        if not isinstance(line, int) or isinstance(line, bool) or not isinstance(text, str):
            raise ToolError("insert_line must be a whole number and insert_text a string")
        if where.target is not None:
            count = len(self.notes.read(where.target).entries)
            if not 0 <= line <= count:
                raise ToolError(f"Invalid `insert_line` parameter: {line}. It should be within the range "
                                f"[0, {count}] (the number of entries of {where.shown}).")
            operations = [{"action": "add", "content": text.strip()}]
            return self._answer(where, self._write(where.target, operations))
        if where.is_root:
            raise ToolError(f"{ROOT} is a directory; give a file path")

        def run() -> str:
            content = files.read(where)
            lines = content.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if not 0 <= line <= len(lines):
                raise files.FileRefused(f"Invalid `insert_line` parameter: {line}. It should be within the "
                                        f"range [0, {len(lines)}].")
            lines.insert(line, text.rstrip("\n"))
            updated = files.checked_text("\n".join(lines) + "\n", "the edited file")
            files.write(self.root, where, updated, old_size=len(content.encode("utf-8")))
            return f"The file {where.shown} has been edited."

        return self._guarded(run)

    def delete(self, command: Any) -> str:
        where = self._where(_field(command, "path"))
        if where.target is not None:
            raise ToolError(f"{where.shown} holds the curated notes and cannot be deleted; remove one "
                            "entry with str_replace (old_str: a part of it, new_str: '')")
        if where.is_root:
            raise ToolError(f"Cannot delete the {ROOT} directory itself")

        def run() -> str:
            files.delete(self.root, where)
            return f"Successfully deleted {where.shown}"

        return self._guarded(run)

    def rename(self, command: Any) -> str:
        old = self._where(_field(command, "old_path"))
        new = self._where(_field(command, "new_path"))
        for where in (old, new):
            if where.target is not None:
                raise ToolError(f"{where.shown} holds the curated notes and cannot be renamed; to move "
                                "text into the notes, create or insert entries there")
            if where.is_root:
                raise ToolError(f"Cannot rename the {ROOT} directory itself")

        def run() -> str:
            files.rename(self.root, old, new)
            return f"Successfully renamed {old.shown} to {new.shown}"

        return self._guarded(run)

    # -- the notes ------------------------------------------------------------------------

    def _view_notes(self, where: Where, view_range: Any) -> str:
        assert where.target is not None
        view = self.notes.read(where.target, shown_to="tool")
        shown = view.safe_entries()
        total, start = len(shown), 1
        try:
            picked = files.checked_range(view_range)
        except files.FileRefused as exc:
            raise ToolError(str(exc)) from exc
        if picked is not None:
            start, last = picked
            shown = shown[start - 1:total if last == -1 else last]
        lines = []
        for n, entry in enumerate(shown, start):
            first_line, *rest = entry.split("\n")
            lines.append(f"{str(n).rjust(files.LINE_NUMBER_WIDTH)}\t{first_line}")
            lines.extend(f"{'':>{files.LINE_NUMBER_WIDTH}}\t{more}" for more in rest)
        head = (f"Here's the content of {where.shown}: the curated notes, {total} entries "
                f"({view.usage}), one entry per number:")
        return "\n".join([head, *lines]) if lines else f"{head}\n(no entries yet)"

    def _replace_in_notes(self, where: Where, old: str, new: str) -> str:
        assert where.target is not None
        view = self.notes.read(where.target)
        # Matched on the entries as stored; listed only as every surface shows them.
        safe = dict(zip(view.entries, view.safe_entries(), strict=True))
        matching = list(dict.fromkeys(e for e in view.entries if old in e))
        asked = display_safe(old)
        if not matching:
            raise ToolError(f"No replacement was performed: old_str `{asked}` does not appear in any entry "
                            f"of {where.shown} (str_replace changes one entry at a time). Entries:\n"
                            f"{_listed(safe[e] for e in view.entries)}")
        if len(matching) > 1:
            raise ToolError(f"No replacement was performed: old_str `{asked}` appears in {len(matching)} "
                            "entries; give a longer part of the one to change:\n"
                            f"{_listed(safe[e] for e in matching)}")
        entry = matching[0]
        if entry.count(old) > 1:
            raise ToolError(f"No replacement was performed: old_str `{asked}` occurs {entry.count(old)} "
                            "times in that entry; give a longer part so that it is unique")
        updated = entry.replace(old, new).strip()
        if updated:
            operation = {"action": "replace", "old_text": old, "content": updated}
        else:
            operation = {"action": "remove", "old_text": old}
        return self._answer(where, self._write(where.target, [operation]))

    def _write(self, target: str, operations: list[dict[str, str]]) -> MemoryResult:
        """One call of the notes: a single step as itself (its result words say what happened),
        several as one all-or-nothing batch. Notes tells recall about a committed write."""
        caller = Proposer(client=CLIENT)
        if len(operations) > 1:
            return self.notes.batch(target, operations, origin="tool", caller=caller)
        op = operations[0]
        if op["action"] == "add":
            return self.notes.add(target, op["content"], origin="tool", caller=caller)
        if op["action"] == "replace":
            return self.notes.replace(target, op["old_text"], op["content"], origin="tool", caller=caller)
        return self.notes.remove(target, op["old_text"], origin="tool", caller=caller)

    def _answer(self, where: Where, result: MemoryResult) -> str:
        """The tool's text for a result of the notes; a refusal raises ToolError with their words
        (the entries a refusal lists are already in their safe rendering)."""
        if not result.get("success"):
            details = [str(result.get("error", "the write was refused"))]
            for key in ("matches", "current_entries"):
                listed: Any = result.get(key)
                if listed:
                    details.append(f"{key.replace('_', ' ')}:\n{_listed(str(e) for e in listed)}")
            raise ToolError("\n".join(details))
        if result.get("pending"):
            return (f"Held for the user's approval (proposal {result.get('proposal_id', '?')}): "
                    f"{result.get('message', '')} It is not in {where.shown} yet; do not write it again.")
        return f"{result.get('message', 'Saved.')} {where.shown}: {result.get('usage', '')}".strip()


def _listed(entries: Iterable[str]) -> str:
    """Entries (already in their safe rendering) as a list, whole: a placeholder is never cut."""
    return "\n".join("- " + entry.replace("\n", "\n  ") for entry in entries) or "(no entries)"


def _positions(text: str, needle: str) -> list[int]:
    found, start = [], 0
    while (at := text.find(needle, start)) != -1:
        found.append(at)
        start = at + 1
    return found
