"""The same calls as :mod:`.api`, through the 3.x ``supermemory`` SDK (the one Hermes' plugin uses).

3.x speaks the v3/v4 routes: documents carry ``containerTags``, search and
profile take a ``containerTag``, a memory is forgotten one id at a time.
Each answer is checked like the 5.x ones.
"""

from __future__ import annotations

from typing import Any

from silcrow.errors import ServiceError
from silcrow.providers._validate import as_dict, as_list, field
from silcrow.providers.supermemory._api import SERVICE, client_class, plain

# Hermes' search_mode values are this API's; "chunks" (a v5 name) maps back.
_MODES = {"hybrid": "hybrid", "memories": "memories", "documents": "documents", "chunks": "documents"}


class SupermemoryApiV3:
    def __init__(self, api_key: str, base_url: str, timeout: float, search_mode: str = "hybrid") -> None:
        self.mode = _MODES.get(search_mode, "hybrid")
        self._client: Any = client_class()(
            api_key=api_key,
            base_url=base_url or None,
            timeout=timeout,
            max_retries=0,
            default_headers={"x-sm-source": "silcrow"},
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
        kwargs: dict[str, Any] = {"content": content, "container_tags": [namespace]}
        if doc_id:
            kwargs["custom_id"] = doc_id
        if metadata:
            kwargs["metadata"] = {"sm_source": "silcrow", **metadata}
        if context:
            kwargs["entity_context"] = context[:1500]
        reply = plain(self._client.documents.add(**kwargs), "document response")
        return str(field(SERVICE, "document response", reply, "id", str))

    def search(
        self, namespace: str, query: str, limit: int, *, mode: str | None = None
    ) -> list[dict[str, Any]]:
        reply = plain(
            self._client.search.memories(
                q=query, container_tag=namespace, limit=limit, search_mode=_MODES.get(mode or "", self.mode)
            ),
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
            hits.append(
                {
                    "id": str(field(SERVICE, "search result", item, "id", str)),
                    "memory": text,
                    "similarity": float(
                        field(SERVICE, "search result", item, "similarity", (int, float), default=0.0)
                    ),
                    "updated_at": item.get("updated_at") or "",
                }
            )
        return hits

    def profile(self, namespace: str) -> tuple[list[str], list[str]]:
        reply = plain(self._client.profile(container_tag=namespace), "profile response")
        profile = as_dict(SERVICE, "profile", reply.get("profile") or {})
        out = []
        for key in ("static", "dynamic"):
            facts = as_list(SERVICE, f"profile {key}", profile.get(key) or [])
            if not all(isinstance(f, str) for f in facts):
                raise ServiceError(f"supermemory answered a malformed profile: {key} facts must be strings")
            out.append([str(f) for f in facts])
        return out[0], out[1]

    def forget(self, namespace: str, memory_id: str) -> bool:
        reply = plain(self._client.memories.forget(container_tag=namespace, id=memory_id), "forget response")
        return bool(reply.get("forgotten"))

    def delete_documents(self, namespace: str, ids: list[str]) -> int:
        for doc_id in ids:
            self._client.documents.delete(doc_id)
        return len(ids)
