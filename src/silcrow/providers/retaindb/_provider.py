"""RetainDB: a hosted memory API (hybrid search, typed memories, user profiles), over plain httpx.

Same tools, settings and lifecycle as the Hermes ``retaindb`` plugin:
``RETAINDB_API_KEY`` (required), ``RETAINDB_BASE_URL``, ``RETAINDB_PROJECT``
(or ``api_key``/``base_url``/``project`` in ``[recall.retaindb]``). Each
completed turn is ingested into its session (``/v1/memory/ingest/session``),
curated-note additions are mirrored as memories, ``queue_prefetch`` asks
``/v1/memory/dialectic`` in the background and ``prefetch`` returns the profile,
the context query and that answer. Writes go through the durable outbox.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from functools import partial
from typing import Any
from urllib.parse import quote

from silcrow.errors import ServiceError
from silcrow.providers._base import HostedProvider, ToolHandler
from silcrow.providers._http import JsonHttp
from silcrow.providers._validate import as_dict, as_list, field, text_of
from silcrow.providers.retaindb._files import FileTools
from silcrow.recall import ToolResult, ToolSpec

DEFAULT_BASE_URL = "https://api.retaindb.com"
MEMORY_TYPES = ["factual", "preference", "goal", "instruction", "event", "opinion"]


def utc_timestamp(when: datetime | None = None) -> str:
    """``when`` (default now) as the server's zod ``datetime()`` takes it: UTC ending in ``Z``
    (an offset such as ``+00:00`` is refused with a 400)."""
    moment = (when or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def hit_text(item: Any) -> str:
    """The text of a search hit: RetainDB nests it (``{"memory": {"content": ...}}``)."""
    if isinstance(item, dict) and isinstance(item.get("memory"), dict):
        return text_of(item["memory"])
    return text_of(item)


def memory_id(reply: dict[str, Any]) -> str:
    """The id ``POST /v1/memory`` answered (``memory_id`` or ``memory.id``); "" for a queued job."""
    nested = reply.get("memory")
    for value in (reply.get("memory_id"), nested.get("id") if isinstance(nested, dict) else None):
        if isinstance(value, str) and value:
            return value
    if isinstance(reply.get("job_id"), str):
        return ""
    raise ServiceError(f"retaindb answered a malformed add response (no memory_id, memory.id or job_id): "
                       f"{str(reply)[:160]}")


def _overlay(profile: dict[str, Any], context: dict[str, Any]) -> str:
    """Profile facts then query matches, de-duplicated, in Hermes' ``[RetainDB Context]`` layout."""
    seen: set[str] = set()

    def pick(items: list[Any]) -> list[str]:
        out = []
        for item in items[:5]:
            text = " ".join(hit_text(item).split())[:320]
            key = text.casefold()
            if text and key not in seen:
                seen.add(key)
                out.append(text)
        return out

    facts = pick(as_list("retaindb", "profile memories", profile.get("memories") or []))
    matches = pick(as_list("retaindb", "context results", context.get("results") or []))
    if not facts and not matches:
        return ""
    lines = [
        "[RetainDB Context]",
        "Profile:",
        *([f"- {f}" for f in facts] or ["- None"]),
        "Relevant memories:",
        *([f"- {m}" for m in matches] or ["- None"]),
    ]
    return "\n".join(lines)


class RetainDBProvider(HostedProvider):
    name = "retaindb"
    extra = "retaindb"
    defaults = {"api_key": "", "base_url": DEFAULT_BASE_URL, "project": ""}
    env = {"api_key": "RETAINDB_API_KEY", "base_url": "RETAINDB_BASE_URL", "project": "RETAINDB_PROJECT"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._http: JsonHttp | None = None
        self._answer = ""
        self._answer_lock = threading.Lock()
        self.user_id = "default"
        self._probe_text = ""

    def missing_settings(self) -> str:
        if not str(self.config["api_key"]).strip():
            return f"no RetainDB API key: {self.key_hint('api_key')}"
        return ""

    @property
    def project(self) -> str:
        explicit = str(self.config["project"]).strip()
        if explicit:
            return explicit
        # Like Hermes: a named profile gets its own project, the default home shares "default".
        return f"hermes-{self.home.name}" if self.home.parent.name == "profiles" else "default"

    def setup(self) -> None:
        self.user_id = str(self.context.get("user_id") or "default")
        if self._http is None:
            key = str(self.config["api_key"]).strip().removeprefix("Bearer ").strip()
            self._http = JsonHttp(
                self.name,
                str(self.config["base_url"]),
                headers={"Authorization": f"Bearer {key}", "X-API-Key": key, "x-sdk-runtime": "silcrow"},
                timeout=self.resilient.timeout,
                key_hint=self.key_hint("api_key"),
            )

    @property
    def http(self) -> JsonHttp:
        if self._http is None:
            self.setup()
        assert self._http is not None
        return self._http

    def close_clients(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    # -- requests --------------------------------------------------------------------------

    def _obj(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        return as_dict(
            self.name, f"{method} {path} response", self.http.request(method, path, **kwargs) or {}
        )

    def _add(
        self, content: str, memory_type: str = "factual", importance: float = 0.7, session_id: str = ""
    ) -> dict[str, Any]:
        return self._obj(
            "POST",
            "/v1/memory",
            json={
                "project": self.project,
                "content": content,
                "memory_type": memory_type,
                "user_id": self.user_id,
                "session_id": session_id or self.session_id,
                "importance": importance,
                "write_mode": "sync",
            },
        )

    def _search(self, query: str, top_k: int = 8) -> dict[str, Any]:
        return self._obj(
            "POST",
            "/v1/memory/search",
            json={
                "project": self.project,
                "query": query,
                "user_id": self.user_id,
                "session_id": self.session_id,
                "top_k": top_k,
                "include_pending": True,
            },
        )

    def _context(self, query: str) -> dict[str, Any]:
        return self._obj(
            "POST",
            "/v1/context/query",
            json={
                "project": self.project,
                "query": query,
                "user_id": self.user_id,
                "session_id": self.session_id,
                "include_memories": True,
                "max_tokens": 1200,
            },
        )

    def _profile(self) -> dict[str, Any]:
        return self._obj(
            "GET",
            f"/v1/memory/profile/{quote(self.user_id, safe='')}",
            params={"project": self.project, "include_pending": "true"},
        )

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "session":
            self._obj(
                "POST",
                "/v1/memory/ingest/session",
                json={
                    "project": self.project,
                    "session_id": payload["session_id"],
                    "user_id": payload["user_id"],
                    "messages": payload["messages"],
                    "write_mode": "sync",
                },
            )
        elif kind == "memory":
            self._add(payload["content"], payload["memory_type"], session_id=payload["session_id"])
        else:
            raise ServiceError(f"unknown queued write kind {kind!r}", permanent=True)

    # -- lifecycle -------------------------------------------------------------------------

    def system_prompt_block(self) -> str:
        return (
            "# RetainDB Memory\n"
            f"Active. Project: {self.project}.\n"
            "Use retaindb_search to find memories, retaindb_remember to store facts, "
            "retaindb_profile for a user overview, retaindb_context for current-task context."
        )

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        if not user.strip():
            return
        now = utc_timestamp()
        self.queue_write(
            "session",
            {
                "user_id": self.user_id,
                "session_id": session_id or self.session_id,
                "messages": [
                    {"role": "user", "content": user, "timestamp": now},
                    {"role": "assistant", "content": assistant, "timestamp": now},
                ],
            },
        )

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if action == "add" and content.strip():
            self.queue_write(
                "memory",
                {
                    "content": content,
                    "session_id": self.session_id,
                    "memory_type": "preference" if target == "user" else "factual",
                },
            )

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        path = "/v1/memory/dialectic"
        body = {"project": self.project, "user_id": self.user_id, "query": query[:5000]}
        try:
            answer = self.call(
                "ask",
                lambda: field(
                    self.name, "ask response", self._obj("POST", path, json=body), "answer", str, default=""
                ),
            )
        except ServiceError:
            return
        with self._answer_lock:
            self._answer = answer

    def recall(self, query: str) -> str:
        parts = [_overlay(self._profile(), self._context(query))]
        with self._answer_lock:
            answer, self._answer = self._answer, ""
        if answer.strip():
            parts.append(f"[RetainDB User Synthesis]\n{answer.strip()}")
        return "\n\n".join(p for p in parts if p)

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self.flush_outbox()

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        return [
            (
                ToolSpec.of(
                    "retaindb_profile",
                    "Get the user's stable profile — preferences, facts, and "
                    "patterns recalled from long-term memory.",
                    {},
                ),
                self._tool_profile,
            ),
            (
                ToolSpec.of(
                    "retaindb_search",
                    "Semantic search across stored memories. Returns ranked results with relevance scores.",
                    {
                        "query": {"type": "string", "description": "What to search for."},
                        "top_k": {"type": "integer", "description": "Max results (default: 8, max: 20)."},
                    },
                    ["query"],
                ),
                self._tool_search,
            ),
            (
                ToolSpec.of(
                    "retaindb_context",
                    "Synthesized context block — what matters most for the "
                    "current task, pulled from long-term memory.",
                    {
                        "query": {"type": "string", "description": "Current task or question."},
                    },
                    ["query"],
                ),
                self._tool_context,
            ),
            (
                ToolSpec.of(
                    "retaindb_remember",
                    "Persist an explicit fact, preference, or decision to long-term memory.",
                    {
                        "content": {"type": "string", "description": "The fact to remember."},
                        "memory_type": {
                            "type": "string",
                            "enum": MEMORY_TYPES,
                            "description": "Category (default: factual).",
                        },
                        "importance": {"type": "number", "description": "Importance 0-1 (default: 0.7)."},
                    },
                    ["content"],
                ),
                self._tool_remember,
            ),
            (
                ToolSpec.of(
                    "retaindb_forget",
                    "Delete a specific memory by ID.",
                    {
                        "memory_id": {"type": "string", "description": "Memory ID to delete."},
                    },
                    ["memory_id"],
                ),
                self._tool_forget,
            ),
            *FileTools(lambda: self.http, self.call, lambda: self.user_id).tools(),
        ]

    @staticmethod
    def _text(args: dict[str, Any], key: str) -> str:
        value = args.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{key} is required (a non-empty string)")
        return value.strip()

    def _tool_profile(self, args: dict[str, Any]) -> ToolResult:
        return ToolResult.done(profile=self.call("profile", self._profile))

    def _tool_search(self, args: dict[str, Any]) -> ToolResult:
        query = self._text(args, "query")
        top_k = max(1, min(int(args.get("top_k") or 8), 20))
        reply = self.call("search", lambda: self._search(query, top_k))
        hits = as_list(self.name, "search results", reply.get("results") or [])
        return ToolResult.done(results=[self._flat(h) for h in hits])

    @staticmethod
    def _flat(hit: Any) -> Any:
        """A nested search hit as one object: the memory's fields and its similarity."""
        if isinstance(hit, dict) and isinstance(hit.get("memory"), dict):
            return {**hit["memory"], "similarity": hit.get("similarity")}
        return hit

    def _tool_context(self, args: dict[str, Any]) -> ToolResult:
        query = self._text(args, "query")
        context = self.call("context", lambda: self._context(query))
        profile = self.call("profile", self._profile)
        return ToolResult.done(context=_overlay(profile, context))

    def _tool_remember(self, args: dict[str, Any]) -> ToolResult:
        content = self._text(args, "content")
        kind = args.get("memory_type") or "factual"
        if kind not in MEMORY_TYPES:
            raise ValueError(f"memory_type must be one of {MEMORY_TYPES}, not {kind!r}")
        importance = min(max(float(args.get("importance") or 0.7), 0.0), 1.0)
        reply = self.call("remember", lambda: self._add(content, kind, importance))
        return ToolResult.done(stored=reply)

    def _tool_forget(self, args: dict[str, Any]) -> ToolResult:
        memory_id = self._text(args, "memory_id")
        reply = self.call("forget", lambda: self._obj("DELETE", f"/v1/memory/{quote(memory_id, safe='')}"))
        return ToolResult.done(deleted=reply)

    # -- `silcrow providers check` ---------------------------------------------------------

    def prepare_clients(self) -> None:
        self.http  # noqa: B018 - builds the client

    def probe_write(self, text: str) -> str:
        return memory_id(self.call("probe", lambda: self._add(text)))

    def _probe_hits(self, text: str) -> list[dict[str, Any]]:
        hits = as_list(
            self.name, "search results", self.call("probe", lambda: self._search(text)).get("results")
        )
        return [self._flat(h) for h in hits if text in hit_text(h)]

    def probe_search(self, text: str) -> bool:
        return bool(self._probe_hits(text))

    def probe_forget(self, ref: str) -> None:
        # A write the server queued (202) has no id yet: the stored memory is found by its text.
        refs = [ref] if ref else [str(h["id"]) for h in self._probe_hits(self._probe_text) if h.get("id")]
        for one in refs:
            self.call("probe", partial(self._obj, "DELETE", f"/v1/memory/{quote(one, safe='')}"))

    def round_trip(self, text: str) -> dict[str, Any]:
        self._probe_text = text
        return super().round_trip(text)
