"""Supermemory: hosted semantic memory with a user profile, through the official SDK (5.x or 3.x).

Same tools, settings and lifecycle as the Hermes ``supermemory`` plugin:
``SUPERMEMORY_API_KEY`` (required), ``SUPERMEMORY_BASE_URL``,
``SUPERMEMORY_CONTAINER_TAG`` and the ``supermemory.json`` keys of Hermes in
``[recall.supermemory]`` (``container_tag``, ``auto_recall``, ``auto_capture``,
``max_recall_results``, ``profile_frequency``, ``search_mode``,
``entity_context``, ``api_timeout``, multi-container keys). The container
tag is the v5 API's namespace. Every turn is appended to one document per
session (Hermes writes that document once at the end; appending as we go
loses nothing if the process dies), curated-note additions become explicit
memories, and ``prefetch`` returns the profile (on the first turn and every
``profile_frequency`` turns) plus the memories matching the message.
"""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Mapping
from typing import Any

from silcrow.errors import ServiceError
from silcrow.providers._base import HostedProvider, ToolHandler
from silcrow.providers.supermemory._api import SupermemoryApi
from silcrow.providers.supermemory._api_v3 import SupermemoryApiV3
from silcrow.providers.supermemory._schemas import ALIASES, schemas
from silcrow.recall import ToolResult, ToolSpec

DEFAULT_ENTITY_CONTEXT = (
    "User-assistant conversation. Keep only what helps future conversations: lasting personal facts, "
    "preferences, routines, tools, ongoing projects and explicit requests to remember something. Leave "
    "out temporary intents, one-time tasks, what the assistant did and in-progress status. When in doubt, "
    "keep less."
)
_TAG_CHARS = re.compile(r"[^A-Za-z0-9_.:-]+")


def client_major() -> int | None:
    """The major version of the installed ``supermemory`` client (None when it is not installed)."""
    try:
        version = importlib.metadata.version("supermemory")
    except importlib.metadata.PackageNotFoundError:
        return None
    head = version.split(".")[0]
    return int(head) if head.isdigit() else None


def _sanitize_tag(raw: str) -> str:
    return _TAG_CHARS.sub("-", raw.strip()).strip("-")[:100] or "hermes"


def _category(text: str) -> str:
    lowered = text.lower()
    if re.search(r"prefer|like|love|hate|want", lowered):
        return "preference"
    if re.search(r"decided|will use|going with", lowered):
        return "decision"
    return "fact" if re.search(r"\b(is|are|has|have)\b", lowered) else "other"


class SupermemoryProvider(HostedProvider):
    name = "supermemory"
    extra = "supermemory"
    modules = ("supermemory",)
    defaults = {
        "api_key": "",
        "base_url": "",
        "container_tag": "hermes",
        "auto_recall": True,
        "auto_capture": True,
        "max_recall_results": 10,
        "profile_frequency": 50,
        "search_mode": "hybrid",
        "entity_context": DEFAULT_ENTITY_CONTEXT,
        "api_timeout": 5.0,
        "enable_custom_container_tags": False,
        "custom_containers": [],
        "custom_container_instructions": "",
    }
    env = {
        "api_key": "SUPERMEMORY_API_KEY",
        "base_url": "SUPERMEMORY_BASE_URL",
        "container_tag": "SUPERMEMORY_CONTAINER_TAG",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._api: SupermemoryApi | SupermemoryApiV3 | None = None
        self._turn = 0

    def missing_settings(self) -> str:
        if client_major() not in (None, 3, 5):
            return (
                f"supermemory {importlib.metadata.version('supermemory')} is installed; silcrow speaks the "
                '3.x and 5.x clients: pip install "silcrow[supermemory]"'
            )
        if not str(self.config["api_key"]).strip():
            return f"no Supermemory API key: {self.key_hint('api_key')}"
        return ""

    @property
    def container(self) -> str:
        identity = self.home.name if self.home.parent.name == "profiles" else "default"
        return _sanitize_tag(str(self.config["container_tag"]).replace("{identity}", identity))

    @property
    def allowed_containers(self) -> list[str]:
        extra = [_sanitize_tag(str(c)) for c in self.config["custom_containers"]]
        return [self.container, *extra] if self.config["enable_custom_container_tags"] else [self.container]

    @property
    def api(self) -> SupermemoryApi | SupermemoryApiV3:
        if self._api is None:
            cfg = self.config
            # Hermes' api_timeout (0.5-15 s) and silcrow's common timeout: the stricter one wins.
            timeout = min(max(0.5, min(15.0, float(cfg["api_timeout"]))), float(cfg["timeout"]))
            self.resilient.timeout = timeout
            # The 3.x client (Hermes' plugin uses it) speaks the v3/v4 API; 5.x the v5 namespaces.
            kind = SupermemoryApiV3 if client_major() == 3 else SupermemoryApi
            self._api = kind(
                str(cfg["api_key"]).strip(), str(cfg["base_url"]).strip(), timeout, str(cfg["search_mode"])
            )
        return self._api

    def setup(self) -> None:
        self._turn = 0

    def close_clients(self) -> None:
        self._api = None

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "turn":
            content = (
                f"[role: user]\n{payload['user']}\n[user:end]\n"
                f"[role: assistant]\n{payload['assistant']}\n[assistant:end]"
            )
            self.api.add(
                self.container,
                content,
                doc_id=f"session-{payload['session_id']}",
                metadata={"type": "conversation", "session_id": payload["session_id"]},
                context=str(self.config["entity_context"]),
            )
        elif kind == "memory":
            self.api.add(
                self.container,
                payload["content"],
                metadata={"target": payload["target"], "type": "explicit_memory"},
                context=str(self.config["entity_context"]),
            )
        else:
            raise ServiceError(f"unknown queued write kind {kind!r}", permanent=True)

    # -- lifecycle -------------------------------------------------------------------------

    def on_turn_start(self, turn_number: int, message: str, **context: Any) -> None:
        self._turn = max(int(turn_number), 0)
        super().on_turn_start(turn_number, message, **context)

    def system_prompt_block(self) -> str:
        lines = [
            "# Supermemory",
            f"Active. Container: {self.container}.",
            "Use supermemory_search, supermemory_store, supermemory_forget and supermemory_profile "
            "(kebab-case names such as supermemory-save are accepted too).",
        ]
        if len(self.allowed_containers) > 1:
            lines.append(
                f"Multi-container mode: {', '.join(self.allowed_containers)}; pass container_tag "
                "to a tool to use one of them."
            )
            if self.config["custom_container_instructions"]:
                lines.append(str(self.config["custom_container_instructions"]))
        return "\n".join(lines)

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        sid = session_id or self.session_id
        if not self.config["auto_capture"] or not sid or not (user.strip() or assistant.strip()):
            return
        self.queue_write("turn", {"session_id": sid, "user": user.strip(), "assistant": assistant.strip()})

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if action == "add" and content.strip():
            self.queue_write("memory", {"content": content.strip(), "target": target})

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self.flush_outbox()

    def recall(self, query: str) -> str:
        cfg = self.config
        if not cfg["auto_recall"]:
            return ""
        limit = max(1, min(20, int(cfg["max_recall_results"])))
        with_profile = self._turn <= 1 or self._turn % max(1, int(cfg["profile_frequency"])) == 0
        static, dynamic = self.api.profile(self.container) if with_profile else ([], [])
        hits = self.api.search(self.container, query[:200], limit)
        seen: set[str] = set()
        sections = []
        for title, items in (
            ("User Profile (Persistent)", static),
            ("Recent Context", dynamic),
            ("Relevant Memories", [h["memory"] for h in hits]),
        ):
            fresh = [i for i in items if i and i not in seen][:limit]
            seen.update(fresh)
            if fresh:
                sections.append(f"## {title}\n" + "\n".join(f"- {i}" for i in fresh))
        return "\n\n".join(sections)

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        handlers = {
            "supermemory_store": self._tool_store,
            "supermemory_search": self._tool_search,
            "supermemory_forget": self._tool_forget,
            "supermemory_profile": self._tool_profile,
        }
        multi = self.allowed_containers if len(self.allowed_containers) > 1 else []
        return [(spec, handlers[spec.name]) for spec in schemas(multi, self.container)]

    def call_tool(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        return super().call_tool(ALIASES.get(name, name), args)

    def _tag(self, args: dict[str, Any]) -> str:
        tag = str(args.get("container_tag") or "").strip()
        if not tag or len(self.allowed_containers) == 1:
            return self.container
        tag = _sanitize_tag(tag)
        if tag not in self.allowed_containers:
            raise ValueError(f"container tag {tag!r} is not allowed; use one of {self.allowed_containers}")
        return tag

    def _tool_store(self, args: dict[str, Any]) -> ToolResult:
        content = str(args.get("content") or "").strip()
        if not content:
            raise ValueError("content is required")
        given = args["metadata"] if isinstance(args.get("metadata"), dict) else {}
        metadata = {
            k: v for k, v in given.items() if isinstance(v, str | int | float | bool) and k != "source"
        }
        metadata.setdefault("type", _category(content))
        tag = self._tag(args)
        doc_id = self.call(
            "store",
            lambda: self.api.add(tag, content, metadata=metadata, context=str(self.config["entity_context"])),
        )
        preview = content[:80] + ("..." if len(content) > 80 else "")
        return ToolResult.done(saved=True, id=doc_id, preview=preview)

    def _tool_search(self, args: dict[str, Any]) -> ToolResult:
        query = str(args.get("query") or "").strip()
        if not query:
            raise ValueError("query is required")
        limit = max(1, min(20, int(args.get("limit") or 5)))
        tag = self._tag(args)
        hits = self.call("search", lambda: self.api.search(tag, query, limit))
        results = [
            {"id": h["id"], "content": h["memory"], "similarity": round(h["similarity"] * 100)} for h in hits
        ]
        return ToolResult.done(results=results, count=len(results))

    def _tool_forget(self, args: dict[str, Any]) -> ToolResult:
        memory_id, query = str(args.get("id") or "").strip(), str(args.get("query") or "").strip()
        if not memory_id and not query:
            raise ValueError("give either id or query")
        tag = self._tag(args)
        if memory_id:
            forgotten = self.call("forget", lambda: self.api.forget(tag, memory_id))
            return ToolResult.done(forgotten=forgotten, id=memory_id)
        hits = self.call("forget", lambda: self.api.search(tag, query, 5, mode="memories"))
        if not hits:
            return ToolResult.done(forgotten=False, message="No matching memory found to forget.")
        target = hits[0]
        self.call("forget", lambda: self.api.forget(tag, target["id"]))
        return ToolResult.done(forgotten=True, id=target["id"], message=f'Forgot: "{target["memory"][:100]}"')

    def _tool_profile(self, args: dict[str, Any]) -> ToolResult:
        tag = self._tag(args)
        static, dynamic = self.call("profile", lambda: self.api.profile(tag))
        sections = []
        if static:
            sections.append("## User Profile (Persistent)\n" + "\n".join(f"- {s}" for s in static))
        if dynamic:
            sections.append("## Recent Context\n" + "\n".join(f"- {d}" for d in dynamic))
        return ToolResult.done(profile="\n\n".join(sections), static_count=len(static),
                               dynamic_count=len(dynamic))

    # -- `silcrow providers check` ---------------------------------------------------------

    def prepare_clients(self) -> None:
        self.api  # noqa: B018 - builds the client

    def probe_write(self, text: str) -> str:
        return self.call("probe", lambda: self.api.add(self.container, text, metadata={"type": "probe"}))

    def probe_search(self, text: str) -> bool:
        hits = self.call("probe", lambda: self.api.search(self.container, text, 5))
        return any(text in h["memory"] for h in hits)

    def probe_forget(self, ref: str) -> None:
        self.call("probe", lambda: self.api.delete_documents(self.container, [ref]))
