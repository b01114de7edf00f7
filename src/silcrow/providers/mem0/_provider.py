"""Mem0Provider: mem0 as silcrow's recall, hosted (Mem0 Platform) or local (open-source mem0).

As the Hermes ``mem0`` plugin: every completed turn is sent to mem0
(``sync_turn``; ``infer=True`` so the platform extracts facts, verbatim when
no LLM is available locally), ``on_turn_start`` starts the search for the
new message in the background and ``prefetch`` uses it (or searches now),
and four tools manage memories by id. Reads are scoped to the user; writes
carry the agent id and ``metadata.channel`` (the platform).

Settings: ``[recall.mem0]`` or the environment, Hermes' names: ``mode``
(``platform`` | ``oss``; MEM0_MODE), ``api_key`` (MEM0_API_KEY), ``user_id``
(MEM0_USER_ID), ``agent_id`` (MEM0_AGENT_ID, default ``hermes``), ``rerank``,
and for ``oss`` an optional ``[recall.mem0.oss]`` table with mem0's own
``vector_store`` / ``embedder`` / ``llm`` blocks. silcrow adds
``platform_url`` (default https://api.mem0.ai, e.g. for a proxy). ``host``
(MEM0_HOST) reaches a self-hosted mem0 server instead of the platform.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from silcrow.errors import RecallError, ServiceError
from silcrow.models import Embedder, get_embedder
from silcrow.providers._base import ToolHandler
from silcrow.providers._sdk import SdkProvider, required_text
from silcrow.providers._warm import WarmPrefetch
from silcrow.providers.mem0._backends import (
    Backend,
    LocalBackend,
    PlatformBackend,
    SelfHostedBackend,
    translate,
)
from silcrow.providers.mem0._tools import ADD, DELETE, SEARCH, UPDATE
from silcrow.recall import ToolResult, ToolSpec

log = logging.getLogger(__name__)

DEFAULT_USER = "hermes-user"  # Hermes' default, so a user moving over finds their platform memories
PREFETCH_WAIT = 3.0


class Mem0Provider(SdkProvider):
    name = "mem0"
    extra = "mem0"
    modules = ("mem0",)
    defaults: Mapping[str, Any] = {
        "mode": "platform", "api_key": "", "host": "", "platform_url": "https://api.mem0.ai",
        "user_id": "", "agent_id": "hermes", "rerank": False, "top_k": 10, "oss": {},
    }
    env: Mapping[str, str | tuple[str, ...]] = {
        "mode": "MEM0_MODE", "api_key": "MEM0_API_KEY", "host": "MEM0_HOST", "user_id": "MEM0_USER_ID",
        "agent_id": "MEM0_AGENT_ID",
    }

    def __init__(self, home: Path | str | None = None, *, embedder: str | Embedder | None = None,
                 **context: Any) -> None:
        super().__init__(home, **context)
        self._embedder_spec: str | Embedder = embedder if embedder is not None and embedder != "" else "onnx"
        self._backend: Backend | None = None
        self._backend_lock = threading.Lock()
        self._warm = WarmPrefetch("mem0")

    # -- configuration ---------------------------------------------------------------------

    @property
    def mode(self) -> str:
        return str(self.config["mode"]).strip().lower() or "platform"

    def missing_settings(self) -> str:
        cfg = self.config
        if self.mode not in ("platform", "oss"):
            return f"unknown mem0 mode {self.mode!r}: set mode to platform or oss ({self.key_hint('mode')})"
        if self.mode == "oss":
            return ""
        if cfg["host"]:
            return ""  # a self-hosted server; the key is optional (AUTH_DISABLED servers take none)
        if not cfg["api_key"]:
            return (f"no Mem0 Platform API key: {self.key_hint('api_key')}, or set mode = \"oss\" in "
                    "[recall.mem0] to run the open-source mem0 locally")
        return ""

    def unavailable_reason(self) -> str:
        reason = super().unavailable_reason()
        if reason or self.mode != "oss":
            return reason
        import importlib.util

        if importlib.util.find_spec("qdrant_client") is None and not self.config["oss"]:
            return 'the qdrant-client package is not installed: pip install "silcrow[mem0]"'
        return ""

    def _hosted_platform(self) -> bool:
        return self.mode == "platform" and not self.config["host"]

    @property
    def user_id(self) -> str:
        configured = str(self.config["user_id"] or "")
        if configured and configured != DEFAULT_USER:
            return configured
        return str(self.context.get("user_id") or configured or DEFAULT_USER)

    def _metadata(self) -> dict[str, Any]:
        channel = self.context.get("platform") or "cli"
        return {"channel": str(channel)}

    # -- the backend, built on first use (the platform client pings the service) -----------

    def backend(self) -> Backend:
        with self._backend_lock:
            if self._backend is None:
                cfg = self.config
                if self.mode == "oss":
                    spec = self._embedder_spec
                    oss = cfg["oss"] if isinstance(cfg["oss"], Mapping) else {}
                    embedder = None if oss.get("embedder") else (
                        spec if isinstance(spec, Embedder) else get_embedder(spec))
                    self._backend = LocalBackend(self.home, embedder, oss)
                elif cfg["host"]:
                    self._backend = SelfHostedBackend(str(cfg["host"]), str(cfg["api_key"]),
                                                      timeout=self.resilient.timeout,
                                                      key_hint=self.key_hint("api_key"))
                else:
                    self._backend = PlatformBackend(str(cfg["api_key"]), host=str(cfg["platform_url"]),
                                                    timeout=self.resilient.timeout, home=self.home)
            return self._backend

    def translate_error(self, exc: BaseException, key_hint: str) -> ServiceError:
        return translate(exc, key_hint)

    # -- reads -----------------------------------------------------------------------------

    def _search(self, query: str, top_k: int, rerank: bool = False) -> list[dict[str, Any]]:
        return self.backend().search(query, filters={"user_id": self.user_id}, top_k=top_k,
                                     rerank=rerank and self._hosted_platform())

    def recall(self, query: str) -> str:
        found = self._search(query, int(self.config["top_k"]))
        lines = [f"- {h['memory']}" for h in found if h["memory"].strip()]
        return "## Mem0 Memory\n" + "\n".join(lines) if lines else ""

    def _warm_recall(self, query: str) -> str:
        return str(self.call("prefetch", lambda: self.recall(query)))

    def on_turn_start(self, turn_number: int, message: str, **_kwargs: Any) -> None:
        """Search for the new message in the background; ``prefetch`` picks the answer up."""
        super().on_turn_start(turn_number, message)  # and replay what an outage left queued
        if message.strip() and not self.resilient.is_open:
            self._warm.start(message, self._warm_recall)

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        warmed = self._warm.take(query, PREFETCH_WAIT)
        return warmed if warmed is not None else super().prefetch(query, session_id=session_id)

    # -- writes (through the durable outbox) -----------------------------------------------

    def _add_payload(self, messages: list[dict[str, str]], infer: bool) -> dict[str, Any]:
        return {"messages": messages, "user_id": self.user_id, "agent_id": str(self.config["agent_id"]),
                "infer": infer, "metadata": self._metadata()}

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind != "add":
            raise RecallError(f"mem0 cannot send a queued {kind!r} write; this outbox entry is not mem0's")
        self.backend().add(payload["messages"], user_id=payload["user_id"], agent_id=payload["agent_id"],
                           infer=bool(payload["infer"]), metadata=payload.get("metadata") or {})

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        messages = [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
        self.queue_write("add", self._add_payload(messages, infer=True))

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        return [(SEARCH, self._tool_search), (ADD, self._tool_add), (UPDATE, self._tool_update),
                (DELETE, self._tool_delete)]

    def _tool_search(self, args: dict[str, Any]) -> ToolResult:
        query = required_text(args, "query")
        top_k = max(1, min(int(args.get("top_k", 10)), 50))
        raw = args.get("rerank", self.config["rerank"])
        rerank = raw.strip().lower() not in ("false", "0", "no") if isinstance(raw, str) else bool(raw)
        found = self.call("search", lambda: self._search(query, top_k, rerank))
        if not found:
            return ToolResult.done(result="No relevant memories found.")
        return ToolResult.done(results=found, count=len(found))

    def _tool_add(self, args: dict[str, Any]) -> ToolResult:
        content = required_text(args, "content")
        self.queue_write("add", self._add_payload([{"role": "user", "content": content}], infer=False))
        if len(self.outbox):
            return ToolResult.done(result="mem0 is not answering; the fact is queued on disk and will be "
                                          "stored when it is back.")
        # The platform extracts asynchronously; a local mem0 or a self-hosted server stores at once.
        return ToolResult.done(result="Fact queued for storage." if self._hosted_platform()
                               else "Fact stored.")

    def _tool_update(self, args: dict[str, Any]) -> ToolResult:
        memory_id, text = required_text(args, "memory_id"), required_text(args, "text")
        self.call("update", lambda: self.backend().update(memory_id, text))
        return ToolResult.done(result="Memory updated.", memory_id=memory_id)

    def _tool_delete(self, args: dict[str, Any]) -> ToolResult:
        memory_id = required_text(args, "memory_id")
        self.call("delete", lambda: self.backend().delete(memory_id))
        return ToolResult.done(result="Memory deleted.", memory_id=memory_id)

    def system_prompt_block(self) -> str:
        if self.mode == "oss":
            mode = "OSS (local)"
        elif self.config["host"]:
            mode = "self-hosted (HTTP API)"
        else:
            mode = "platform (cloud API)"
        rerank = " Rerank is available on search." if self._hosted_platform() else ""
        return ("# Mem0 Memory\n"
                f"Active. Mode: {mode}. User: {self.user_id}.\n"
                "You have persistent memory of this user from past conversations: call mem0_search before "
                "answering anything that may depend on earlier context (preferences, facts, people, "
                "projects, decisions); for multi-part questions search several times with different "
                "wording.\nTools: mem0_search to find memories, mem0_add to store a fact, mem0_update and "
                f"mem0_delete to manage one by id.{rerank}")

    # -- `silcrow providers check` ---------------------------------------------------------

    def probe_write(self, text: str) -> str:
        payload = self._add_payload([{"role": "user", "content": text}], infer=False)
        self.call("check write", lambda: self.send_write("add", payload))
        return text

    def _matching(self, text: str) -> list[str]:
        found = self.call("check search", lambda: self._search(text, 10))
        return [h["id"] for h in found if h["memory"].strip() == text.strip()]

    def probe_search(self, text: str) -> bool:
        return bool(self._matching(text))

    def probe_forget(self, ref: str) -> None:
        backend = self.backend()
        for memory_id in self._matching(ref):
            self.call("check forget", partial(backend.delete, memory_id))

    def close_clients(self) -> None:
        with self._backend_lock:
            if self._backend is not None:
                try:
                    self._backend.close()
                finally:
                    self._backend = None
