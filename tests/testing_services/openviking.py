"""A loopback STAND-IN for an OpenViking server (not OpenViking: no extraction model, no VLM).

Routes (OpenViking's ``/api/v1`` HTTP API, responses wrapped as
``{"status": "ok", "result": ...}``, errors as ``{"status": "error",
"error": {"code", "message"}}``): ``POST sessions/{id}/messages/batch``,
``POST sessions/{id}/commit`` (turns each committed user message into a
memory file, standing in for extraction), ``POST search/find`` and
``search/search``, ``GET content/read|abstract|overview``, ``GET fs/ls|tree|stat``,
``DELETE fs``, ``POST content/write``, ``POST resources``.

Auth as OpenViking's: with an API key, ``X-API-Key`` must match; without
one (dev mode), the tenant comes from ``X-OpenViking-Account``/``-User``
(default ``default``). The tests of the provider itself run against the real
server (tests/test_openviking_real.py); this stand-in serves the failure
tests (faults, outages) and follows the 0.5.2 server where the adapter
depends on it: ``viking://~/...`` is the caller's user space and
``viking://user/{reserved}/...`` is a 400 INVALID_URI
(openviking/core/namespace.py ``resolve_current_user_uri``), ``create`` over
an existing file overwrites it (openviking/storage/content_write.py), a busy
resource is a 409 CONFLICT whose ``details.retryable`` is true
(openviking/server/error_mapping.py ``map_exception``).
"""

from __future__ import annotations

import itertools
from typing import Any

from testing_services.base import Reply, Request, StandInService, overlap_score

RESERVED = {"memories", "resources", "skills", "peers", "privacy", "sessions"}


class OpenVikingStandIn(StandInService):
    service = "openviking"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.files: dict[str, str] = {}  # viking:// URI -> content
        self.sessions: dict[str, list[dict[str, Any]]] = {}
        self.commits: list[str] = []
        self.resources: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self.busy_left, self.busy_only = 0, ""
        api = "/api/v1"
        self.route("POST", api + r"/sessions/([^/]+)/messages/batch", self._batch)
        self.route("POST", api + r"/sessions/([^/]+)/commit", self._commit)
        self.route("POST", api + r"/search/(find|search)", self._search)
        self.route("GET", api + r"/content/(read|abstract|overview)", self._read)
        self.route("POST", api + r"/content/write", self._write)
        self.route("GET", api + r"/fs/(ls|tree|stat)", self._fs)
        self.route("DELETE", api + r"/fs", self._delete)
        self.route("POST", api + r"/resources", self._resource)

    def error_body(self, status: int, message: str, code: str = "") -> Any:
        codes = {401: "UNAUTHENTICATED", 404: "NOT_FOUND", 409: "CONFLICT", 422: "INVALID_ARGUMENT",
                 429: "RATE_LIMITED"}
        error: dict[str, Any] = {"code": code or codes.get(status, "INTERNAL"), "message": message}
        if status == 409:
            error["details"] = {"conflict_type": "path_busy", "retryable": True}
        return {"status": "error", "error": error}

    def check_auth(self, req: Request) -> None:
        if self.api_key and req.headers.get("x-api-key") != self.api_key:
            raise self.violation(401, f"{req.method} {req.path}: missing or wrong X-API-Key header")
        req.params["_user"] = req.headers.get("x-openviking-user") or "default"

    def busy(self, *, times: int = 1, only: str = "") -> None:
        """The next ``times`` requests (matching ``only``) answer OpenViking's retryable 409."""
        with self._lock:
            self.busy_left += times
            self.busy_only = only

    def _canonical(self, req: Request, uri: str) -> str:
        """``uri`` with the home alias expanded; the old reserved-name shorthand refused (400)."""
        parts = [p for p in uri[len("viking://") :].split("/") if p]
        user = req.params.get("_user", "default")
        if parts[:1] == ["~"]:
            return "/".join([f"viking://user/{user}", *parts[1:]]).rstrip("/")
        if parts[:1] == ["user"] and len(parts) >= 2 and parts[1] != user and parts[1] in RESERVED:
            rest = "/".join(parts[1:])
            raise Reply(400, self.error_body(400, f"'viking://user/{rest}' no longer expands to the current "
                                             f"user's space: use 'viking://~/{rest}'", code="INVALID_URI"))
        return uri

    @staticmethod
    def _ok(result: Any) -> Any:
        return {"status": "ok", "result": result}

    def _uri(self, req: Request) -> str:
        uri = req.params.get("uri", "")
        if not uri.startswith("viking://"):
            raise self.violation(422, f"{req.method} {req.path}: uri must be a viking:// URI, got {uri!r}")
        return self._canonical(req, uri)

    def _take_busy(self, req: Request) -> None:
        if self.busy_left and self.busy_only in req.path:
            self.busy_left -= 1
            raise Reply(409, self.error_body(409, "Resource is being processed"))

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
                    uri = f"viking://user/{req.params['_user']}/memories/events/mem_{next(self._ids)}.md"
                    self.files[uri] = text
                    extracted += 1
        return self._ok({"session_id": sid, "status": "committed", "memories_extracted": extracted})

    def _search(self, req: Request) -> Any:
        body = self.body_fields(req, "query")
        scope = self._canonical(req, str(body.get("target_uri") or "viking://"))
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
        body = self.body_fields(req, "uri", "content")
        if not str(body["uri"]).startswith("viking://") or body.get("mode", "replace") not in {
            "create", "replace", "append", "upsert"
        }:
            raise self.violation(422, "content/write: uri must be viking://, mode create/replace/append")
        self._take_busy(req)
        uri = self._canonical(req, body["uri"])
        self.files[uri] = body["content"]
        return self._ok({"uri": uri, "written_bytes": len(body["content"].encode("utf-8"))})

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
        self._take_busy(req)
        if self.files.pop(uri, None) is None:
            raise Reply(404, self.error_body(404, f"{uri} not found"))
        return self._ok({"uri": uri, "estimated_deleted_count": 1})

    def _resource(self, req: Request) -> Any:
        body = self.body_fields(req, "path")
        self.resources.append(body)
        return self._ok({"root_uri": f"viking://resources/r{len(self.resources)}", "status": "queued"})
