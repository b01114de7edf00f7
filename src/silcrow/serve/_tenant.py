"""One profile's memory as the servers use it: the same objects and calls as the agent.

A :class:`Tenant` is a home (or profile) with its notes, its recall manager and
provider, and its session store. Every call a server makes into the library goes
through one entry, :meth:`Tenant.offload`: on a worker thread, at most
``TENANT_THREADS`` of one profile's calls at once (REST, MCP and the inspector
alike), an ``OSError`` of the home's files raised as the StoreError that names it.
What a failure is answered with is decided in one place, :mod:`silcrow.serve._errors`.

A note write goes through the notes service (:class:`~silcrow.notes.Notes`) over a
fresh store per call (the store keeps per-turn state, and for a server each call is
its own turn). Recall never goes through tool JSON: the ``recall_*`` tools call the
typed recall API (:attr:`Tenant.recall`) through :func:`silcrow.recall.call_recall_tool`, a
provider's own tools the manager's typed :meth:`~MemoryManager.call_tool`; the answer
becomes the result dict once, at the edge (:func:`silcrow.recall.answer_dict`). Sessions
are searched on the session store directly, without opening the recall provider.

:func:`open_tenant` is the one place that builds those objects from a home's
settings; a storage backend chosen by configuration plugs in there.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from silcrow._toolcall import MEMORY_TOOL_NAME as MEMORY
from silcrow._toolcall import SEARCH_TOOL_NAME as SESSION_SEARCH
from silcrow.agent import build_system_prompt, configured_hold_judge, handle_session_search
from silcrow.config import Settings
from silcrow.errors import ProjectRequiredError, StoreError
from silcrow.home import Profile, open_profile
from silcrow.notes import Notes, WriteListener
from silcrow.recall import (
    TOOL_NAMES,
    MemoryManager,
    RecallAPI,
    ToolResult,
    answer_dict,
    call_recall_tool,
    policy,
)
from silcrow.serve._limits import TENANT_THREADS
from silcrow.serve._project import PROJECT_HEADER
from silcrow.sessions import SessionBackend
from silcrow.store import PROJECT_TARGET
from silcrow.tool import memory_call

log = logging.getLogger(__name__)

RECALL_TOOLS = TOOL_NAMES
SEARCH_RECALL = "recall_search"
# Calls a read-only token may make; every other tool can change something.
READ_ONLY_TOOLS = frozenset({SESSION_SEARCH, SEARCH_RECALL})
SERVER_SESSION = "silcrow-serve"
SERVER_CONCURRENT_CALLS = 64  # the session id the provider is initialised with

Result = dict[str, Any]
T = TypeVar("T")


def disk_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """An OSError of the files under a home (a directory where a file should be, a full disk...)
    becomes a StoreError that says what to check, so every edge reports it as ours."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except OSError as exc:
            where = f" {exc.filename}" if exc.filename else ""
            raise StoreError(f"cannot access{where}: {exc.strerror or exc}; check that file and its "
                             "permissions (`silcrow memory doctor` explains what it finds)") from exc

    return wrapper


def refusal(message: str) -> Result:
    return {"success": False, "error": message}


def is_read_only_call(name: str, arguments: dict[str, Any]) -> bool:
    if name == MEMORY:
        return arguments.get("action") == "read" and not arguments.get("operations")
    return name in READ_ONLY_TOOLS


class _Shared:
    """What every view of one profile shares: its recall manager and session store (opened on
    first use) and the bound on its calls in flight."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.manager: MemoryManager | None = None
        self.sessions: SessionBackend | None = None
        self.threads = anyio.CapacityLimiter(TENANT_THREADS)


class Tenant:
    """The memory of one home/profile, shared by every request that names it; ``project``: the
    project (a git work tree's root) whose notes this view serves besides the profile's, or None
    (see :meth:`at`)."""

    def __init__(self, home: Path, parts: Parts, project: Path | None = None,
                 shared: _Shared | None = None) -> None:
        self.home = home
        self.project = project
        self._parts = parts
        self._shared = shared if shared is not None else _Shared()

    def at(self, project: Path | None) -> Tenant:
        """This profile's memory as served in ``project`` (a root checked by the caller): the same
        manager, sessions and thread bound, the notes with that project's block."""
        if project == self.project:
            return self
        return Tenant(self.home, self._parts, project, self._shared)

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """The one entry of a server's call into this profile's memory: ``fn(*args)`` on a worker
        thread, never on the event loop, at most TENANT_THREADS of this tenant's calls at once (so a
        profile whose calls hang cannot take every thread); an OSError of the home's files is
        raised as a StoreError that says what to check. Raises what ``fn`` raises: the caller
        answers it by the table in :mod:`silcrow.serve._errors`."""
        async with self._shared.threads:
            return await anyio.to_thread.run_sync(disk_errors(fn), *args)

    # -- the library objects (built lazily: a memory-only client never loads a model) ----------

    def notes(self) -> Notes:
        """The notes service over a store of this call (a server call is its own turn), passing
        committed writes on to this profile's recall provider."""
        return self._parts.notes(self, self.project)

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        """A committed note write, told to the provider: its manager is opened here, on the first
        write, so reading the notes never loads a model."""
        self.manager.on_memory_write(action, target, content)

    @property
    def settings(self) -> Settings:
        """The profile's settings, as read when the tenant was opened."""
        return self._parts.settings

    @property
    def sessions(self) -> SessionBackend:
        shared = self._shared
        with shared.lock:
            if shared.sessions is None:
                shared.sessions = self._parts.sessions()
            return shared.sessions

    @property
    def manager(self) -> MemoryManager:
        shared = self._shared
        with shared.lock:
            if shared.manager is None:
                shared.manager = self._parts.manager()
            return shared.manager

    # -- calls ---------------------------------------------------------------------------------

    def call(self, name: str, arguments: dict[str, Any]) -> Result:
        """Run one tool call (an MCP client's) and return its result JSON as a dict; a refusal is a
        result, a failure raises (see :mod:`silcrow.serve._errors`)."""
        if name == MEMORY and arguments.get("action") == "read":
            return self.read(arguments.get("target"))  # type: ignore[arg-type]
        if name == MEMORY:  # an MCP client's memory tool call: journaled as "mcp"
            return memory_call(self.notes(), arguments, origin="mcp")
        if name == SESSION_SEARCH:  # the session store only: the recall provider is not opened
            result = json.loads(handle_session_search(self.sessions, arguments,
                                                      current_session_id=SERVER_SESSION))
            return result if isinstance(result, dict) else {"success": True, "result": result}
        if name in RECALL_TOOLS:
            return self._recall_tool(name, arguments)
        if name in self.provider_tool_names():
            return answer_dict(self.manager.call_tool(name, arguments))
        return refusal(f"unknown tool {name!r}; the tools are {MEMORY}, {SESSION_SEARCH} and the recall "
                       "provider's (list them with tools/list)")

    def search_sessions(self, query: str, limit: int) -> list[dict[str, Any]]:
        """The earlier sessions best matching ``query`` (one hit per lineage, at most ``limit``),
        typed, from the session store: the recall provider is not opened."""
        return self.sessions.search(query, limit=limit, current_session_id=SERVER_SESSION)

    @property
    def recall(self) -> RecallAPI:
        """The typed recall API of this profile (its manager: timeouts, screening, fallbacks)."""
        return self.manager

    def read(self, target: str) -> Result:
        """The ``memory`` tool's ``read``: live entries and usage of ``target``; ``project``
        without a project is refused (422, as a write is), saying how to name one."""
        notes = self.notes()
        if target not in notes.targets:
            if target == PROJECT_TARGET:
                return refusal(self.no_project(notes))
            return refusal(f"unknown memory target {target!r}: use {' or '.join(map(repr, notes.targets))}")
        # one read: entries and usage describe the same version
        return dict(notes.read(target, shown_to="tool").to_json())

    @staticmethod
    def no_project(notes: Notes) -> str:
        """Why ``notes`` (of a request that names no project) have no target ``project``: the
        notes' own refusal, which a read raises and a write answers with."""
        try:
            notes.read(PROJECT_TARGET)
        except ProjectRequiredError as exc:
            return str(exc)
        raise RuntimeError("no_project() asked of notes that have a project")

    def provider_tool_names(self) -> list[str]:
        return [spec.name for spec in self.manager.tool_specs()]

    def typed_recall_tools(self) -> list[str]:
        """The recall_* tools answered through the typed API (see
        :meth:`MemoryManager.typed_recall_tools`)."""
        return self.manager.typed_recall_tools()

    def _recall_tool(self, name: str, arguments: dict[str, Any]) -> Result:
        """A recall_* call: through the typed API, or the provider's own tool of that name when
        the provider has no typed API but declares one."""
        manager = self.manager
        if name in self.typed_recall_tools():
            answer = call_recall_tool(manager, name, arguments)
            # Typed results are screened already; an error may quote what the caller sent.
            return answer_dict(policy.screened(answer) if isinstance(answer, ToolResult) else answer)
        if manager.provider is not None and name in self.provider_tool_names():
            return answer_dict(manager.call_tool(name, arguments))
        return self.missing_recall_tool(name)

    def missing_recall_tool(self, name: str) -> Result:
        """The refusal of recall tool ``name`` on a profile that has none: why, and what to do."""
        provider = self.manager.provider
        if provider is None:
            return refusal(f"no recall provider is active in {self.home}, so {name!r} is unavailable; "
                           "set `provider` in its config.toml")
        return refusal(f"recall provider {provider.name!r} has no {name!r} tool; use its own "
                       f"tools ({', '.join(self.provider_tool_names()) or 'none'})")

    def prompt_section(self) -> str:
        """The curated section of the system prompt, exactly as an agent gets it now."""
        notes = self.notes()
        notes.load()
        return notes.prompt_section()

    def memory_context(self) -> str:
        """A whole memory system prompt for a client that has none of its own."""
        notes = self.notes()
        notes.load()
        return build_system_prompt(notes, self.manager, identity=CLIENT_IDENTITY)

    def targeted(self, target: str | None) -> Notes:
        """:meth:`notes` for a read of ``target`` (None: every target); ``project`` without a
        project raises :class:`~silcrow.errors.ProjectRequiredError` (422), saying how to name
        one."""
        notes = self.notes()
        if target == PROJECT_TARGET and notes.project is None:
            notes.read(PROJECT_TARGET)  # raises it, in the notes' own words
        return notes

    def history(self, target: str | None, *, safe: bool = False) -> list[dict[str, Any]]:
        return self.targeted(target).history(target, safe=safe)

    def projects(self) -> list[dict[str, Any]]:
        """The profile's projects with notes (root, entries, usage, last used), as
        ``silcrow memory projects`` lists them."""
        return self._parts.projects()

    # -- the approval gate (a person's decisions: never held themselves) -------------------------

    def review(self, sequential: bool = False) -> list[dict[str, Any]]:
        """Pending proposals with the net effect of each (see Notes.review)."""
        return self.notes().review(sequential=sequential)

    def box_usage(self) -> dict[str, Any]:
        return self.notes().box_usage()

    def approve(self, proposal_id: str, origin: str = "approved", base: str | None = None) -> Result:
        """Apply a proposal through the store's write path; the provider hears of it as of any
        committed write."""
        return dict(self.notes().decide(proposal_id, True, origin=origin, base=base))

    def reject(self, proposal_id: str, reason: str | None = None) -> Result:
        return dict(self.notes().decide(proposal_id, False, reason=reason))

    def close(self) -> None:
        shared = self._shared
        with shared.lock:
            if shared.manager is not None:
                shared.manager.shutdown()
            if shared.sessions is not None:
                shared.sessions.close()
            shared.manager = shared.sessions = None


# Why a server request has no project notes, and what to do: what a refusal of target "project"
# tells a client over HTTP (REST, MCP over HTTP, the inspector).
NO_PROJECT = ("this request names none",
              f"send the project's directory (an absolute path on the server's machine) in the "
              f"{PROJECT_HEADER} header")

CLIENT_IDENTITY = ("You have a persistent memory (silcrow) that outlives this conversation, reached "
                   "through the memory, session_search and recall tools.")


def _recall_manager(profile: Profile) -> MemoryManager:
    """The home's configured provider in a manager, as the agent gets it (none if unavailable)."""
    # One agent has one call in flight; a server has one per concurrent client, so the bound on
    # unfinished provider calls (there to stop a hung provider piling up threads) is per server.
    return profile.recall(SERVER_SESSION, max_stuck_calls=SERVER_CONCURRENT_CALLS)


@dataclass(frozen=True)
class Parts:
    """How a tenant makes its library objects (see :func:`open_tenant`)."""

    notes: Callable[[WriteListener, Path | None], Notes]  # (recall, project)
    sessions: Callable[[], SessionBackend]
    manager: Callable[[], MemoryManager]
    settings: Settings = field(default_factory=Settings)
    projects: Callable[[], list[dict[str, Any]]] = list


def open_tenant(home: Path | Profile, *, no_project: tuple[str, str] = NO_PROJECT) -> Tenant:
    """The one place a served home's objects are built from its settings (a storage backend
    chosen in config.toml is picked here). ``home`` may be a profile its caller opened;
    ``no_project``: why a call without a project has none, and what to do, on this server's
    transport (default: an HTTP request's header)."""
    # settings read and storage decided once
    profile = home if isinstance(home, Profile) else open_profile(home, create=True)
    # A store per call (each call is its own turn), all on one backend: it keeps what it learns
    # (the journal's tail, the checked paths) across calls; the files' locks serialise writers.
    backend = profile.notes_backend()
    # With [memory] judge_held_notes on, what the scan's learned stages hold in a write from a
    # client's model is put to the profile's chat model first, as in the agent.
    judge = configured_hold_judge(profile.settings)

    def notes(recall: WriteListener, project: Path | None) -> Notes:
        served = profile.notes(recall, backend=backend, project=project,
                               no_project=no_project[0], advice=no_project[1])
        served.hold_judge = judge
        return served

    return Tenant(profile.path, Parts(
        notes=notes,
        projects=profile.projects,
        sessions=profile.sessions,
        manager=lambda: _recall_manager(profile),
        settings=profile.settings,
    ))


class Tenants:
    """The tenants of one server process, opened on first use and kept until it stops."""

    def __init__(self) -> None:
        self._open: dict[Path, Tenant] = {}
        self._lock = threading.Lock()

    def get(self, home: Path) -> Tenant:
        key = home.absolute()
        with self._lock:
            tenant = self._open.get(key)
            if tenant is None:
                tenant = self._open[key] = open_tenant(key)
            return tenant

    def close(self) -> None:
        with self._lock:
            tenants, self._open = list(self._open.values()), {}
        for tenant in tenants:
            tenant.close()
