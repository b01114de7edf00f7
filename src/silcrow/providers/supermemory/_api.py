"""The calls silcrow makes through the ``supermemory`` 5.x SDK, with every answer checked.

The SDK is imported here, lazily, and only here. Its models are lenient
(an answer missing a field still parses), so each one is turned into plain
data and validated: a malformed answer is a ServiceError.
"""

from __future__ import annotations

from typing import Any

from silcrow.errors import ServiceError
from silcrow.providers._validate import as_dict, as_list, field

SERVICE = "supermemory"
# Hermes' search_mode values are the v3/v4 ones; "documents" became "chunks" in v5.
_MODES = {"hybrid": "hybrid", "memories": "memories", "documents": "chunks", "chunks": "chunks"}


def client_class() -> Any:
    """The SDK's client class (3.x or 5.x, whichever is installed)."""
    try:
        from supermemory import Supermemory
    except ImportError as exc:  # is_available said it was installed; a broken install lands here
        raise ServiceError(
            f'the supermemory package cannot be imported ({exc}): pip install "silcrow[supermemory]"',
            permanent=True,
        ) from exc
    return Supermemory


def plain(value: Any, what: str) -> dict[str, Any]:
    dump = getattr(value, "model_dump", None)
    return as_dict(SERVICE, what, dump() if callable(dump) else value)


class SupermemoryApi:
    def __init__(self, api_key: str, base_url: str, timeout: float, search_mode: str = "hybrid") -> None:
        self.mode = _MODES.get(search_mode, "hybrid")
        self._client = client_class()(
            api_key=api_key,
            base_url=base_url or None,
            timeout=timeout,
            max_retries=0,
            headers={"x-sm-source": "silcrow"},
        )

    def add(
        self,
        namespace: str,
        content: str,
        *,
        doc_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        context: str = "",
    ) -> str:
        kwargs: dict[str, Any] = {"content": content}
        if doc_id:
            kwargs["id"] = doc_id
        if metadata:
            kwargs["metadata"] = {"sm_source": "silcrow", **metadata}
        if context:
            kwargs["supporting_context"] = context[:1500]
        reply = plain(self._client.add(namespace, **kwargs), "document response")
        return str(field(SERVICE, "document response", reply, "id", str))

    def search(
        self, namespace: str, query: str, limit: int, *, mode: str | None = None
    ) -> list[dict[str, Any]]:
        """Hits as ``{id, memory, similarity, updated_at}`` (chunks count as memories' text)."""
        reply = plain(
            self._client.search(namespace, query=query, limit=limit, search_mode=mode or self.mode),
            "search response",
        )
        hits = []
        for raw in as_list(SERVICE, "search results", reply.get("results")):
            item = as_dict(SERVICE, "search result", raw)
            text = item.get("memory") or item.get("chunk") or ""
            if not isinstance(text, str):
                raise ServiceError(
                    f"supermemory answered a search result whose text is {type(text).__name__}"
                )
            system = item["system"] if isinstance(item.get("system"), dict) else {}
            hits.append(
                {
                    "id": str(field(SERVICE, "search result", item, "id", str)),
                    "memory": text,
                    "similarity": float(
                        field(SERVICE, "search result", item, "similarity", (int, float), default=0.0)
                    ),
                    "updated_at": system.get("updated_at") or "",
                }
            )
        return hits

    def profile(self, namespace: str) -> tuple[list[str], list[str]]:
        """``(static facts, dynamic facts)`` of the namespace's profile."""
        reply = plain(self._client.profile(namespace), "profile response")
        profile = as_dict(SERVICE, "profile", reply.get("profile"))
        out: list[list[str]] = []
        for key in ("static", "dynamic"):
            facts = as_list(SERVICE, f"profile {key}", profile.get(key) or [])
            out.append([str(field(SERVICE, f"profile {key} fact", f, "memory", str)) for f in facts])
        return out[0], out[1]

    def forget(self, namespace: str, memory_id: str) -> bool:
        reply = plain(self._client.memories.forget(namespace, ids=[memory_id]), "forget response")
        errors = as_list(SERVICE, "forget errors", reply.get("errors") or [])
        if errors:
            raise ServiceError(
                f"supermemory could not forget {memory_id}: {errors[0]}", status=404, permanent=True
            )
        return int(field(SERVICE, "forget response", reply, "count", int, default=0)) > 0

    def delete_documents(self, namespace: str, ids: list[str]) -> int:
        reply = plain(self._client.documents.delete(namespace, ids=ids), "delete response")
        return int(field(SERVICE, "delete response", reply, "count", int, default=0))
