"""HindsightProvider: a Hindsight server (cloud or your own) as silcrow's recall.

As the Hermes ``hindsight`` plugin: each turn is kept as two JSON messages
with ``User:`` / ``Assistant:`` prefixes and retained every
``retain_every_n_turns`` turns into a document of the session (only the new
turns when the server can append, >= 0.5.0; else the whole session under a
per-process document id); ``prefetch`` recalls (or reflects, with
``recall_prefetch_method = "reflect"``) the observations matching the
message under a header; the tools are hindsight_retain, hindsight_recall and
hindsight_reflect (none in ``memory_mode = "context"``; no automatic recall
in ``"tools"``). Unlike Hermes, turns still buffered when a session ends are
retained then, and ``prefetch`` recalls for the message it is given (a
``queue_prefetch`` for the same message is reused).

Settings: ``[recall.hindsight]`` or the environment, with Hermes' names:
``mode`` (``cloud`` | ``local_external``; HINDSIGHT_MODE), ``api_key``
(HINDSIGHT_API_KEY), ``api_url`` (HINDSIGHT_API_URL), ``bank_id``
(HINDSIGHT_BANK_ID), ``bank_id_template``, ``budget`` (HINDSIGHT_BUDGET),
``timeout`` (HINDSIGHT_TIMEOUT), the ``recall_*`` and ``retain_*`` keys
(HINDSIGHT_RETAIN_TAGS, _SOURCE, _USER_PREFIX, _ASSISTANT_PREFIX,
_OBSERVATION_SCOPES), ``auto_recall``, ``auto_retain``, ``memory_mode``.
Hermes' ``local_embedded`` mode (a daemon it starts) is not supported.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow.errors import RecallError, ServiceError
from silcrow.providers._base import ToolHandler
from silcrow.providers._sdk import SdkProvider, required_text
from silcrow.providers._validate import as_list
from silcrow.providers._warm import WarmPrefetch
from silcrow.providers.hindsight._client import LoopClient, translate
from silcrow.providers.hindsight._tools import RECALL, REFLECT, RETAIN
from silcrow.recall import ToolResult, ToolSpec

log = logging.getLogger(__name__)

CLOUD_URL = "https://api.hindsight.vectorize.io"
LOCAL_URL = "http://localhost:8888"
APPEND_SINCE = (0, 5, 0)  # servers from this version append to a document instead of replacing it
PREFETCH_WAIT = 3.0
DEFAULT_HEADER = ("# Hindsight Memory (persistent cross-session context)\nUse this to answer questions about "
                  "the user and prior sessions. Do not call tools to look up information that is already "
                  "present here.")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def _bank_from_template(template: str, fallback: str, **values: str) -> str:
    """Fill ``{profile}``-style placeholders; empty ones collapse with their separators."""
    filled = re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), ""), template)
    filled = re.sub(r"[^A-Za-z0-9_.:-]+", "-", filled)
    filled = re.sub(r"([-_.:])[-_.:]+", r"\1", filled).strip("-_.:")
    return filled or fallback


class HindsightProvider(SdkProvider):
    name = "hindsight"
    extra = "hindsight"
    modules = ("hindsight_client",)
    defaults: Mapping[str, Any] = {
        "mode": "cloud", "api_key": "", "api_url": "", "timeout": 30.0, "bank_id": "hermes",
        "bank_id_template": "", "budget": "mid", "recall_budget": "", "recall_max_tokens": 4096,
        "recall_max_input_chars": 800, "recall_prompt_preamble": "", "recall_tags": [],
        "recall_tags_match": "any", "recall_types": ["observation"], "recall_prefetch_method": "recall",
        "auto_recall": True, "auto_retain": True, "retain_async": True, "retain_every_n_turns": 1,
        "retain_context": "conversation between Hermes Agent and the User", "retain_tags": [],
        "retain_source": "", "retain_user_prefix": "User", "retain_assistant_prefix": "Assistant",
        "observation_scopes": "", "memory_mode": "hybrid",
    }
    env: Mapping[str, str | tuple[str, ...]] = {
        "mode": "HINDSIGHT_MODE", "api_key": "HINDSIGHT_API_KEY", "api_url": "HINDSIGHT_API_URL",
        "bank_id": "HINDSIGHT_BANK_ID", "budget": "HINDSIGHT_BUDGET", "timeout": "HINDSIGHT_TIMEOUT",
        "retain_tags": "HINDSIGHT_RETAIN_TAGS", "retain_source": "HINDSIGHT_RETAIN_SOURCE",
        "retain_user_prefix": "HINDSIGHT_RETAIN_USER_PREFIX",
        "retain_assistant_prefix": "HINDSIGHT_RETAIN_ASSISTANT_PREFIX",
        "observation_scopes": "HINDSIGHT_RETAIN_OBSERVATION_SCOPES",
    }

    def __init__(self, home: Path | str | None = None, **context: Any) -> None:
        super().__init__(home, **context)
        self._client: LoopClient | None = None
        self._client_lock = threading.Lock()
        self._append: bool | None = None  # learnt from the server's version once
        self._warm = WarmPrefetch("hindsight")
        self._turns: list[str] = []
        self._retained = 0  # how many of _turns the server already has (append mode)
        self._document = ""
        self._started = ""

    # -- configuration ---------------------------------------------------------------------

    @property
    def mode(self) -> str:
        mode = str(self.config["mode"]).strip().lower()
        return "local_embedded" if mode == "local" else mode

    def missing_settings(self) -> str:
        cfg = self.config
        if self.mode == "local_embedded":
            return ("Hindsight's local_embedded mode (a daemon Hermes starts) is not supported by silcrow: "
                    "run a Hindsight server and set mode = \"local_external\" with api_url in "
                    "[recall.hindsight]")
        if self.mode not in ("cloud", "local_external"):
            return f"unknown hindsight mode {self.mode!r}: use cloud or local_external"
        if self.mode == "cloud" and not (cfg["api_key"] or cfg["api_url"]):
            return f"no Hindsight Cloud API key: {self.key_hint('api_key')} (or api_url for your own server)"
        if str(cfg["memory_mode"]) not in ("hybrid", "context", "tools"):
            return f"unknown memory_mode {cfg['memory_mode']!r}: use hybrid, context or tools"
        return ""

    @property
    def api_url(self) -> str:
        default = LOCAL_URL if self.mode == "local_external" else CLOUD_URL
        return str(self.config["api_url"] or default)

    @property
    def bank_id(self) -> str:
        cfg = self.config
        fallback = str(cfg["bank_id"] or "hermes")
        template = str(cfg["bank_id_template"] or "")
        if not template:
            return fallback
        ctx = self.context
        return _bank_from_template(template, fallback, profile=str(ctx.get("agent_id") or ""),
                                   workspace=str(ctx.get("agent_workspace") or ""),
                                   platform=str(ctx.get("platform") or ""),
                                   user=str(ctx.get("user_id") or ""), session=self.session_id)

    @property
    def budget(self) -> str:
        budget = str(self.config["recall_budget"] or self.config["budget"])
        return budget if budget in ("low", "mid", "high") else "mid"

    @property
    def memory_mode(self) -> str:
        return str(self.config["memory_mode"])

    # -- the client ------------------------------------------------------------------------

    def client(self) -> LoopClient:
        with self._client_lock:
            if self._client is None:
                self._client = LoopClient(self.api_url, str(self.config["api_key"]) or None,
                                          self.resilient.timeout)
            return self._client

    def translate_error(self, exc: BaseException, key_hint: str) -> ServiceError:
        return translate(exc, key_hint)

    def _appends(self) -> bool:
        """Whether the server appends to a document (asked once; unknown counts as no)."""
        if self._append is None:
            try:
                answer = self.call("version", lambda: self.client().run(lambda c: c.aget_version()))
                self._append = _version(str(answer.api_version)) >= APPEND_SINCE
            except ServiceError:
                return False  # ask again next time; meanwhile the safe, whole-session retain
        return self._append

    # -- sessions --------------------------------------------------------------------------

    def initialize(self, session_id: str, **context: Any) -> None:
        if self._turns and self._retained < len(self._turns):
            # Another session starts: what the old one buffered is retained under the old one first.
            self._retain_buffer(force=True)
        super().initialize(session_id, **context)

    def setup(self) -> None:
        self._turns, self._retained = [], 0
        self._started = datetime.now(UTC).strftime("%Y%m%d_%H%M%S_%f")
        self._document = f"{self.session_id}-{self._started}"

    def _metadata(self, messages: int) -> dict[str, str]:
        ctx = self.context
        meta = {"retained_at": datetime.now(UTC).isoformat(), "message_count": str(messages),
                "turn_index": str(len(self._turns))}
        extra = {"source": self.config["retain_source"], "session_id": self.session_id,
                 "platform": ctx.get("platform"), "user_id": ctx.get("user_id"),
                 "agent_identity": ctx.get("agent_id")}
        meta.update({k: str(v) for k, v in extra.items() if v})
        return meta

    def _item(self, content: str, *, context: str | None, tags: list[str] | None = None,
              messages: int = 1) -> dict[str, Any]:
        item: dict[str, Any] = {"content": content, "metadata": self._metadata(messages)}
        if context:
            item["context"] = context
        merged = list(dict.fromkeys([*self.config["retain_tags"], *(tags or [])]))
        if merged:
            item["tags"] = merged
        scopes = self.config["observation_scopes"]
        if scopes:
            try:
                item["observation_scopes"] = json.loads(scopes) if str(scopes).startswith("[") else scopes
            except json.JSONDecodeError as exc:
                raise RecallError(f"observation_scopes is not valid JSON: {exc}; fix the setting") from exc
        return item

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        if not self.config["auto_retain"]:
            return
        now = datetime.now(UTC).isoformat()
        cfg = self.config
        self._turns.append(json.dumps([
            {"role": "user", "content": f"{cfg['retain_user_prefix']}: {user}", "timestamp": now},
            {"role": "assistant", "content": f"{cfg['retain_assistant_prefix']}: {assistant}",
             "timestamp": now},
        ], ensure_ascii=False))
        if len(self._turns) % max(1, int(cfg["retain_every_n_turns"])) == 0:
            self._retain_buffer()

    def _retain_buffer(self, force: bool = False) -> None:
        appending = self._appends()
        turns = self._turns[self._retained:] if appending else self._turns
        if not turns or (force and appending and self._retained == len(self._turns)):
            return
        lineage = [f"session:{self.session_id}"] if self.session_id else []
        parent = self.context.get("parent_session_id")
        if parent:
            lineage.append(f"parent:{parent}")
        item = self._item("[" + ",".join(turns) + "]", context=str(self.config["retain_context"]),
                          tags=lineage, messages=2 * len(turns))
        if appending:
            item["update_mode"] = "append"
        document = self.session_id if appending and self.session_id else self._document
        self.queue_write("retain", {"bank_id": self.bank_id, "items": [item], "document_id": document,
                                    "retain_async": bool(self.config["retain_async"])})
        self._retained = len(self._turns)

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        if self._turns and self._retained < len(self._turns):
            self._retain_buffer(force=True)

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind != "retain":
            raise RecallError(f"hindsight cannot send a queued {kind!r} write: not one of its own")
        self.client().run(lambda c: c.aretain_batch(
            bank_id=payload["bank_id"], items=payload["items"], document_id=payload.get("document_id"),
            retain_async=bool(payload.get("retain_async"))))

    # -- recall ----------------------------------------------------------------------------

    def _recall_results(self, query: str, types: list[str] | None) -> list[Any]:
        cfg = self.config
        kwargs: dict[str, Any] = {"bank_id": self.bank_id, "query": query, "budget": self.budget,
                                  "max_tokens": int(cfg["recall_max_tokens"])}
        if cfg["recall_tags"]:
            kwargs.update(tags=list(cfg["recall_tags"]), tags_match=str(cfg["recall_tags_match"]))
        if types:
            kwargs["types"] = types
        answer = self.client().run(lambda c: c.arecall(**kwargs))
        return as_list("hindsight", "recall answer results", getattr(answer, "results", None) or [])

    def _reflect(self, query: str) -> str:
        bank, budget = self.bank_id, self.budget
        answer = self.client().run(lambda c: c.areflect(bank_id=bank, query=query, budget=budget))
        return str(getattr(answer, "text", "") or "")

    def recall(self, query: str) -> str:
        if self.memory_mode == "tools" or not self.config["auto_recall"]:
            return ""
        query = query[:int(self.config["recall_max_input_chars"]) or None]
        if self.config["recall_prefetch_method"] == "reflect":
            text = self._reflect(query)
        else:
            found = self._recall_results(query, list(self.config["recall_types"]))
            text = "\n".join(f"- {r.text}" for r in found if getattr(r, "text", ""))
        if not text:
            return ""
        return f"{self.config['recall_prompt_preamble'] or DEFAULT_HEADER}\n\n{text}"

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        if query.strip() and not self.resilient.is_open and self.memory_mode != "tools":
            self._warm.start(query, lambda q: str(self.call("prefetch", lambda: self.recall(q))))

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        warmed = self._warm.take(query, PREFETCH_WAIT)
        return warmed if warmed is not None else super().prefetch(query, session_id=session_id)

    def system_prompt_block(self) -> str:
        head = f"# Hindsight Memory\nActive{{}}. Bank: {self.bank_id}, budget: {self.budget}.\n"
        tools = ("Use hindsight_recall to search, hindsight_reflect for synthesis, hindsight_retain to store "
                 "facts.")
        injected = "Relevant memories are automatically injected into context."
        if self.memory_mode == "context":
            return head.format(" (context mode)") + injected
        if self.memory_mode == "tools":
            return head.format(" (tools mode)") + tools
        return head.format("") + f"{injected} {tools}"

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        if self.memory_mode == "context":
            return []
        return [(RETAIN, self._tool_retain), (RECALL, self._tool_recall), (REFLECT, self._tool_reflect)]

    def _tool_retain(self, args: dict[str, Any]) -> ToolResult:
        content = required_text(args, "content")
        tags = args.get("tags")
        tags = [str(t) for t in tags] if isinstance(tags, list) else None
        context = args.get("context") if isinstance(args.get("context"), str) else None
        item = self._item(content, context=context, tags=tags)
        self.queue_write("retain", {"bank_id": self.bank_id, "items": [item], "document_id": None,
                                    "retain_async": False})
        if len(self.outbox):
            return ToolResult.done(result="Hindsight is not answering; the memory is queued on disk and will "
                                          "be stored when it is back.")
        return ToolResult.done(result="Memory stored successfully.")

    def _tool_recall(self, args: dict[str, Any]) -> ToolResult:
        query = required_text(args, "query")
        found = self.call("recall", lambda: self._recall_results(query, list(self.config["recall_types"])))
        if not found:
            return ToolResult.done(result="No relevant memories found.")
        return ToolResult.done(result="\n".join(f"{i}. {r.text}" for i, r in enumerate(found, 1)))

    def _tool_reflect(self, args: dict[str, Any]) -> ToolResult:
        query = required_text(args, "query")
        answer = self.call("reflect", lambda: self._reflect(query))
        return ToolResult.done(result=answer or "No relevant memories found.")

    # -- `silcrow providers check` ---------------------------------------------------------

    def probe_write(self, text: str) -> str:
        document = "silcrow-check-" + datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
        payload = {"bank_id": self.bank_id, "items": [{"content": text}], "document_id": document,
                   "retain_async": False}
        self.call("check retain", lambda: self.send_write("retain", payload))
        return document

    def probe_search(self, text: str) -> bool:
        found = self.call("check recall", lambda: self._recall_results(text, None))
        return any(getattr(r, "text", "") == text for r in found)

    def probe_forget(self, ref: str) -> None:
        self.call("check forget", lambda: self.client().run(
            lambda c: c._documents_api.delete_document(self.bank_id, ref)))

    def shutdown(self) -> None:
        if not self._closed and self._turns and self._retained < len(self._turns):
            self._retain_buffer(force=True)
        super().shutdown()

    def close_clients(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None
