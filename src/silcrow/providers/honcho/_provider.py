"""Honcho: hosted (or self-hosted) user modelling with peers, sessions and a reasoning agent.

Same tools, settings and lifecycle as the Hermes ``honcho`` plugin, through
the official ``honcho-ai`` SDK: ``HONCHO_API_KEY``, ``HONCHO_BASE_URL``
(self-hosted), ``HONCHO_ENVIRONMENT``, ``HONCHO_TIMEOUT`` and Hermes'
``honcho.json`` keys (camelCase) in ``[recall.honcho]``: ``workspace``,
``peerName``, ``aiPeer``, ``recallMode`` (hybrid/context/tools),
``sessionStrategy``, ``saveMessages``, ``contextTokens``,
``dialecticReasoningLevel``, ``dialecticMaxChars``, ``dialecticCadence``,
``messageMaxChars``, ``injectionFrequency``, ``observationMode``/``observation``.

Each turn's two messages go to the Honcho session (user peer, AI peer);
a curated USER note becomes a conclusion the AI peer draws about the user;
``prefetch`` returns the session summary with the user's representation and
card, plus the reasoning agent's answer that ``queue_prefetch`` fetched in
the background after the previous turn.
"""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path
from typing import Any

from silcrow.errors import ServiceError
from silcrow.providers._base import HostedProvider, ToolHandler
from silcrow.providers.honcho._client import CONTEXT_MAX_TOKENS, MAX_MESSAGE_CHARS, HonchoSession
from silcrow.providers.honcho._schemas import LEVELS, SCHEMAS
from silcrow.recall import ToolResult, ToolSpec

_ID_CHARS = re.compile(r"[^A-Za-z0-9_-]+")
MODES = {"hybrid", "context", "tools"}


def _safe_id(raw: str, fallback: str) -> str:
    return _ID_CHARS.sub("-", raw.strip()).strip("-")[:100] or fallback


CONTINUED = " [continued]"


def _chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters each, the ``[continued]`` mark of a
    cut piece included, cut at whitespace where possible."""
    text = text.strip()
    room = limit - len(CONTINUED)
    pieces = []
    while len(text) > limit:
        cut = text.rfind(" ", 0, room)
        cut = cut if cut > room // 2 else room
        pieces.append(text[:cut].rstrip() + CONTINUED)
        text = text[cut:].lstrip()
    return [*pieces, text] if text else pieces


def _git_root(start: Path) -> Path | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=start,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else None


class HonchoProvider(HostedProvider):
    name = "honcho"
    extra = "honcho"
    modules = ("honcho",)
    key_setting = "apiKey"
    defaults = {
        "apiKey": "",
        "baseUrl": "",
        "environment": "production",
        "workspace": "hermes",
        "peerName": "",
        "aiPeer": "hermes",
        "recallMode": "hybrid",
        "sessionStrategy": "per-directory",
        "saveMessages": True,
        "contextTokens": 0,
        "dialecticReasoningLevel": "low",
        "dialecticMaxChars": 600,
        "dialecticCadence": 1,
        "messageMaxChars": 25000,
        "injectionFrequency": "every-turn",
        "observationMode": "directional",
        "observation": {},
    }
    env = {
        "apiKey": "HONCHO_API_KEY",
        "baseUrl": "HONCHO_BASE_URL",
        "environment": "HONCHO_ENVIRONMENT",
        "timeout": "HONCHO_TIMEOUT",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._honcho: HonchoSession | None = None
        self._turn = 0
        self._last_dialectic_turn = -(10**9)
        self._dialectic = ""
        self._lock = threading.Lock()

    def missing_settings(self) -> str:
        if not str(self.config["apiKey"]).strip() and not str(self.config["baseUrl"]).strip():
            return (
                f"no Honcho API key: {self.key_hint('apiKey')} (or set HONCHO_BASE_URL / `baseUrl` "
                "for a self-hosted server)"
            )
        if self.config["observationMode"] not in {"directional", "unified"}:
            return f"observationMode must be directional or unified, not {self.config['observationMode']!r}"
        if self.mode not in MODES:
            return f"recallMode must be one of {sorted(MODES)}, not {self.config['recallMode']!r}"
        return ""

    @property
    def mode(self) -> str:
        mode = str(self.config["recallMode"])
        return "hybrid" if mode == "auto" else mode

    def observation(self) -> dict[str, dict[str, bool]]:
        """Who observes whom in the session: Hermes' ``observationMode`` preset, or ``observation``."""
        given = self.config["observation"]
        if isinstance(given, dict) and given:
            return {
                who: {k: bool(v) for k, v in dict(given.get(who) or {}).items()} for who in ("user", "ai")
            }
        if self.config["observationMode"] == "unified":
            return {
                "user": {"observeMe": True, "observeOthers": False},
                "ai": {"observeMe": False, "observeOthers": True},
            }
        return {
            "user": {"observeMe": True, "observeOthers": True},
            "ai": {"observeMe": True, "observeOthers": True},
        }

    def session_key(self) -> str:
        strategy = str(self.config["sessionStrategy"])
        workspace = str(self.config["workspace"])
        if strategy == "per-session" and self.session_id:
            return _safe_id(self.session_id, workspace)
        if strategy == "global":
            return _safe_id(workspace, "hermes")
        cwd = Path.cwd()
        if strategy == "per-repo":
            cwd = _git_root(cwd) or cwd
        return _safe_id(cwd.name, workspace)

    @property
    def honcho(self) -> HonchoSession:
        if self._honcho is None:
            cfg = self.config
            user = str(cfg["peerName"] or self.context.get("user_id") or "user")
            self._honcho = HonchoSession(
                api_key=str(cfg["apiKey"]).strip(),
                base_url=str(cfg["baseUrl"]).strip(),
                environment=str(cfg["environment"]),
                workspace=_safe_id(str(cfg["workspace"]), "hermes"),
                timeout=self.resilient.timeout,
                session_key=self.session_key(),
                observation=self.observation(),
                user_peer=_safe_id(user, "user"),
                ai_peer=_safe_id(str(cfg["aiPeer"]), "hermes"),
            )
        return self._honcho

    def setup(self) -> None:
        self._honcho = None  # a new session may map to a new Honcho session key
        self._turn = 0
        self._dialectic = ""

    def close_clients(self) -> None:
        self._honcho = None

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "messages":
            ids = {"user": self.honcho.user_id, "ai": self.honcho.ai_id}
            pairs = [(ids[who], text) for who, text in payload["messages"]]
            self.honcho.add_messages(pairs, payload.get("session_key"))
        elif kind == "conclusion":
            self.honcho.conclude(payload["content"], self.honcho.user_id)
        else:
            raise ServiceError(f"unknown queued write kind {kind!r}", permanent=True)

    # -- lifecycle -------------------------------------------------------------------------

    def system_prompt_block(self) -> str:
        tools = (
            "Use honcho_profile for a quick factual snapshot, honcho_search for raw excerpts, "
            "honcho_context for the session snapshot, honcho_reasoning for synthesized answers (pick "
            "reasoning_level minimal..max per call), honcho_conclude to save facts about the user."
        )
        if self.mode == "context":
            return (
                "# Honcho Memory\nActive (context-injection mode). Relevant user context is added before "
                "each turn; no memory tools are available."
            )
        if self.mode == "tools":
            return f"# Honcho Memory\nActive (tools-only mode). {tools} Nothing is injected automatically."
        return f"# Honcho Memory\nActive (hybrid mode). Context is injected and tools are available. {tools}"

    def on_turn_start(self, turn_number: int, message: str, **context: Any) -> None:
        self._turn = max(int(turn_number), 0)
        super().on_turn_start(turn_number, message, **context)

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        if not self.config["saveMessages"]:
            return
        limit = min(max(1000, int(self.config["messageMaxChars"])), MAX_MESSAGE_CHARS)
        messages = [("user", c) for c in _chunks(user, limit)] + [
            ("ai", c) for c in _chunks(assistant, limit)
        ]
        if messages:
            self.queue_write("messages", {"session_key": self.session_key(), "messages": messages})

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if action == "add" and target == "user" and content.strip():
            self.queue_write("conclusion", {"content": content.strip()})

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self.flush_outbox()

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Ask the reasoning agent in the background (every ``dialecticCadence`` turns) for the next turn."""
        if self.mode == "tools" or self._turn - self._last_dialectic_turn < int(
            self.config["dialecticCadence"]
        ):
            return
        level = str(self.config["dialecticReasoningLevel"])
        try:
            answer = self.call("dialectic", lambda: self.honcho.chat(self.honcho.user_id, query, level))
        except ServiceError:
            return
        with self._lock:
            self._dialectic, self._last_dialectic_turn = answer.strip(), self._turn

    def recall(self, query: str) -> str:
        if self.mode == "tools" or (self.config["injectionFrequency"] == "first-turn" and self._turn > 1):
            return ""
        tokens = min(int(self.config["contextTokens"]), CONTEXT_MAX_TOKENS) or None
        ctx = self.honcho.context(self.honcho.user_id, query=query, tokens=tokens)
        parts = []
        if ctx["summary"]:
            parts.append(f"## Session Summary\n{ctx['summary']}")
        if ctx["representation"]:
            parts.append(f"## User Representation\n{ctx['representation']}")
        if ctx["card"]:
            parts.append("## User Peer Card\n" + "\n".join(f"- {fact}" for fact in ctx["card"]))
        with self._lock:
            dialectic, self._dialectic = self._dialectic, ""
        if dialectic:
            parts.append(f"## Dialectic\n{dialectic[: int(self.config['dialecticMaxChars'])]}")
        text = "\n\n".join(parts)
        return text[: tokens * 4] if tokens else text

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        if self.mode == "context":
            return []
        handlers = {
            "honcho_profile": self._tool_profile,
            "honcho_search": self._tool_search,
            "honcho_reasoning": self._tool_reasoning,
            "honcho_context": self._tool_context,
            "honcho_conclude": self._tool_conclude,
        }
        return [(spec, handlers[spec.name]) for spec in SCHEMAS]

    def _tool_profile(self, args: dict[str, Any]) -> ToolResult:
        target = self.honcho.resolve(args.get("peer"))
        card = args.get("card")
        if card:
            if not isinstance(card, list) or not all(isinstance(c, str) for c in card):
                raise ValueError("card must be a list of strings")
            saved = self.call("set_card", lambda: self.honcho.set_card(target, card))
            return ToolResult.done(result=f"Peer card updated ({len(saved)} facts).", card=saved)
        found = self.call("card", lambda: self.honcho.card(target))
        if not found:
            return ToolResult.done(
                result=[],
                hint="The card is empty: it fills in as Honcho observes the conversation.",
            )
        return ToolResult.done(result=found)

    def _tool_search(self, args: dict[str, Any]) -> ToolResult:
        query = str(args.get("query") or "").strip()
        if not query:
            raise ValueError("query is required")
        budget = min(int(args.get("max_tokens") or 800), 2000) * 4
        target = self.honcho.resolve(args.get("peer"))
        found = self.call("search", lambda: self.honcho.search(target, query, 10))
        excerpts, used = [], 0
        for hit in found:
            line = f"[{hit['peer']}] {hit['content']}"
            if used + len(line) > budget:
                break
            excerpts.append(line)
            used += len(line)
        return ToolResult.done(result="\n".join(excerpts) if excerpts else "No relevant context found.")

    def _tool_reasoning(self, args: dict[str, Any]) -> ToolResult:
        query = str(args.get("query") or "").strip()
        if not query:
            raise ValueError("query is required")
        level = args.get("reasoning_level") or str(self.config["dialecticReasoningLevel"])
        if level not in LEVELS:
            raise ValueError(f"reasoning_level must be one of {LEVELS}")
        target = self.honcho.resolve(args.get("peer"))
        answer = self.call("reasoning", lambda: self.honcho.chat(target, query, str(level)))
        self._last_dialectic_turn = self._turn
        return ToolResult.done(result=answer or "No result from Honcho.")

    def _tool_context(self, args: dict[str, Any]) -> ToolResult:
        target = self.honcho.resolve(args.get("peer"))
        ctx = self.call("context", lambda: self.honcho.context(target))
        parts = [
            f"## {title}\n{ctx[key]}"
            for title, key in (("Summary", "summary"), ("Representation", "representation"))
            if ctx[key]
        ]
        if ctx["card"]:
            parts.append("## Card\n" + "\n".join(f"- {c}" for c in ctx["card"]))
        if ctx["messages"]:
            parts.append(
                "## Recent messages\n"
                + "\n".join(f"  [{m['role']}] {m['content'][:200]}" for m in ctx["messages"][-5:])
            )
        return ToolResult.done(result="\n\n".join(parts) or "No context available yet.")

    def _tool_conclude(self, args: dict[str, Any]) -> ToolResult:
        conclusion = str(args.get("conclusion") or "").strip()
        delete_id = str(args.get("delete_id") or "").strip()
        listing = bool(args.get("list"))
        if sum((bool(conclusion), bool(delete_id), listing)) != 1:
            raise ValueError("pass exactly one of conclusion, delete_id or list=true")
        query = str(args.get("query") or "").strip()
        if query and not listing:
            raise ValueError("query only goes with list=true")
        target = self.honcho.resolve(args.get("peer"))
        if listing:
            return ToolResult.done(
                conclusions=self.call(
                    "conclusions", lambda: self.honcho.conclusions(target, query or None)
                )
            )
        if delete_id:
            self.call("delete_conclusion", lambda: self.honcho.delete_conclusion(target, delete_id))
            return ToolResult.done(result=f"Conclusion {delete_id} deleted.")
        self.call("conclude", lambda: self.honcho.conclude(conclusion, target))
        return ToolResult.done(result=f"Conclusion saved for {args.get('peer') or 'user'}: {conclusion}")

    # -- `silcrow providers check` ---------------------------------------------------------

    def prepare_clients(self) -> None:
        self.honcho  # noqa: B018 - builds the client

    def probe_write(self, text: str) -> str:
        made = self.call("probe", lambda: self.honcho.conclude(text, self.honcho.user_id))
        if not made:
            raise ServiceError("honcho created no conclusion for the probe")
        return str(made[0]["id"])

    def probe_search(self, text: str) -> bool:
        found = self.call("probe", lambda: self.honcho.conclusions(self.honcho.user_id, text, 5))
        return any(text in c["content"] for c in found)

    def probe_forget(self, ref: str) -> None:
        self.call("probe", lambda: self.honcho.delete_conclusion(self.honcho.user_id, ref))
