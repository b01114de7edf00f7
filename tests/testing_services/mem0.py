"""A loopback STAND-IN for the Mem0 Platform API (not Mem0: no LLM extraction, word-overlap search).

Routes the official ``mem0.MemoryClient`` uses for silcrow's adapter:
``GET /v1/ping/`` (key check at client start), ``POST /v3/memories/add/``,
``POST /v3/memories/search/``, ``PUT /v1/memories/{id}/`` and
``DELETE /v1/memories/{id}/``. Every request needs ``Authorization: Token
KEY``. An add needs ``messages`` (a list of ``{role, content}``) and one of
``user_id`` / ``agent_id`` / ``run_id``; a search needs ``query`` and a
``filters`` object naming one of them (the v3 API refuses top-level ids).
Wrong requests get the platform's ``{"detail": ...}`` errors (400/401/404).

An add stores each user message's content as one memory at once and answers
like the platform's asynchronous add (``status: PENDING`` with an
``event_id``); with ``infer`` the real platform would extract facts with an
LLM instead, which this stand-in does not pretend to do.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from testing_services.base import Request, StandInService, overlap_score

_SCOPES = ("user_id", "agent_id", "run_id")


class Mem0PlatformStandIn(StandInService):
    service = "mem0"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.memories: dict[str, dict[str, Any]] = {}
        self.added: list[dict[str, Any]] = []  # what the last add stored
        self.route("GET", r"/v1/ping/", self._ping)
        self.route("POST", r"/v3/memories/add/", self._add)
        self.route("POST", r"/v3/memories/search/", self._search)
        self.route("PUT", r"/v1/memories/([^/]+)/", self._update)
        self.route("DELETE", r"/v1/memories/([^/]+)/", self._delete)

    def error_body(self, status: int, message: str) -> Any:
        return {"detail": message}

    def check_auth(self, req: Request) -> None:
        if req.headers.get("authorization") != f"Token {self.api_key}":
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong Authorization Token")

    def _ping(self, req: Request) -> Any:
        return {
            "status": "ok",
            "message": "API key is valid",
            "org_id": "org-stand-in",
            "project_id": "project-stand-in",
            "user_email": "stand-in@example.invalid",
        }

    def _add(self, req: Request) -> Any:
        body = self.body_fields(req, "messages")
        messages = body["messages"]
        if not isinstance(messages, list) or not all(
            isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
            for m in messages
        ):
            raise self.violation(400, "add: messages must be a list of {role, content} objects")
        if not any(body.get(scope) for scope in _SCOPES):
            raise self.violation(400, "add: one of user_id, agent_id or run_id is required")
        now = datetime.now(UTC).isoformat()
        self.added = []
        for message in messages:
            if message["role"] != "user" or not message["content"].strip():
                continue
            memory_id = str(uuid.uuid4())
            self.memories[memory_id] = {
                "id": memory_id,
                "memory": message["content"],
                "user_id": body.get("user_id"),
                "agent_id": body.get("agent_id"),
                "metadata": body.get("metadata") or {},
                "created_at": now,
                "updated_at": now,
            }
            self.added.append({"id": memory_id, "memory": message["content"], "event": "ADD"})
        return {
            "message": "Memory processing has been queued for background execution",
            "status": "PENDING",
            "event_id": str(uuid.uuid4()),
        }

    def _search(self, req: Request) -> Any:
        body = self.body_fields(req, "query", "filters")
        filters = body["filters"]
        if any(scope in body for scope in _SCOPES):
            raise self.violation(400, "search: entity ids belong in filters, not at the top level")
        if not isinstance(filters, dict) or not any(filters.get(scope) for scope in _SCOPES):
            raise self.violation(400, "search: filters must name user_id, agent_id or run_id")
        top_k = body.get("top_k", 10)
        if not isinstance(top_k, int) or top_k < 1:
            raise self.violation(400, f"search: top_k must be a positive integer, got {top_k!r}")
        scored = []
        for memory in self.memories.values():
            if any(filters.get(s) and memory.get(s) != filters[s] for s in _SCOPES):
                continue
            score = overlap_score(str(body["query"]), memory["memory"])
            if score > 0:
                scored.append({**memory, "score": round(score, 4)})
        scored.sort(key=lambda m: -m["score"])
        return {"results": scored[:top_k]}

    def _known(self, req: Request) -> dict[str, Any]:
        memory = self.memories.get(req.groups[0])
        if memory is None:
            raise self.violation(404, f"memory {req.groups[0]!r} not found")
        return memory

    def _update(self, req: Request) -> Any:
        memory = self._known(req)
        body = self.body_fields(req, "text")
        memory.update(memory=body["text"], updated_at=datetime.now(UTC).isoformat())
        return dict(memory)

    def _delete(self, req: Request) -> Any:
        self._known(req)
        del self.memories[req.groups[0]]
        return {"message": "Memory deleted successfully!"}


class Mem0ServerStandIn(Mem0PlatformStandIn):
    """A loopback STAND-IN for a self-hosted mem0 server (the FastAPI app mem0 ships; not mem0).

    Its routes as the Hermes plugin calls them: ``POST /memories`` (add; answers the
    ``{"results": [{id, memory, event}]}`` of ``Memory.add``), ``POST /search``,
    ``PUT /memories/{id}`` and ``DELETE /memories/{id}``, authenticated with
    ``X-API-Key: KEY`` (none when started with ``api_key=None``, as a server with
    ``AUTH_DISABLED``). Storage and search are the platform stand-in's.
    """

    def __init__(self, api_key: str | None = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key or "", **kwargs)
        self.require_key = bool(api_key)
        self.routes = []
        self.route("POST", r"/memories", self._add_here)
        self.route("POST", r"/search", self._search)
        self.route("PUT", r"/memories/([^/]+)", self._update)
        self.route("DELETE", r"/memories/([^/]+)", self._delete)

    def check_auth(self, req: Request) -> None:
        if self.require_key and req.headers.get("x-api-key") != self.api_key:
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong X-API-Key header")

    def _add_here(self, req: Request) -> Any:
        self._add(req)
        return {"results": list(self.added)}
