"""HolographicProvider: local structured facts with trust and HRR probes, nothing to install.

Behaves like the Hermes ``holographic`` plugin: the model stores facts with
``fact_store`` and rates them with ``fact_feedback``; turns are NOT stored
automatically (``sync_turn`` does nothing), curated-memory ``add`` writes
are mirrored as facts, and with ``auto_extract`` the user's stated
preferences and decisions are saved when a session ends. ``prefetch``
returns the five best facts above ``min_trust_threshold`` with their trust.

Settings (``[recall.holographic]`` in config.toml): ``db_path`` (default
``<home>/memory_store.db``), ``auto_extract`` (false), ``default_trust``
(0.5), ``min_trust_threshold`` (0.3), ``temporal_decay_half_life`` (days,
0 = off), ``hrr_dim`` (1024).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from silcrow.errors import RecallError
from silcrow.providers._base import COMMON_DEFAULTS, HostedProvider, ToolHandler
from silcrow.providers.holographic._retrieval import FactRetriever
from silcrow.providers.holographic._store import FactStore
from silcrow.providers.holographic._tools import FACT_FEEDBACK, FACT_STORE
from silcrow.recall import ToolResult, ToolSpec

log = logging.getLogger(__name__)

PREFETCH_LIMIT = 5

_PREFERENCE = re.compile(
    r"\bI\s+(?:prefer|like|love|use|want|need|always|never|usually)\s+\S"
    r"|\bmy\s+(?:favou?rite|preferred|default)\s+\w+\s+is\s+\S", re.IGNORECASE)
_DECISION = re.compile(r"\bwe\s+(?:decided|agreed|chose)\b|\bthe\s+project\s+(?:uses|needs|requires)\s+\S",
                       re.IGNORECASE)


class HolographicProvider(HostedProvider):
    """Local facts; shares config loading, tool dispatch and ``providers check`` with the hosted ones."""

    name = "holographic"
    extra = "holographic"
    defaults: Mapping[str, Any] = {
        "db_path": "", "auto_extract": False, "default_trust": 0.5, "min_trust_threshold": 0.3,
        "temporal_decay_half_life": 0.0, "hrr_dim": 1024,
    }

    def __init__(self, home: Path | str | None = None, *, config: Mapping[str, Any] | None = None,
                 **context: Any) -> None:
        super().__init__(home, **context)
        if config is not None:  # explicit settings (tests, benchmarks) instead of config.toml
            self._config = {**COMMON_DEFAULTS, **self.defaults, **config}
        self._store: FactStore | None = None
        self._retriever: FactRetriever | None = None
        self._open_lock = threading.Lock()
        self._block = ""

    def _db_path(self) -> Path:
        raw = str(self.config["db_path"] or "")
        if not raw:
            return self.home / "memory_store.db"
        home = str(self.home)
        return Path(os.path.expanduser(raw.replace("${SILCROW_HOME}", home).replace("$SILCROW_HOME", home)))

    def setup(self) -> None:
        with self._open_lock:
            if self._store is not None and self._store.path != self._db_path():
                self._close()  # another home (a profile switch): reopen there
        total = self.store.count()
        # Built once per session: the system prompt must not change while it runs.
        if total == 0:
            self._block = ("# Holographic Memory\nActive. The fact store is empty: add the facts the user "
                           "would expect you to remember with fact_store(action='add').\n"
                           "Rate facts you used with fact_feedback (trains trust scores).")
        else:
            self._block = (f"# Holographic Memory\nActive. {total} facts stored with entity resolution and "
                           "trust scores.\nUse fact_store to search, probe an entity, reason across "
                           "entities or add facts; rate facts you used with fact_feedback.")

    def _ready(self) -> tuple[FactStore, FactRetriever]:
        with self._open_lock:
            if self._store is None or self._retriever is None:
                cfg = self.config
                try:
                    store = FactStore(self._db_path(), default_trust=float(cfg["default_trust"]),
                                      dim=int(cfg["hrr_dim"]))
                    half_life = float(cfg["temporal_decay_half_life"])
                except (TypeError, ValueError) as exc:
                    raise RecallError(f"bad [recall.holographic] setting: {exc}; default_trust and "
                                      "temporal_decay_half_life are numbers, hrr_dim a whole number") from exc
                self._store, self._retriever = store, FactRetriever(store, half_life_days=half_life)
            return self._store, self._retriever

    @property
    def store(self) -> FactStore:
        return self._ready()[0]

    @property
    def retriever(self) -> FactRetriever:
        return self._ready()[1]

    @property
    def min_trust(self) -> float:
        return float(self.config["min_trust_threshold"])

    def system_prompt_block(self) -> str:
        return self._block

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        # Local SQLite: no breaker or timeout wrapper (the manager already bounds the wait).
        if not query.strip():
            return ""
        hits = self.retriever.search(query, min_trust=self.min_trust, limit=PREFETCH_LIMIT)
        if not hits:
            return ""
        lines = (f"- [{h['trust_score']:.1f}] {h['content']}" for h in hits)
        return "## Holographic Memory\n" + "\n".join(lines)

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        return [(FACT_STORE, self._fact_store), (FACT_FEEDBACK, self._fact_feedback)]

    def _fact_store(self, args: dict[str, Any]) -> ToolResult:
        store, retriever = self._ready()
        action = args.get("action")
        category = args.get("category") or None
        limit = int(args.get("limit", 10))

        def need(key: str) -> Any:
            if args.get(key) in (None, ""):
                raise RecallError(f"fact_store {action} needs {key!r}")
            return args[key]

        if action == "add":
            fact_id = store.add_fact(str(need("content")), category=category or "general",
                                     tags=str(args.get("tags", "")))
            return ToolResult.done(fact_id=fact_id, status="added")
        if action == "search":
            found = retriever.search(str(need("query")), category=category,
                                     min_trust=float(args.get("min_trust", self.min_trust)), limit=limit)
        elif action == "probe":
            found = retriever.probe(str(need("entity")), category=category, limit=limit)
        elif action == "related":
            found = retriever.related(str(need("entity")), category=category, limit=limit)
        elif action == "reason":
            entities = args.get("entities") or []
            if not isinstance(entities, list) or not entities:
                raise RecallError("fact_store reason needs 'entities': a list of entity names")
            found = retriever.reason([str(e) for e in entities], category=category, limit=limit)
        elif action == "contradict":
            found = retriever.contradict(category=category, limit=limit)
        elif action == "update":
            delta = args.get("trust_delta")
            updated = store.update_fact(
                int(need("fact_id")), content=args.get("content") or None, tags=args.get("tags"),
                category=category, trust_delta=float(delta) if delta is not None else None)
            return ToolResult.done(updated=updated)
        elif action == "remove":
            return ToolResult.done(removed=store.remove_fact(int(need("fact_id"))))
        elif action == "list":
            facts = store.list_facts(category, float(args.get("min_trust", 0.0)), limit)
            return ToolResult.done(facts=facts, count=len(facts))
        else:
            raise RecallError(f"unknown fact_store action {action!r}; use add, search, probe, related, "
                              "reason, contradict, update, remove or list")
        return ToolResult.done(results=found, count=len(found))

    def _fact_feedback(self, args: dict[str, Any]) -> ToolResult:
        action = args.get("action")
        if action not in ("helpful", "unhelpful"):
            raise RecallError(f"fact_feedback action must be 'helpful' or 'unhelpful', not {action!r}")
        if args.get("fact_id") is None:
            raise RecallError("fact_feedback needs 'fact_id' (from a fact_store result)")
        return ToolResult(self.store.record_feedback(int(args["fact_id"]), helpful=action == "helpful"))

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if action == "add" and content.strip():
            self.store.add_fact(content, category="user_pref" if target == "user" else "general")

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        if not self.config["auto_extract"]:
            return
        store = self.store
        for message in messages:
            text = message.get("content")
            if message.get("role") != "user" or not isinstance(text, str) or len(text) < 10:
                continue
            if _PREFERENCE.search(text):
                store.add_fact(text[:400], category="user_pref")
            if _DECISION.search(text):
                store.add_fact(text[:400], category="project")

    # -- `silcrow providers check` ---------------------------------------------------------

    def probe_write(self, text: str) -> str:
        return str(self.store.add_fact(text, category="general", tags="silcrow-check"))

    def probe_search(self, text: str) -> bool:
        return any(h["content"] == text.strip() for h in self.retriever.search(text, min_trust=0.0, limit=10))

    def probe_forget(self, ref: str) -> None:
        self.store.remove_fact(int(ref))

    def _close(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = None
        self._retriever = None

    def close_clients(self) -> None:
        with self._open_lock:
            self._close()

    def shutdown(self) -> None:
        super().shutdown()
        self._closed = False  # a later call reopens the store: shutdown stays idempotent
