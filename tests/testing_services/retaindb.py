"""A loopback STAND-IN for the RetainDB memory API (not RetainDB; no ranking model behind it).

Routes (the ones silcrow's adapter uses, with the shapes the Hermes RetainDB
plugin reads): ``POST /v1/memory`` (add), ``POST /v1/memory/search``,
``POST /v1/context/query``, ``GET /v1/memory/profile/{user}``,
``POST /v1/memory/profile/{user}/ask``, ``POST /v1/memory/ingest/session``,
``DELETE /v1/memory/{id}``, and the file store: ``GET /v1/files``,
``GET /v1/files/{id}``, ``GET /v1/files/{id}/content``,
``POST /v1/files/{id}/ingest``, ``DELETE /v1/files/{id}`` (files are put in
with :meth:`RetainDBStandIn.add_file`; uploads are not modelled). Every
request needs ``Authorization: Bearer KEY`` and ``X-API-Key: KEY``; a missing
``project``, ``user_id`` or ``query`` is refused with 422.
"""

from __future__ import annotations

import itertools
from typing import Any

from testing_services.base import RawBody, Reply, Request, StandInService, overlap_score


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
        self.files: dict[str, dict[str, Any]] = {}
        self.route("GET", r"/v1/files", self._list_files)
        self.route("GET", r"/v1/files/([^/]+)", self._file)
        self.route("GET", r"/v1/files/([^/]+)/content", self._file_content)
        self.route("POST", r"/v1/files/([^/]+)/ingest", self._ingest_file)
        self.route("DELETE", r"/v1/files/([^/]+)", self._delete_file)

    def add_file(self, path: str, data: bytes, mime_type: str = "text/plain") -> str:
        """Put a file in the stand-in's store (as an upload would); returns its id."""
        file_id = f"file_{next(self._ids)}"
        self.files[file_id] = {
            "id": file_id,
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "rdb_uri": f"rdb://default{path}",
            "mime_type": mime_type,
            "size": len(data),
            "data": data,
        }
        return file_id

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

    def _file_info(self, file_id: str) -> dict[str, Any]:
        info = self.files.get(file_id)
        if info is None:
            raise Reply(404, self.error_body(404, f"file {file_id} not found"))
        return {k: v for k, v in info.items() if k != "data"}

    def _list_files(self, req: Request) -> Any:
        prefix = req.params.get("prefix", "")
        found = [self._file_info(i) for i, f in self.files.items() if f["path"].startswith(prefix)]
        return {"files": found[: int(req.params.get("limit") or 50)], "count": len(found)}

    def _file(self, req: Request) -> Any:
        return {"file": self._file_info(req.groups[0])}

    def _file_content(self, req: Request) -> Any:
        info = self._file_info(req.groups[0])
        return RawBody(self.files[info["id"]]["data"], info["mime_type"])

    def _ingest_file(self, req: Request) -> Any:
        info = self._file_info(req.groups[0])
        body = req.body if isinstance(req.body, dict) else {}
        lines = [
            line.strip() for line in self.files[info["id"]]["data"].decode("utf-8", "replace").splitlines()
        ]
        for line in filter(None, lines):
            self._store("default", str(body.get("user_id") or "default"), "file", line, "factual", 0.5)
        return {"status": "ingested", "file_id": info["id"], "memories": len([x for x in lines if x])}

    def _delete_file(self, req: Request) -> Any:
        self._file_info(req.groups[0])
        del self.files[req.groups[0]]
        return {"deleted": True, "id": req.groups[0]}
