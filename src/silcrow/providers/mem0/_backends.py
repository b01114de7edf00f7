"""The two ways silcrow talks to mem0, behind one small interface.

* :class:`PlatformBackend`: the hosted Mem0 Platform through the official
  ``mem0.MemoryClient`` (``Authorization: Token``, ``/v3/memories/...``).
* :class:`LocalBackend`: the open-source ``mem0.Memory`` running in this
  process: a Qdrant store on disk (``<home>/mem0/qdrant``), silcrow's
  embedder plugged in as mem0's embedder, mem0's history in SQLite. With no
  LLM configured, writes use ``infer=False`` (stored verbatim); mem0's own
  LLM is then pointed at a closed loopback port so an accidental call fails
  at once instead of reaching a network.

mem0 reads ``MEM0_TELEMETRY`` and ``MEM0_DIR`` when it is first imported:
silcrow sets telemetry off and the directory inside the home unless the
user set them, so nothing is sent anywhere and nothing is written to ``~``.
They are set only while mem0 is imported and then put back: the process's
environment (which other libraries and other homes read) is left as it was.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from silcrow._private import private_dir
from silcrow.errors import ServiceError
from silcrow.models import Embedder
from silcrow.providers._http import JsonHttp, service_error, status_error
from silcrow.providers._validate import as_dict, as_list, field

SERVICE = "mem0"
Hit = dict[str, Any]
_NO_LLM_URL = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, calls fail at once


def prepare_import(home: Path) -> None:
    """Import mem0 with the environment it reads at import: no telemetry, its directory
    inside the silcrow home (each only when the user did not set it), restored afterwards.

    When mem0 was imported before (by the application), its telemetry switches are module
    globals already read from the environment: they are turned off too, unless the user
    asked for telemetry by setting MEM0_TELEMETRY.
    """
    telemetry_off = "MEM0_TELEMETRY" not in os.environ
    added = {name: value for name, value in (("MEM0_TELEMETRY", "False"), ("MEM0_DIR", str(home / "mem0")))
             if name not in os.environ}
    os.environ.update(added)
    try:
        import mem0  # noqa: F401 - its import reads the variables above
    finally:
        for name in added:
            os.environ.pop(name, None)
    if telemetry_off:
        for module in ("mem0.memory.telemetry", "mem0.memory.main", "mem0.client.main"):
            loaded = sys.modules.get(module)
            if loaded is not None and hasattr(loaded, "MEM0_TELEMETRY"):
                setattr(loaded, "MEM0_TELEMETRY", False)  # noqa: B010 - a module global, read at each call
            for name in ("client_telemetry", "_oss_telemetry_instance"):
                sender = getattr(loaded, name, None)
                if getattr(sender, "posthog", None) is not None:
                    sender.posthog = None  # type: ignore[union-attr]


def translate(exc: BaseException, key_hint: str = "") -> ServiceError:
    """mem0's own exceptions carry the HTTP status in ``debug_info``; the rest as usual."""
    info = getattr(exc, "debug_info", None)
    if isinstance(info, dict) and isinstance(info.get("status_code"), int):
        retry = info.get("retry_after")
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return status_error(SERVICE, info["status_code"], str(getattr(exc, "message", exc)), headers,
                            key_hint=key_hint)
    if isinstance(exc, ValueError | KeyError) and "not found" in str(exc).lower():
        # The local mem0 says so for an unknown id: the request is wrong, the service is fine.
        return ServiceError(f"mem0: {exc}; take the id from a mem0_search result", status=404, permanent=True)
    cause = exc.__cause__ or exc.__context__  # the key check re-raises an HTTP error as ValueError
    if isinstance(cause, httpx.HTTPError):
        return service_error(SERVICE, cause, key_hint=key_hint)
    return service_error(SERVICE, exc, key_hint=key_hint)


def hits(response: Any, what: str) -> list[dict[str, Any]]:
    """``[{"id", "memory", "score"}]`` from a search answer (checked: malformed is a ServiceError)."""
    items = response if isinstance(response, list) else field(SERVICE, what, response, "results", list)
    out = []
    for item in as_list(SERVICE, what, items):
        entry = as_dict(SERVICE, f"{what} item", item)
        memory = field(SERVICE, f"{what} item", entry, "memory", str)
        score = entry.get("score", 0.0)
        out.append({"id": str(field(SERVICE, f"{what} item", entry, "id", (str, int))), "memory": memory,
                    "score": float(score) if isinstance(score, int | float) else 0.0})
    return out


class Backend:
    hosted = True

    def search(self, query: str, *, filters: dict[str, Any], top_k: int, rerank: bool) -> list[Hit]:
        raise NotImplementedError

    def add(self, messages: list[dict[str, str]], *, user_id: str, agent_id: str, infer: bool,
            metadata: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def update(self, memory_id: str, text: str) -> None:
        raise NotImplementedError

    def delete(self, memory_id: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class PlatformBackend(Backend):
    """``mem0.MemoryClient`` on an httpx client with silcrow's timeout (its own default is 300 s)."""

    def __init__(self, api_key: str, *, host: str, timeout: float, home: Path) -> None:
        prepare_import(home)
        from mem0 import MemoryClient

        # The SDK logs every HTTP error at ERROR level; silcrow reports each outage once itself.
        logging.getLogger("mem0.client.utils").setLevel(logging.CRITICAL)
        self._http = httpx.Client(timeout=timeout)
        # The constructor validates the key with GET /v1/ping/: a network call, made by setup().
        self._client = MemoryClient(api_key=api_key, host=host, client=self._http)

    def search(self, query: str, *, filters: dict[str, Any], top_k: int, rerank: bool) -> list[Hit]:
        return hits(self._client.search(query, filters=filters, top_k=top_k, rerank=rerank), "search answer")

    def add(self, messages: list[dict[str, str]], *, user_id: str, agent_id: str, infer: bool,
            metadata: dict[str, Any]) -> dict[str, Any]:
        answer = self._client.add(messages, user_id=user_id, agent_id=agent_id, infer=infer,
                                  metadata=metadata or None)
        return as_dict(SERVICE, "add answer", answer)

    def update(self, memory_id: str, text: str) -> None:
        self._client.update(memory_id, text=text)

    def delete(self, memory_id: str) -> None:
        self._client.delete(memory_id)

    def close(self) -> None:
        self._http.close()


class SelfHostedBackend(Backend):
    """A self-hosted mem0 server (the FastAPI app mem0 ships) over HTTP, as Hermes talks to it.

    The platform client cannot be used: it authenticates with ``Authorization: Token`` and
    checks the key on ``/v1/ping/``, which such a server does not have.
    """

    def __init__(self, host: str, api_key: str, *, timeout: float, key_hint: str) -> None:
        headers = {"X-API-Key": api_key} if api_key else {}  # none for a server with AUTH_DISABLED
        self._http = JsonHttp(SERVICE, host, headers=headers, timeout=timeout, key_hint=key_hint)

    def search(self, query: str, *, filters: dict[str, Any], top_k: int, rerank: bool) -> list[Hit]:
        body = {"query": query, "top_k": top_k, "filters": filters}  # rerank: platform only
        answer = self._http.request("POST", "/search", json=body)
        return hits(answer, "server search answer")

    def add(self, messages: list[dict[str, str]], *, user_id: str, agent_id: str, infer: bool,
            metadata: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"messages": messages, "user_id": user_id, "agent_id": agent_id,
                                "infer": infer}
        if metadata:
            body["metadata"] = metadata
        return as_dict(SERVICE, "server add answer", self._http.request("POST", "/memories", json=body) or {})

    def update(self, memory_id: str, text: str) -> None:
        self._http.request("PUT", f"/memories/{quote(memory_id, safe='')}", json={"text": text})

    def delete(self, memory_id: str) -> None:
        self._http.request("DELETE", f"/memories/{quote(memory_id, safe='')}")

    def close(self) -> None:
        self._http.close()


class _SilcrowEmbedding:
    """silcrow's embedder in the shape mem0 calls (``embed`` / ``embed_batch``)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        return [float(x) for x in self.embedder.embed_query(text)]

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        return [[float(x) for x in row] for row in self.embedder.embed(list(texts))]


class LocalBackend(Backend):
    """The open-source ``mem0.Memory`` in this process (see the module doc)."""

    hosted = False

    def __init__(self, home: Path, embedder: Embedder | None, oss: Mapping[str, Any]) -> None:
        prepare_import(home)
        from mem0 import Memory

        # Optional mem0 features silcrow does not use (BM25 via fastembed, spaCy lemmas) warn on
        # every start; what silcrow relies on is reported by silcrow itself.
        for noisy in ("mem0.vector_stores.qdrant", "mem0.utils.spacy_models", "mem0.memory.main"):
            logging.getLogger(noisy).setLevel(logging.ERROR)

        root = home / "mem0"
        private_dir(root)
        vector_store = dict(oss.get("vector_store") or {
            "provider": "qdrant", "config": {"path": str(root / "qdrant"), "collection_name": "silcrow",
                                             "on_disk": True}})
        own_embedder = oss.get("embedder")
        if own_embedder is None and embedder is None:
            raise ServiceError("mem0 local mode needs an embedder: silcrow's (the `embedder` setting) or "
                               "`embedder` in [recall.mem0.oss]")
        if own_embedder is None and embedder is not None:
            vs_config = dict(vector_store.get("config") or {})
            vs_config.setdefault("embedding_model_dims", embedder.dim)
            vector_store["config"] = vs_config
        self.infer = oss.get("llm") is not None
        config: dict[str, Any] = {
            "vector_store": vector_store,
            # mem0 builds its embedder and LLM from config even when silcrow supplies both roles:
            # the OpenAI clients it makes here are never called (no key, closed loopback port).
            "embedder": own_embedder or {"provider": "openai", "config": {
                "api_key": "unused", "openai_base_url": _NO_LLM_URL,
                "embedding_dims": embedder.dim if embedder else None}},
            "llm": oss.get("llm") or {"provider": "openai", "config": {
                "api_key": "unused", "openai_base_url": _NO_LLM_URL}},
            "history_db_path": str(root / "history.db"),
        }
        self._memory = Memory.from_config(config)
        if own_embedder is None and embedder is not None:
            self._memory.embedding_model = _SilcrowEmbedding(embedder)
        # Writes come from the manager's worker while prefetches run on other threads; Qdrant's
        # local mode and mem0's SQLite history are not meant to be used from several at once.
        self._lock = threading.Lock()

    def search(self, query: str, *, filters: dict[str, Any], top_k: int, rerank: bool) -> list[Hit]:
        with self._lock:
            answer = self._memory.search(query, filters=filters, top_k=top_k)
        return hits(answer, "local search answer")

    def add(self, messages: list[dict[str, str]], *, user_id: str, agent_id: str, infer: bool,
            metadata: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            answer = self._memory.add(messages, user_id=user_id, agent_id=agent_id,
                                      infer=infer and self.infer, metadata=metadata or None)
        return as_dict(SERVICE, "local add answer", answer)

    def update(self, memory_id: str, text: str) -> None:
        with self._lock:
            self._memory.update(memory_id, text=text)

    def delete(self, memory_id: str) -> None:
        with self._lock:
            self._memory.delete(memory_id)

    def close(self) -> None:
        # Qdrant's local mode holds a lock on its directory until its client is closed.
        with self._lock:
            store = getattr(self._memory, "vector_store", None)
            client = getattr(store, "client", None)
            if client is not None and hasattr(client, "close"):
                client.close()
            db = getattr(self._memory, "db", None)
            if db is not None and hasattr(db, "close"):
                db.close()


__all__ = ["Backend", "LocalBackend", "PlatformBackend", "SelfHostedBackend", "hits", "prepare_import",
           "translate"]
