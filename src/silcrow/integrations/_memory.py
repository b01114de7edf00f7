"""One profile's memory as the framework adapters offer it: the frozen notes for the system
prompt, fenced recall for a query, turns told to the recall provider, and the memory tools run
through the agent's own router (so every notes write takes the notes service's lock, threat
scan, budget, journal and approval gate, and every recall answer is screened and fenced).
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass
from typing import Any

from silcrow._toolcall import convert_schema
from silcrow.agent import ToolCall, ToolRouter, build_system_prompt
from silcrow.integrations._profile import ProfileArg, ProjectArg, Recall, opened
from silcrow.recall import MemoryManager
from silcrow.store import Proposer


@dataclass(frozen=True)
class ToolSpec:
    """One memory tool as a framework declares it: a name, a description, a JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any]


class ProfileMemory:
    """The notes, recall and memory tools of one profile for one framework (``client``: the
    name a held write shows in ``silcrow memory pending``).

    ``project``: a directory, as ``Agent(project=...)`` takes it: the git work tree holding it is
    the conversation's project, whose ``PROJECT.md`` is the third frozen block of the notes and
    the memory tool's target ``project``. None (the default): no project, whatever the process's
    directory is, and the notes and tools are what they are without project notes."""

    def __init__(self, profile: ProfileArg = None, *, client: str, home: Any = None,
                 session_id: str = "", manager: MemoryManager | None = None,
                 project: ProjectArg = None) -> None:
        self.profile = opened(profile, home)
        self.client = client
        self._project = project
        self.recall = Recall(self.profile, manager, session_id=session_id)
        self._session_id = session_id
        self._lock = threading.Lock()
        self._router: ToolRouter | None = None
        self._instructions: str | None = None
        self._calls = itertools.count(1)

    def manager(self) -> MemoryManager:
        return self.recall.manager()

    def router(self) -> ToolRouter:
        """The agent's tool router over the profile's notes, archive and provider (made once)."""
        with self._lock:
            if self._router is None:
                manager = self.recall.manager()
                notes = self.profile.notes(manager, project=self._project)
                notes.proposer = Proposer(client=self.client, session=self._session_id or None)
                notes.load()
                notes.note_session_start()  # the project's record: last used
                self._router = ToolRouter(notes, self.profile.sessions(), manager)
            return self._router

    def instructions(self) -> str:
        """The notes' system-prompt section with the guidance for using them, frozen at the first
        call: the model's writes are saved at once and reach this text in the next object made,
        so the prompt prefix stays byte-identical (and cached) for the conversation."""
        router = self.router()
        with self._lock:
            if self._instructions is None:
                self._instructions = build_system_prompt(router.notes, router.manager, identity="").strip()
            return self._instructions

    def notes(self) -> str:
        """The curated notes alone (``MEMORY.md``, ``USER.md`` and, in a project, its
        ``PROJECT.md``, as the system prompt shows them), frozen when the profile's notes were
        loaded: for a framework that offers the model no memory tool, whose guidance would name
        tools it does not have."""
        return self.router().notes.prompt_section().strip()

    def context(self, query: str, session_id: str = "") -> str:
        """The fenced ``<memory-context>`` block recalled for ``query`` (``""``: nothing, or a
        query too trivial to recall for), screened as the agent's recall is."""
        return self.manager().prefetch(query, session_id=session_id or self._session_id)

    def ingest(self, user: str, assistant: str, session_id: str = "") -> None:
        """Tell the recall provider one completed turn (queued; :meth:`close` waits for it)."""
        if user.strip() or assistant.strip():
            self.manager().sync_turn(user, assistant, session_id or self._session_id)

    def tools(self) -> list[ToolSpec]:
        """``memory`` (the notes), ``session_search`` (the archive) and the provider's tools."""
        specs = []
        for schema in self.router().schemas():
            fn = convert_schema(schema, "openai")["function"]
            specs.append(ToolSpec(fn["name"], fn.get("description", ""), fn["parameters"]))
        return specs

    def call(self, name: str, arguments: str | dict[str, Any], session_id: str = "") -> str:
        """Run one tool call as the agent does; the answer is the JSON text the model reads (a
        refusal is an answer, never an exception)."""
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        call = ToolCall(id=f"call_{next(self._calls)}", name=name, arguments=raw)
        return self.router().dispatch(call, session_id=session_id or self._session_id).content

    def close(self) -> None:
        """Let the recall provider finish its queued work, then shut it down."""
        self.recall.close()
        with self._lock:
            router, self._router = self._router, None
        if router is not None:
            router.sessions.close()
