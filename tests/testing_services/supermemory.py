"""A loopback STAND-IN for the Supermemory v5 API (not Supermemory: no extraction, no embeddings).

Routes of the namespace API the ``supermemory`` 5.x SDK calls, with its JSON
field names: ``POST /ns/{ns}/document`` (a known ``id`` appends to that
document), ``DELETE /ns/{ns}/document`` (``ids``), ``POST /ns/{ns}/search``,
``POST /ns/{ns}/profile``, ``DELETE /ns/{ns}/memories`` (``ids``). Each
document becomes one memory at once (the real service extracts them
asynchronously). ``Authorization: Bearer KEY`` is required; errors are
``{"error", "details"}``.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime
from typing import Any

from testing_services.base import Reply, Request, StandInService, overlap_score

_MODES = {"hybrid", "memories", "chunks"}
_USER_PART = re.compile(r"\[role: user\](.*?)\[user:end\]", re.DOTALL)


class SupermemoryStandIn(StandInService):
    service = "supermemory"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.documents: dict[tuple[str, str], dict[str, Any]] = {}  # (namespace, id) -> document
        self.memories: dict[tuple[str, str], dict[str, Any]] = {}  # (namespace, id) -> memory
        self._ids = itertools.count(1)
        self.route("POST", r"/ns/([^/]+)/document", self._add)
        self.route("DELETE", r"/ns/([^/]+)/document", self._delete_documents)
        self.route("POST", r"/ns/([^/]+)/search", self._search)
        self.route("POST", r"/ns/([^/]+)/profile", self._profile)
        self.route("DELETE", r"/ns/([^/]+)/memories", self._forget)
        # The v3/v4 routes of the 3.x client (Hermes' plugin uses it): same store, container tag = namespace.
        self.route("POST", r"/v3/documents", self._v3_add)
        self.route("DELETE", r"/v3/documents/([^/]+)", self._v3_delete)
        self.route("POST", r"/v4/search", self._v4_search)
        self.route("POST", r"/v4/profile", self._v4_profile)
        self.route("DELETE", r"/v4/memories", self._v4_forget)

    def error_body(self, status: int, message: str) -> Any:
        return {"error": message, "details": f"HTTP {status}"}

    def _add(self, req: Request) -> Any:
        ns = req.groups[0]
        body = self.body_fields(req, "content")
        metadata = body.get("metadata") or {}
        if not isinstance(metadata, dict) or not all(
            isinstance(v, str | int | float | bool) for v in metadata.values()
        ):
            raise self.violation(422, "document: metadata values must be strings, numbers or booleans")
        doc_id = str(body.get("id") or f"doc_{next(self._ids)}")
        now = datetime.now(UTC).isoformat()
        doc = self.documents.get((ns, doc_id))
        if doc is None:
            doc = self.documents[(ns, doc_id)] = {"id": doc_id, "content": "", "metadata": metadata}
        doc["content"] = (doc["content"] + "\n" + body["content"]).strip()
        mem_id = f"mem_{next(self._ids)}"
        # Standing in for extraction: of a transcript in the [role: user]...[user:end] layout the
        # user's words are the memory; any other document is one memory as it is.
        said = _USER_PART.findall(body["content"])
        self.memories[(ns, mem_id)] = {
            "id": mem_id,
            "memory": " ".join(s.strip() for s in said) if said else body["content"],
            "document": doc_id,
            "metadata": metadata,
            "static": metadata.get("type") in {"explicit_memory", "preference"},
            "updatedAt": now,
        }
        return {"id": doc_id, "status": "queued"}

    def _ids_of(self, req: Request) -> list[str]:
        ids = self.body_fields(req, "ids")["ids"]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise self.violation(422, f"{req.path}: ids must be a list of strings")
        return ids

    def _delete_documents(self, req: Request) -> Any:
        ns, count, errors = req.groups[0], 0, []
        for doc_id in self._ids_of(req):
            if self.documents.pop((ns, doc_id), None) is None:
                errors.append({"id": doc_id, "error": "not found"})
                continue
            count += 1
            for key in [k for k, m in self.memories.items() if k[0] == ns and m["document"] == doc_id]:
                del self.memories[key]
        return {"count": count, "errors": errors}

    def _search(self, req: Request) -> Any:
        ns = req.groups[0]
        body = self.body_fields(req, "query")
        mode = body.get("searchMode") or "hybrid"
        if mode not in _MODES:
            raise self.violation(422, f"search: searchMode must be one of {sorted(_MODES)}, got {mode!r}")
        results = []
        if mode in {"hybrid", "memories"}:
            for (space, _), memory in self.memories.items():
                score = overlap_score(body["query"], memory["memory"])
                if space == ns and score > 0:
                    results.append(
                        {
                            "id": memory["id"],
                            "memory": memory["memory"],
                            "metadata": memory["metadata"],
                            "similarity": round(score, 3),
                            "isLatest": True,
                            "isInference": False,
                            "system": {"updatedAt": memory["updatedAt"]},
                        }
                    )
        if mode in {"hybrid", "chunks"}:
            for (space, doc_id), doc in self.documents.items():
                score = overlap_score(body["query"], doc["content"]) * 0.9
                if space == ns and score > 0 and mode == "chunks":
                    results.append(
                        {
                            "id": f"{doc_id}#0",
                            "chunk": doc["content"][:500],
                            "metadata": doc["metadata"],
                            "similarity": round(score, 3),
                            "isLatest": True,
                            "isInference": False,
                            "system": {"updatedAt": datetime.now(UTC).isoformat()},
                        }
                    )
        results.sort(key=lambda r: -r["similarity"])
        return {"results": results[: int(body.get("limit") or 10)], "searchTime": 1.0}

    def _profile(self, req: Request) -> Any:
        ns = req.groups[0]
        mine = [m for (space, _), m in self.memories.items() if space == ns]
        static = [{"id": m["id"], "memory": m["memory"]} for m in mine if m["static"]]
        dynamic = [{"id": m["id"], "memory": m["memory"]} for m in mine if not m["static"]][-5:]
        return {"profile": {"static": static, "dynamic": dynamic, "buckets": {}}}

    def _forget(self, req: Request) -> Any:
        ns, matches, errors = req.groups[0], [], []
        for mem_id in self._ids_of(req):
            memory = self.memories.pop((ns, mem_id), None)
            if memory is None:
                errors.append({"id": mem_id, "error": "not found"})
            else:
                matches.append({"id": mem_id, "memory": memory["memory"]})
        return {"count": len(matches), "errors": errors, "matches": matches}

    # -- the v3/v4 API -------------------------------------------------------------------------

    def _tag(self, req: Request, key: str = "containerTag") -> str:
        body = self.body_fields(req, key)
        tag = body[key]
        if not isinstance(tag, str):
            raise self.violation(422, f"{req.path}: {key} must be a string")
        return tag

    def _v3_add(self, req: Request) -> Any:
        body = self.body_fields(req, "content", "containerTags")
        tags = body["containerTags"]
        if not isinstance(tags, list) or len(tags) != 1 or not isinstance(tags[0], str):
            raise self.violation(422, "v3 documents: containerTags must hold one tag")
        v5 = {"content": body["content"], "id": body.get("customId"), "metadata": body.get("metadata")}
        return self._add(Request(req.method, req.path, req.params, req.headers, v5, (tags[0],)))

    def _v3_delete(self, req: Request) -> Any:
        doc_id = req.groups[0]
        for ns, known in list(self.documents):
            if known == doc_id:
                self._delete_documents(Request("DELETE", req.path, {}, req.headers, {"ids": [doc_id]}, (ns,)))
                return None
        raise Reply(404, self.error_body(404, f"document {doc_id} not found"))

    def _v4_search(self, req: Request) -> Any:
        tag = self._tag(req)
        body = self.body_fields(req, "q")
        mode = {"documents": "chunks"}.get(
            body.get("searchMode") or "hybrid", body.get("searchMode") or "hybrid"
        )
        v5 = {"query": body["q"], "searchMode": mode, "limit": body.get("limit")}
        found = self._search(Request(req.method, req.path, req.params, req.headers, v5, (tag,)))
        results = [
            {
                "id": r["id"],
                "memory": r.get("memory"),
                "chunk": r.get("chunk"),
                "similarity": r["similarity"],
                "metadata": r["metadata"],
                "updatedAt": r["system"]["updatedAt"],
            }
            for r in found["results"]
        ]
        return {"results": results, "timing": 1.0, "total": len(results)}

    def _v4_profile(self, req: Request) -> Any:
        tag = self._tag(req)
        profile = self._profile(Request(req.method, req.path, req.params, req.headers, {}, (tag,)))["profile"]
        return {
            "profile": {
                "static": [f["memory"] for f in profile["static"]],
                "dynamic": [f["memory"] for f in profile["dynamic"]],
            }
        }

    def _v4_forget(self, req: Request) -> Any:
        tag = self._tag(req)
        mem_id = self.body_fields(req, "id")["id"]
        if self.memories.pop((tag, mem_id), None) is None:
            raise Reply(404, self.error_body(404, f"memory {mem_id} not found"))
        return {"id": mem_id, "forgotten": True}
