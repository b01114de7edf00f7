"""A loopback STAND-IN for the RetainDB server (not RetainDB; no ranking model behind it).

The memory routes follow the open-source server, RetainDB's
``packages/server/src/api/memory.ts`` and ``routes.ts`` (read from the
public mirror ``Ubsefor/RetainDB`` at commit 2379c82), and are as strict as
their zod schemas where the adapter depends on it: a body that fails
validation is the 400 ``zValidator`` answers; ``z.string().datetime()``
takes UTC with ``Z`` only (an offset such as ``+00:00`` is refused);
lengths and ranges (``content`` 1..10000, ``query`` 1..5000, ``top_k``
1..50, ``importance`` 0..1) and enums (``memory_type``, ``write_mode``)
are checked; ``project`` is optional. Answers have the server's shapes:
``POST /v1/memory`` is a 201 with ``memory_id`` and ``memory`` (sync) or a
202 job (``write_mode: "async"``); search hits are nested
(``{"memory": {...}, "similarity"}``); errors are
``{"success": false, "error": {"code", "message"}}`` or ``{"error": ...}``
as each route answers them.

``POST /v1/memory/dialectic`` is not in that commit's route files; it
stands in for the server's user-synthesis route with the fields the adapter
sends (``project``, ``user_id``, ``query``) and answers ``{"answer": ...}``.
The file routes (``/v1/files...``) are not in that commit either; they keep
the shapes the Hermes plugin reads, and file content answers a 302 to a
presigned URL (served here under ``/presigned/``), as the hosted service
does. Files are put in with :meth:`RetainDBStandIn.add_file`.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime
from typing import Any

from testing_services.base import RawBody, Reply, Request, StandInService, overlap_score

# memory.ts MEMORY_TYPE_VALUES
MEMORY_TYPES = {
    "factual", "episodic", "semantic", "procedural", "preference", "event", "relationship", "opinion",
    "goal", "instruction", "decision", "constraint", "solution", "project_state", "correction", "workflow",
}
# zod's string().datetime() without options: UTC only, "Z", optional fractional seconds.
_ZOD_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


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
        self.route("POST", r"/v1/memory/dialectic", self._dialectic)
        self.route("POST", r"/v1/memory/ingest/session", self._ingest)
        self.route("DELETE", r"/v1/memory/([^/]+)", self._delete)
        self.files: dict[str, dict[str, Any]] = {}
        self.route("GET", r"/v1/files", self._list_files)
        self.route("GET", r"/v1/files/([^/]+)", self._file)
        self.route("GET", r"/v1/files/([^/]+)/content", self._file_content)
        self.route("GET", r"/presigned/([^/]+)", self._presigned)
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
        return {"success": False, "error": {"code": "VALIDATION_ERROR" if status == 400 else "ERROR",
                                            "message": message}}

    def check_auth(self, req: Request) -> None:
        if req.path.startswith("/presigned/"):
            if req.headers.get("authorization") or req.headers.get("x-api-key"):
                raise self.violation(400, "a presigned URL must not be sent the API key")
            return
        super().check_auth(req)
        if req.headers.get("x-api-key") != self.api_key:
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong X-API-Key header")

    # -- zod-like validation ----------------------------------------------------------------
    def _invalid(self, req: Request, why: str) -> Reply:
        return self.violation(400, f"{req.method} {req.path}: {why}")

    def _body(self, req: Request) -> dict[str, Any]:
        if not isinstance(req.body, dict):
            raise self._invalid(req, "the body must be a JSON object")
        return req.body

    def _text(self, req: Request, body: dict[str, Any], key: str, *, lo: int = 0, hi: int = 10**9,
              required: bool = False) -> str | None:
        value = body.get(key)
        if value is None:
            if required:
                raise self._invalid(req, f"{key}: Required")
            return None
        if not isinstance(value, str) or not lo <= len(value) <= hi:
            raise self._invalid(req, f"{key}: expected a string of {lo}..{hi} characters")
        return value

    def _number(self, req: Request, body: dict[str, Any], key: str, lo: float, hi: float,
                default: float, *, integer: bool = False) -> float:
        value = body.get(key, default)
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or not lo <= value <= hi:
            kind = "an integer" if integer else "a number"
            raise self._invalid(req, f"{key}: expected {kind} in {lo}..{hi}")
        return value

    def _datetime(self, req: Request, value: Any, key: str) -> None:
        if not isinstance(value, str) or not _ZOD_DATETIME.fullmatch(value):
            raise self._invalid(req, f"{key}: Invalid datetime (UTC with Z only, got {value!r})")

    # -- memories ---------------------------------------------------------------------------
    def _store(self, project: str, user: str | None, session: str | None, content: str, kind: str,
               importance: float) -> dict[str, Any]:
        memory_id = f"mem_{next(self._ids)}"
        self.memories[memory_id] = {
            "id": memory_id, "project": project, "user_id": user, "session_id": session,
            "content": content, "memory_type": kind, "importance": importance, "created_at": _now(),
        }
        return self.memories[memory_id]

    def _ranked(self, project: str, user: str | None, query: str, k: int) -> list[dict[str, Any]]:
        hits = []
        for memory in self.memories.values():
            if memory["project"] == project and (user is None or memory["user_id"] == user):
                score = overlap_score(query, memory["content"])
                if score > 0:
                    hits.append((score, memory))
        hits.sort(key=lambda h: (-h[0], h[1]["id"]))
        return [{**m, "score": round(score, 3)} for score, m in hits[:k]]

    @staticmethod
    def _public(m: dict[str, Any]) -> dict[str, Any]:
        return {"id": m["id"], "content": m["content"], "type": m["memory_type"], "user_id": m["user_id"],
                "session_id": m["session_id"], "importance": m["importance"],
                "created_at": m.get("created_at")}

    def _add(self, req: Request) -> Any:
        # memory.ts: memoryRoutes.post("/v1/memory")
        body = self._body(req)
        content = self._text(req, body, "content", lo=1, hi=10000, required=True)
        kind = body.get("memory_type", "factual")
        if kind not in MEMORY_TYPES:
            raise self._invalid(req, f"memory_type: Invalid enum value {kind!r}")
        importance = self._number(req, body, "importance", 0, 1, 0.5)
        for key in ("document_date", "event_date"):
            if key in body:
                self._datetime(req, body[key], key)
        mode = body.get("write_mode", "sync")
        if mode not in {"sync", "async"}:
            raise self._invalid(req, f"write_mode: Invalid enum value {mode!r}")
        project = self._text(req, body, "project") or "default"
        user, session = self._text(req, body, "user_id"), self._text(req, body, "session_id")
        assert content is not None
        memory = self._store(project, user, session, content, str(kind), float(importance))
        if mode == "async":
            raise Reply(202, {"success": True, "mode": "async", "job_id": f"job_{memory['id']}",
                              "status_url": f"/v1/memory/jobs/job_{memory['id']}",
                              "message": "Memory creation queued for processing"})
        raise Reply(201, {"success": True, "mode": "sync", "memory_id": memory["id"],
                          "memory": self._public(memory), "write_outcome": "created"})

    def _search(self, req: Request) -> Any:
        # memory.ts: memoryRoutes.post("/v1/memory/search"); hits are nested under "memory"
        body = self._body(req)
        query = self._text(req, body, "query", lo=1, hi=5000, required=True)
        top_k = int(self._number(req, body, "top_k", 1, 50, 10, integer=True))
        project = self._text(req, body, "project") or "default"
        assert query is not None
        hits = self._ranked(project, self._text(req, body, "user_id"), query, top_k)
        results = [{"memory": self._public(h), "similarity": h["score"], "relations": []} for h in hits]
        return {"results": results, "count": len(results), "query": query}

    def _context(self, req: Request) -> Any:
        # routes.ts: api.post("/v1/context/query"); results are flat {id, content, score, ...}
        body = self._body(req)
        query = self._text(req, body, "query", lo=1, hi=5000, required=True)
        top_k = int(self._number(req, body, "top_k", 1, 50, 10, integer=True))
        if "max_tokens" in body:
            self._number(req, body, "max_tokens", -(2**31), 2**31, 0, integer=True)
        project = self._text(req, body, "project") or "default"
        assert query is not None
        hits = self._ranked(project, self._text(req, body, "user_id"), query, top_k) if body.get(
            "include_memories") else []
        results = [{"id": h["id"], "content": h["content"], "score": h["score"]} for h in hits]
        return {"results": results, "context": "\n".join(h["content"] for h in hits),
                "meta": {"query": query, "total": len(results)}}

    def _profile(self, req: Request) -> Any:
        # memory.ts: memoryRoutes.get("/v1/memory/profile/:userId")
        user = req.groups[0]
        project = req.params.get("project") or "default"
        facts = [self._public(m) for m in self.memories.values()
                 if m["user_id"] == user and m["project"] == project]
        return {"user_id": user, "memories": facts[-100:], "count": len(facts)}

    def _dialectic(self, req: Request) -> Any:
        body = self._body(req)
        query = self._text(req, body, "query", lo=1, hi=5000, required=True)
        user = self._text(req, body, "user_id", lo=1, required=True)
        assert query is not None
        hits = self._ranked(self._text(req, body, "project") or "default", user, query, 2)
        return {"answer": " ".join(h["content"] for h in hits)}

    def _ingest(self, req: Request) -> Any:
        # memory.ts: memoryRoutes.post("/v1/memory/ingest/session")
        body = self._body(req)
        session = self._text(req, body, "session_id", required=True)
        messages = body.get("messages")
        if not isinstance(messages, list):
            raise self._invalid(req, "messages: Required (an array)")
        for i, message in enumerate(messages):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str) or not isinstance(
                message.get("content"), str
            ):
                raise self._invalid(req, f"messages.{i}: role and content must be strings")
            self._datetime(req, message.get("timestamp"), f"messages.{i}.timestamp")
        project = self._text(req, body, "project") or "default"
        user = self._text(req, body, "user_id")
        assert session is not None
        self.sessions.setdefault(session, []).extend(messages)
        made = 0
        for message in messages:
            if message["role"] == "user" and message["content"].strip():
                self._store(project, user, session, message["content"], "event", 0.5)
                made += 1
        return {"success": True, "mode": "sync", "session_id": session, "messages_processed": len(messages),
                "memories_created": made}

    def _delete(self, req: Request) -> Any:
        # memory.ts: memoryRoutes.delete("/v1/memory/:memoryId")
        if self.memories.pop(req.groups[0], None) is None:
            raise Reply(404, {"error": "Memory not found"})
        return {"success": True, "message": "Memory deleted", "memory_id": req.groups[0]}

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
        raise Reply(302, {}, {"Location": f"{self.base_url}/presigned/{info['id']}"})

    def _presigned(self, req: Request) -> Any:
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
