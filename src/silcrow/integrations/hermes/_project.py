"""Project notes for Hermes: the ``PROJECT.md`` of the git work tree Hermes works in.

Hermes keeps ``MEMORY.md`` and ``USER.md`` itself, and it gives a memory provider no working
directory: ``initialize`` gets the Hermes home, the platform, the session and the user, never a
directory. Hermes has one notion of where its agent works, ``agent.runtime_cwd.resolve_agent_cwd``
(a gateway session's pinned directory, else ``TERMINAL_CWD``, the configured ``terminal.cwd``,
else the directory Hermes started in), which its system prompt and file tools use; the project is
the git work tree holding that directory. A Hermes without that function gives the process's
directory. Outside any work tree there is no project, and the plugin is what it was without
project notes.

In a project the plugin adds the project's frozen block to its system-prompt block and one tool,
``project_notes`` (Hermes reserves the name ``memory`` for its own tool): the memory tool's
actions on the target ``project``, through :class:`~silcrow.notes.Notes` like every surface.
The notes are kept in the plugin's silcrow home, so ``silcrow --home <that home> memory show``
run in the project shows them.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from silcrow.errors import SilcrowError
from silcrow.home import Profile
from silcrow.notes import Notes, WriteListener
from silcrow.store import PROJECT_TARGET, Proposer
from silcrow.tool import PARAMETERS, handle_memory_call

log = logging.getLogger(__name__)

TOOL_NAME = "project_notes"
CLIENT = "hermes"

DESCRIPTION = (
    "Notes on the project (the git work tree) you are working in, kept across sessions and shown "
    "only to sessions in this project, under PROJECT in your system prompt: how to build and test "
    "it, its layout, conventions and decisions. Facts about the user, or true in every project, go "
    "to the memory tool instead.\n"
    "Actions: add (content); replace (old_text: a short unique substring of the entry, content: "
    "the full new text); remove (old_text); or operations: a list of {action, content?, old_text?} "
    "applied all-or-nothing. The notes have a character limit: when an add is refused for size, "
    "merge or shorten entries (one operations batch) and retry.")

#: The memory tool's parameters without ``target``: this tool has one, the project.
TOOL_PARAMETERS: dict[str, Any] = {
    **PARAMETERS,
    "properties": {k: v for k, v in PARAMETERS["properties"].items() if k != "target"},
    "required": [],
}


def hermes_cwd() -> Path | None:
    """Where Hermes's agent works: Hermes's own answer, else the process's directory (None when
    that is gone)."""
    try:
        from agent.runtime_cwd import resolve_agent_cwd
    except ImportError:  # Hermes is not importable here, or predates the function
        resolve_agent_cwd = None
    try:
        return Path(resolve_agent_cwd()) if resolve_agent_cwd is not None else Path(os.getcwd())
    except OSError:
        return None


class ProjectNotes:
    """The notes of the project Hermes works in, as the plugin offers them."""

    def __init__(self, notes: Notes) -> None:
        self.notes = notes

    @property
    def root(self) -> Path | None:
        return self.notes.project

    def load(self, session_id: str) -> None:
        """Freeze the block for a session's prompt; its writes are recorded as that session's."""
        self.notes.proposer = Proposer(client=CLIENT, session=session_id or None)
        self.notes.load()
        self.notes.note_session_start()

    def prompt_block(self) -> str:
        """The project's frozen block (or a line saying it has no notes yet) and the tool's name."""
        block = self.notes.snapshot_block(PROJECT_TARGET)
        head = block or f"PROJECT: no notes yet on the project at {self.root}."
        return f"{head}\n(Keep notes on this project with the {TOOL_NAME} tool.)"

    @staticmethod
    def schema() -> dict[str, Any]:
        """The tool in the bare ``{name, description, parameters}`` format Hermes documents."""
        return {"name": TOOL_NAME, "description": DESCRIPTION, "parameters": TOOL_PARAMETERS}

    def call(self, args: Any) -> str:
        """One call of the tool, as the memory tool's on the target ``project``; never raises."""
        try:
            given = json.loads(args) if isinstance(args, str) else args
        except ValueError:
            given = args  # the memory tool's parser answers what was wrong with it
        # This tool's one target, whatever else a call names: the user's notes stay Hermes's.
        return handle_memory_call(self.notes, {**given, "target": PROJECT_TARGET}
                                  if isinstance(given, dict) else given)


def open_project(profile: Profile, recall: WriteListener, where: Path | None) -> ProjectNotes | None:
    """The notes of the project holding ``where`` (None outside any work tree, or when they cannot
    be opened: then logged, and Hermes runs without them); committed writes reach ``recall``."""
    if where is None:
        return None
    try:
        notes = profile.notes(recall, project=where)
    except SilcrowError:
        log.warning("silcrow: the notes of the project at %s could not be opened", where, exc_info=True)
        return None
    return ProjectNotes(notes) if notes.project is not None else None
