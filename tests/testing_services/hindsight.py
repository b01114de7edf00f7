"""A loopback STAND-IN for the Hindsight API (not Hindsight: no LLM, no graph, word-overlap recall).

Routes the official ``hindsight-client`` calls for silcrow's adapter:
``GET /version``, ``POST /v1/default/banks/{bank}/memories`` (retain),
``POST /v1/default/banks/{bank}/memories/recall``,
``POST /v1/default/banks/{bank}/reflect`` and
``DELETE /v1/default/banks/{bank}/documents/{document_id}``. With a key,
every request needs ``Authorization: Bearer KEY``; a retain needs a non-empty
``items`` list whose items have string ``content`` and string-only
``metadata``; a recall or reflect needs ``query``. Errors use FastAPI's
``{"detail": ...}`` shape (401, 404, 422).

What it stores: each retained item becomes facts, one per message when the
content is a JSON list of ``{role, content}`` messages or of turns that are
such lists (as the Hermes plugin retains them), else one; each fact is kept as a ``world`` fact and, as a
stand-in for Hindsight's LLM consolidation, as an ``observation`` too. A
retain into an existing ``document_id`` replaces that document, unless the
item says ``update_mode: "append"``. ``reflect`` answers with the best
matching facts strung together: it does not reason.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from testing_services.base import Request, StandInService, overlap_score

API_VERSION = "1.1.0"
_FEATURES = ("observations", "mcp", "worker", "bank_config_api", "bank_llm_health", "file_upload_api",
             "document_export_api", "document_import_api", "audit_log", "llm_trace", "store_document_text")
_BANK = r"/v1/default/banks/([^/]+)"


def _facts_of(content: str) -> list[str]:
    """One fact per message of a JSON transcript (a list of messages, or of turns that are lists)."""
    try:
        parsed = json.loads(content)
    except json.JSONDecodeError:
        return [content]
    if not isinstance(parsed, list):
        return [content]
    messages = [m for entry in parsed for m in (entry if isinstance(entry, list) else [entry])]
    if all(isinstance(m, dict) and isinstance(m.get("content"), str) for m in messages):
        return [m["content"] for m in messages if m["content"].strip()]
    return [content]


class HindsightStandIn(StandInService):
    service = "hindsight"

    def __init__(self, api_key: str | None = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key or "", **kwargs)
        self.require_key = bool(api_key)
        self.api_version = API_VERSION  # set an older one to test clients of servers before 0.5.0
        self.facts: list[dict[str, Any]] = []
        self.retains: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self.route("GET", r"/version", self._version)
        self.route("POST", _BANK + r"/memories", self._retain)
        self.route("POST", _BANK + r"/memories/recall", self._recall)
        self.route("POST", _BANK + r"/reflect", self._reflect)
        self.route("DELETE", _BANK + r"/documents/([^/]+)", self._delete_document)

    def error_body(self, status: int, message: str) -> Any:
        return {"detail": message}

    def check_auth(self, req: Request) -> None:
        if self.require_key:
            super().check_auth(req)
        elif "authorization" in req.headers:
            raise self.violation(401, f"{req.method} {req.path}: this server takes no API key")

    def _version(self, req: Request) -> Any:
        return {"api_version": self.api_version, "features": dict.fromkeys(_FEATURES, False)}

    def _retain(self, req: Request) -> Any:
        bank = req.groups[0]
        body = self.body_fields(req, "items")
        items = body["items"]
        if not isinstance(items, list) or not items:
            raise self.violation(422, "retain: items must be a non-empty list")
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("content"), str) or not item["content"]:
                raise self.violation(422, "retain: every item needs a non-empty string 'content'")
            metadata = item.get("metadata") or {}
            if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
                raise self.violation(422, "retain: metadata values must be strings")
            if item.get("update_mode") not in (None, "replace", "append"):
                raise self.violation(422, f"retain: unknown update_mode {item['update_mode']!r}")
        for item in items:
            document = item.get("document_id")
            if document and item.get("update_mode") != "append":
                self.facts = [f for f in self.facts if (f["bank"], f["document_id"]) != (bank, document)]
            for text in _facts_of(item["content"]):
                for kind in ("world", "observation"):
                    self.facts.append({
                        "id": f"fact-{next(self._ids)}", "bank": bank, "text": text, "type": kind,
                        "document_id": document, "tags": list(item.get("tags") or []),
                        "context": item.get("context"), "metadata": item.get("metadata") or {}})
            self.retains.append({"bank": bank, **item, "async": bool(body.get("async"))})
        done = bool(body.get("async"))
        return {"success": True, "bank_id": bank, "items_count": len(items), "async": done}

    def _matching(self, bank: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        types = body.get("types") or ["world", "experience", "observation"]
        tags = set(body.get("tags") or [])
        strict = str(body.get("tags_match") or "any").endswith("strict")
        scored = []
        for fact in self.facts:
            if fact["bank"] != bank or fact["type"] not in types:
                continue
            if tags and not (tags & set(fact["tags"]) or (not fact["tags"] and not strict)):
                continue
            score = overlap_score(str(body["query"]), fact["text"])
            if score > 0:
                scored.append((score, fact))
        scored.sort(key=lambda sf: -sf[0])
        return [fact for _, fact in scored]

    def _recall(self, req: Request) -> Any:
        body = self.body_fields(req, "query")
        if body.get("budget") not in (None, "low", "mid", "high"):
            raise self.violation(422, f"recall: budget must be low, mid or high, got {body['budget']!r}")
        found = self._matching(req.groups[0], body)[:20]
        keys = ("id", "text", "type", "document_id", "tags", "context", "metadata")
        return {"results": [{k: f[k] for k in keys if f.get(k) not in (None, [], {})} for f in found]}

    def _reflect(self, req: Request) -> Any:
        body = self.body_fields(req, "query")
        found = self._matching(req.groups[0], {**body, "types": ["observation"]})[:5]
        if not found:
            return {"text": "I have no memories about that."}
        return {"text": "From memory (stand-in, no reasoning): " + " ".join(f["text"] for f in found)}

    def _delete_document(self, req: Request) -> Any:
        bank, document = req.groups
        before = len(self.facts)
        self.facts = [f for f in self.facts if not (f["bank"] == bank and f["document_id"] == document)]
        deleted = before - len(self.facts)
        if not deleted:
            raise self.violation(404, f"document {document!r} not found in bank {bank!r}")
        return {"success": True, "message": "Document deleted", "document_id": document,
                "memory_units_deleted": deleted}
