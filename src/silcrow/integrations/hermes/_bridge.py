"""The memory provider Hermes drives, mapped onto silcrow's configured recall provider.

Hermes instantiates the plugin class with no arguments, asks ``is_available``
(no network), then calls ``initialize(session_id, hermes_home=..., platform=...,
agent_context=..., user_id=...)`` and the per-turn hooks from its own
``MemoryManager`` threads. This class holds all of that behaviour; the plugin
file Hermes loads only mixes it into Hermes's ``MemoryProvider`` ABC, so
the class must not depend on Hermes being importable (tests drive it without).

Where things live: the plugin's settings are ``config.json`` beside the plugin
file (``silcrow_home``, default ``<hermes-home>/silcrow``; ``provider``, default
the one configured in that home's ``config.toml``, else ``local``). Curated
notes stay Hermes's own (``<hermes-home>/memories``); long-term recall goes
through this provider, and so do the notes of the project Hermes works in
(``PROJECT.md`` of the git work tree holding Hermes's working directory, kept in
the silcrow home; :mod:`._project`): its frozen block in the system prompt, and
the tool ``project_notes``. Outside any work tree there are none.

Text crossing into silcrow gets silcrow's treatment: fence tags are stripped
from turns before they are stored, secrets are redacted from everything handed
to an external provider (turns, queries, notes, tool arguments), recalled text
is threat-filtered before Hermes fences it, and strings in tool results are
screened.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from silcrow.errors import ConfigError, SilcrowError
from silcrow.home import Profile, open_profile
from silcrow.integrations.hermes._project import TOOL_NAME as PROJECT_TOOL
from silcrow.integrations.hermes._project import ProjectNotes, hermes_cwd, open_project
from silcrow.integrations.hermes._settings import (
    PLUGIN_NAME,
    hermes_home_from_env,
    plugin_settings,
    write_settings,
)

log = logging.getLogger(__name__)


#: Hermes's ``agent_context`` values whose writes a provider must skip: a cron job's or a
#: subagent's prompts, or a pre-compression flush, are not the user's conversation.
NON_PRIMARY_CONTEXTS = frozenset({"cron", "subagent", "flush"})


class HermesBridge:
    """Hermes's memory-provider hooks, delegated to one silcrow recall provider."""

    name = PLUGIN_NAME  # Hermes declares `name` an abstract property; a class attribute satisfies it

    def __init__(self, profile: Profile | None = None) -> None:
        # Hermes makes the bridge with no argument: the profile is then opened on first need from
        # the plugin's settings. A caller that opened one already passes it.
        self._profile = profile
        self._recall: Any = None  # the silcrow MemoryProvider, loaded on first need
        self._opened: Profile | None = None  # the profile it was loaded from
        self._project: ProjectNotes | None = None
        self._project_found = False  # whether the project was looked for since the last load
        self._loaded_for: Path | None = None
        self._home: Path | None = None
        self._why_not = ""
        self._session_id = ""
        self._context: dict[str, Any] = {}
        self._writes = True
        self._lock = threading.Lock()

    # -- loading ---------------------------------------------------------------------------

    def _load(self, hermes_home: Path) -> Any:
        """The configured silcrow provider for ``hermes_home`` (None, with the reason, if unusable)."""
        with self._lock:
            if self._loaded_for == hermes_home:
                return self._recall
            self._recall, self._loaded_for, self._why_not = None, hermes_home, ""
            self._opened, self._project, self._project_found = None, None, False
            try:
                settings = plugin_settings(hermes_home)
                profile = self._profile or open_profile(Path(settings["silcrow_home"]))
                home = profile.path
                # Unset: the profile's choice, which may be several providers run as one.
                name = settings["provider"] or "+".join(profile.settings.recall_providers) or "none"
                provider = profile.provider(settings["provider"] or None)
                if provider is None:
                    self._why_not = f"silcrow recall provider is {name!r}: recall is off"
                    return None
                if not provider.is_available():
                    self._why_not = (f"silcrow recall provider {name!r} is not available: "
                                     f"{provider.unavailable_reason() or 'no reason given'}")
                    return None
            except SilcrowError as exc:
                self._why_not = str(exc)
                return None
            self._recall = provider
            self._opened = profile
            self._home = home
            return provider

    def _project_notes(self) -> ProjectNotes | None:
        """The notes of the project Hermes works in, looked for once per load (Hermes lists the
        tools before it initializes the provider; both must agree). None outside a project."""
        with self._lock:
            if not self._project_found and self._opened is not None:
                self._project = open_project(self._opened, self, hermes_cwd())
                self._project_found = True
            return self._project

    def silcrow_home(self, hermes_home: Path | None = None) -> Path:
        """Where this plugin keeps silcrow's data for ``hermes_home``."""
        return Path(plugin_settings(hermes_home or hermes_home_from_env())["silcrow_home"])

    def unavailable_reason(self) -> str:
        return self._why_not

    # -- Hermes's core lifecycle -----------------------------------------------------------

    def is_available(self) -> bool:
        return self._load(hermes_home_from_env()) is not None

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        hermes_home = Path(str(kwargs.get("hermes_home") or hermes_home_from_env())).expanduser()
        recall = self._load(hermes_home)
        if recall is None:
            raise ConfigError(self._why_not)
        context: dict[str, Any] = {"home": self._home, "platform": kwargs.get("platform") or "cli"}
        if kwargs.get("user_id"):
            context["user_id"] = str(kwargs["user_id"])
        self._context = context
        self._writes = str(kwargs.get("agent_context") or "primary") not in NON_PRIMARY_CONTEXTS
        self._session_id = session_id or ""
        recall.initialize(self._session_id, **context)
        project = self._project_notes()
        if project is not None:
            project.load(self._session_id)  # frozen for this session's prompt

    def _provider(self) -> Any:
        if self._recall is None:
            raise ConfigError("the silcrow memory provider was used before initialize(); "
                              f"{self._why_not or 'Hermes calls initialize first'}")
        return self._recall

    def _out(self, value: Any) -> Any:
        """``value`` as it may be handed to the provider: Hermes calls these hooks directly,
        not through silcrow's manager, so the same redaction is applied here."""
        from silcrow.recall.policy import outgoing

        return outgoing(self._provider(), value)

    def system_prompt_block(self) -> str:
        block = str(self._provider().system_prompt_block() or "")
        project = self._project
        return "\n\n".join(b for b in (block, project.prompt_block() if project else "") if b)

    # Hermes runs its own manager and fences recalled text itself; what silcrow's manager
    # decides about recall (silcrow.recall.policy) is decided here the same way.

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        from silcrow.recall import policy

        query = policy.prefetch_query(query)
        if not policy.worth_recalling(query):
            return ""
        return policy.recalled(self._provider().prefetch(self._out(query),
                                                         session_id=session_id or self._session_id))

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        from silcrow.recall import policy

        query = policy.prefetch_query(query)
        if policy.worth_recalling(query):
            self._provider().queue_prefetch(self._out(query), session_id=session_id or self._session_id)

    def sync_turn(self, user_content: str, assistant_content: str, *, session_id: str = "",
                  messages: list[dict[str, Any]] | None = None) -> None:
        if not self._writes:
            return
        from silcrow.recall.policy import stored

        user, assistant = self._out((stored(user_content), stored(assistant_content)))
        self._provider().sync_turn(user, assistant, session_id=session_id or self._session_id)

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        """Bare ``{name, description, parameters}`` schemas, the format Hermes documents (made
        from the provider's typed tools at silcrow's edge)."""
        if self._recall is None and self._load(hermes_home_from_env()) is None:
            return []
        from silcrow.recall import bare_tool

        project = self._project_notes()
        extra = [project.schema()] if project is not None else []
        try:
            return [bare_tool(spec) for spec in self._recall.tool_specs()] + extra
        except Exception:  # a provider's broken listing costs its tools, not Hermes's turn
            log.warning("silcrow: the recall provider's tools could not be listed", exc_info=True)
            return extra

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        from silcrow._toolcall import contained
        from silcrow.recall import Answer, ToolResult, answer_json
        from silcrow.recall.policy import screened, stored

        if tool_name == PROJECT_TOOL and self._project is not None:
            return self._project.call(args)  # the notes' own answer; it never raises

        def run() -> str:
            call_args = dict(args or {})
            if tool_name == "recall_add" and isinstance(call_args.get("fact"), str):
                # A fact is stored text: fence tags stripped, as MemoryManager.remember does.
                call_args["fact"] = stored(call_args["fact"])
            answer = self._provider().call_tool(tool_name, self._out(call_args))
            if not isinstance(answer, Answer):
                raise TypeError(f"call_tool returned {type(answer).__name__}, not a ToolResult")
            return answer_json(screened(answer))

        # Hermes reads the error as the tool's result: a provider's exception never reaches it.
        return contained(f"recall tool {tool_name!r}", run,
                         lambda refused: answer_json(ToolResult.failed(refused["error"])))

    def shutdown(self) -> None:
        if self._recall is not None:
            self._recall.shutdown()

    # -- Hermes's optional hooks -----------------------------------------------------------

    def on_turn_start(self, turn_number: int, message: str, **kwargs: Any) -> None:
        self._provider().on_turn_start(int(turn_number), self._out(str(message or "")))

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        if self._writes:
            from silcrow.recall.policy import stored_messages

            self._provider().on_session_end(self._out(stored_messages(messages)))

    def on_session_switch(self, new_session_id: str, *, parent_session_id: str = "", reset: bool = False,
                          rewound: bool = False, **kwargs: Any) -> None:
        """silcrow providers take a new session through ``initialize``, as silcrow's own Agent does."""
        if new_session_id and (new_session_id != self._session_id or rewound):
            self._session_id = new_session_id
            self._provider().initialize(new_session_id, **self._context)
            if self._project is not None:  # a new session's prompt is built from disk again
                self._project.load(new_session_id)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        from silcrow.recall.policy import recalled

        return recalled(self._provider().on_pre_compress(self._out(list(messages or []))))

    def on_memory_write(self, action: str, target: str, content: str,
                        metadata: dict[str, Any] | None = None) -> None:
        if self._writes:
            from silcrow.recall.policy import written_note

            self._provider().on_memory_write(action, target, self._out(written_note(action, content)))

    def on_delegation(self, task: str, result: str, *, child_session_id: str = "", **kwargs: Any) -> None:
        """silcrow has no delegation hook: the task and its result are stored as one turn."""
        if self._writes and task and result:
            from silcrow.recall.policy import stored

            turn = self._out((stored(f"[delegated task] {task}"), stored(result)))
            self._provider().sync_turn(*turn, session_id=self._session_id)

    # -- Hermes's setup wizard (`hermes memory setup`) -------------------------------------

    def get_config_schema(self) -> list[dict[str, Any]]:
        from silcrow.recall import provider_names

        home = hermes_home_from_env()
        return [
            {"key": "silcrow_home", "description": "silcrow home for recall data (recall.db, config.toml)",
             "default": str(home / "silcrow")},
            {"key": "provider", "description": "silcrow recall provider (empty: the silcrow home's config)",
             "default": "", "choices": ["", *provider_names()]},
        ]

    def save_config(self, values: dict[str, Any], hermes_home: str) -> None:
        write_settings(Path(hermes_home), silcrow_home=values.get("silcrow_home") or None,
                       provider=values.get("provider") or None)

    def backup_paths(self) -> list[str]:
        """The silcrow home when it lies outside the Hermes home (which Hermes backs up itself)."""
        hermes_home = hermes_home_from_env()
        try:
            home = self.silcrow_home(hermes_home)
        except ConfigError:
            return []
        inside = home.resolve().is_relative_to(hermes_home.resolve())
        return [] if inside else [str(home)]
