"""A loopback STAND-IN for the RetainDB memory API (not RetainDB; no ranking model behind it).

Routes (the ones silcrow's adapter uses, with the shapes the Hermes RetainDB
plugin reads): ``POST /v1/memory`` (add), ``POST /v1/memory/search``,
``POST /v1/context/query``, ``GET /v1/memory/profile/{user}``,
``POST /v1/memory/profile/{user}/ask``, ``POST /v1/memory/ingest/session``,
``DELETE /v1/memory/{id}``. Every request needs ``Authorization: Bearer KEY``
and, on ``/v1/memory*`` and ``/v1/context*``, ``X-API-Key: KEY`` too; a
missing ``project``, ``user_id`` or ``query`` is refused with 422.
"""

from __future__ import annotations

import itertools
from typing import Any

from silcrow.testing_services.base import Reply, Request, StandInService, overlap_score


class RetainDBStandIn(StandInService):
    service = "retaindb"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.memories: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, list[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self.route("POST", r"/v1/memory", self._add)
        self.route("POST", r"/v1/memory/search", self._search)
        self.route("POST", r"/v1/context/query", self._context)
        self.route("GET", r"/v1/memory/profile/([^/]+)", self._profile)
        self.route("POST", r"/v1/memory/profile/([^/]+)/ask", self._ask)
        self.route("POST", r"/v1/memory/ingest/session", self._ingest)
        self.route("DELETE", r"/v1/memory/([^/]+)", self._delete)

    def error_body(self, status: int, message: str) -> Any:
        return {"error": message, "status": status}

    def check_auth(self, req: Request) -> None:
        super().check_auth(req)
        if req.headers.get("x-api-key") != self.api_key:
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong X-API-Key header")

    def _store(
        self, project: str, user: str, session: str, content: str, kind: str, importance: float
    ) -> str:
        memory_id = f"mem_{next(self._ids)}"
        self.memories[memory_id] = {
            "id": memory_id,
            "project": project,
            "user_id": user,
            "session_id": session,
            "content": content,
            "memory_type": kind,
            "importance": importance,
        }
        return memory_id

    def _ranked(self, project: str, user: str, query: str, k: int) -> list[dict[str, Any]]:
        hits = []
        for memory in self.memories.values():
            if memory["project"] == project and memory["user_id"] == user:
                score = overlap_score(query, memory["content"])
                if score > 0:
                    hits.append({**memory, "score": round(score, 3)})
        hits.sort(key=lambda m: (-m["score"], m["id"]))
        return hits[:k]

    def _add(self, req: Request) -> Any:
        body = self.body_fields(req, "project", "content", "user_id")
        memory_id = self._store(
            body["project"],
            body["user_id"],
            str(body.get("session_id") or ""),
            body["content"],
            str(body.get("memory_type") or "factual"),
            float(body.get("importance") or 0.7),
        )
        return {"id": memory_id, "status": "stored"}

    def _search(self, req: Request) -> Any:
        body = self.body_fields(req, "project", "query", "user_id")
        hits = self._ranked(body["project"], body["user_id"], body["query"], int(body.get("top_k") or 8))
        return {"results": hits, "count": len(hits)}

    def _context(self, req: Request) -> Any:
        body = self.body_fields(req, "project", "query", "user_id")
        return {"results": self._ranked(body["project"], body["user_id"], body["query"], 5)}

    def _profile(self, req: Request) -> Any:
        if not req.params.get("project"):
            raise self.violation(422, "GET profile: the project query parameter is missing")
        user = req.groups[0]
        facts = [
            m
            for m in self.memories.values()
            if m["user_id"] == user
            and m["project"] == req.params["project"]
            and m["memory_type"] in {"preference", "factual"}
            and m["session_id"] != "transcript"
        ]
        return {"user_id": user, "memories": facts[-20:]}

    def _ask(self, req: Request) -> Any:
        body = self.body_fields(req, "project", "query")
        hits = self._ranked(body["project"], req.groups[0], body["query"], 2)
        return {"answer": " ".join(h["content"] for h in hits)}

    def _ingest(self, req: Request) -> Any:
        body = self.body_fields(req, "project", "session_id", "user_id", "messages")
        messages = body["messages"]
        if not isinstance(messages, list) or not all(
            isinstance(m, dict) and m.get("role") and isinstance(m.get("content"), str) for m in messages
        ):
            raise self.violation(422, "ingest/session: messages must be [{role, content}]")
        self.sessions.setdefault(body["session_id"], []).extend(messages)
        for message in messages:
            if message["role"] == "user" and message["content"].strip():
                self._store(
                    body["project"], body["user_id"], body["session_id"], message["content"], "event", 0.5
                )
        return {"status": "ingested", "messages": len(messages)}

    def _delete(self, req: Request) -> Any:
        if self.memories.pop(req.groups[0], None) is None:
            raise Reply(404, self.error_body(404, f"memory {req.groups[0]} not found"))
        return {"deleted": True, "id": req.groups[0]}
