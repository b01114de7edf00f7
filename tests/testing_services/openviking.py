"""A loopback STAND-IN for an OpenViking server (not OpenViking: no extraction model, no VLM).

Routes (OpenViking's ``/api/v1`` HTTP API, responses wrapped as
``{"status": "ok", "result": ...}``, errors as ``{"status": "error",
"error": {"code", "message"}}``): ``POST sessions/{id}/messages/batch``,
``POST sessions/{id}/commit`` (turns each committed user message into a
memory file, standing in for extraction), ``POST search/find`` and
``search/search``, ``GET content/read|abstract|overview``, ``GET fs/ls|tree|stat``,
``DELETE fs``, ``POST content/write``, ``POST resources``.

Auth as OpenViking's: with an API key, ``X-API-Key`` must match; without
one (trusted mode), ``X-OpenViking-Account`` and ``X-OpenViking-User`` are
required.
"""

from __future__ import annotations

import itertools
from typing import Any

from testing_services.base import Reply, Request, StandInService, overlap_score


class OpenVikingStandIn(StandInService):
    service = "openviking"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.files: dict[str, str] = {}  # viking:// URI -> content
        self.sessions: dict[str, list[dict[str, Any]]] = {}
        self.commits: list[str] = []
        self.resources: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        api = "/api/v1"
        self.route("POST", api + r"/sessions/([^/]+)/messages/batch", self._batch)
        self.route("POST", api + r"/sessions/([^/]+)/commit", self._commit)
        self.route("POST", api + r"/search/(find|search)", self._search)
        self.route("GET", api + r"/content/(read|abstract|overview)", self._read)
        self.route("POST", api + r"/content/write", self._write)
        self.route("GET", api + r"/fs/(ls|tree|stat)", self._fs)
        self.route("DELETE", api + r"/fs", self._delete)
        self.route("POST", api + r"/resources", self._resource)

    def error_body(self, status: int, message: str) -> Any:
        code = {401: "UNAUTHENTICATED", 404: "NOT_FOUND", 422: "INVALID_ARGUMENT", 429: "RATE_LIMITED"}
        return {"status": "error", "error": {"code": code.get(status, "INTERNAL"), "message": message}}

    def check_auth(self, req: Request) -> None:
        if self.api_key:
            if req.headers.get("x-api-key") != self.api_key:
                raise self.violation(401, f"{req.method} {req.path}: missing or wrong X-API-Key header")
        elif not (req.headers.get("x-openviking-account") and req.headers.get("x-openviking-user")):
            raise self.violation(401, "Trusted mode requests must include X-OpenViking-Account and -User")

    @staticmethod
    def _ok(result: Any) -> Any:
        return {"status": "ok", "result": result}

    def _uri(self, req: Request) -> str:
        uri = req.params.get("uri", "")
        if not uri.startswith("viking://"):
            raise self.violation(422, f"{req.method} {req.path}: uri must be a viking:// URI, got {uri!r}")
        return uri

    def _batch(self, req: Request) -> Any:
        body = self.body_fields(req, "messages")
        for message in body["messages"]:
            parts = message.get("parts") if isinstance(message, dict) else None
            if (
                message.get("role") not in {"user", "assistant"}
                or not isinstance(parts, list)
                or not all(
                    isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
                    for p in parts
                )
            ):
                raise self.violation(422, "messages/batch: each message needs a role and text parts")
        self.sessions.setdefault(req.groups[0], []).extend(body["messages"])
        return self._ok({"session_id": req.groups[0], "added": len(body["messages"])})

    def _commit(self, req: Request) -> Any:
        sid = req.groups[0]
        if sid not in self.sessions:
            raise Reply(404, self.error_body(404, f"session {sid} not found"))
        self.commits.append(sid)
        extracted = 0
        for message in self.sessions.pop(sid):
            if message["role"] == "user":
                text = " ".join(p["text"] for p in message["parts"]).strip()
                if text:
                    self.files[f"viking://user/memories/events/mem_{next(self._ids)}.md"] = text
                    extracted += 1
        return self._ok({"session_id": sid, "status": "committed", "memories_extracted": extracted})

    def _search(self, req: Request) -> Any:
        body = self.body_fields(req, "query")
        scope = str(body.get("target_uri") or "viking://")
        limit = int(body.get("limit") or 10)
        hits: list[dict[str, Any]] = []
        for uri, text in self.files.items():
            score = overlap_score(body["query"], text)
            if uri.startswith(scope) and score > 0:
                category = uri.split("/memories/")[-1].split("/")[0] if "/memories/" in uri else "resource"
                hits.append(
                    {
                        "uri": uri,
                        "abstract": text[:200],
                        "score": round(score, 3),
                        "category": category,
                        "level": 2,
                    }
                )
        hits.sort(key=lambda h: -h["score"])
        memories = [h for h in hits if "/memories/" in h["uri"]][:limit]
        resources = [h for h in hits if "/memories/" not in h["uri"]][:limit]
        return self._ok(
            {
                "memories": memories,
                "resources": resources,
                "skills": [],
                "total": len(memories) + len(resources),
            }
        )

    def _read(self, req: Request) -> Any:
        uri = self._uri(req)
        if uri not in self.files:
            raise Reply(404, self.error_body(404, f"{uri} not found"))
        text = self.files[uri]
        return self._ok(text if req.groups[0] == "read" else text[:200])

    def _write(self, req: Request) -> Any:
        body = self.body_fields(req, "uri", "content", "mode")
        if not str(body["uri"]).startswith("viking://") or body["mode"] not in {"create", "replace"}:
            raise self.violation(422, "content/write: uri must be viking:// and mode create or replace")
        if body["mode"] == "create" and body["uri"] in self.files:
            raise Reply(409, self.error_body(409, f"{body['uri']} already exists"))
        self.files[body["uri"]] = body["content"]
        return self._ok({"uri": body["uri"], "written_bytes": len(body["content"].encode("utf-8"))})

    def _fs(self, req: Request) -> Any:
        uri = self._uri(req)
        if req.groups[0] == "stat":
            if uri in self.files:
                return self._ok({"uri": uri, "isDir": False, "size": len(self.files[uri])})
            if any(u.startswith(uri.rstrip("/") + "/") for u in self.files):
                return self._ok({"uri": uri, "isDir": True})
            raise Reply(404, self.error_body(404, f"{uri} not found"))
        prefix = uri.rstrip("/") + "/"
        entries = [
            {"uri": u, "rel_path": u[len(prefix) :], "isDir": False, "abstract": t[:100]}
            for u, t in sorted(self.files.items())
            if u.startswith(prefix)
        ]
        return self._ok(entries)

    def _delete(self, req: Request) -> Any:
        uri = self._uri(req)
        if self.files.pop(uri, None) is None:
            raise Reply(404, self.error_body(404, f"{uri} not found"))
        return self._ok({"uri": uri, "estimated_deleted_count": 1})

    def _resource(self, req: Request) -> Any:
        body = self.body_fields(req, "path")
        self.resources.append(body)
        return self._ok({"root_uri": f"viking://resources/r{len(self.resources)}", "status": "queued"})
