"""The calls silcrow makes through the ``honcho-ai`` SDK (imported here, lazily, and only here).

One :class:`HonchoSession` holds the workspace's two peers (the user and the
AI) and the Honcho session the conversation lands in. Every answer comes
back as plain data; the SDK validates response shapes itself (pydantic)
and its errors are translated by the provider's breaker.
"""

from __future__ import annotations

from typing import Any

from silcrow.errors import ServiceError

# The server's limits (honcho src/config.py defaults): a message's content is at most
# MAX_MESSAGE_SIZE characters (422 above), a context at most GET_CONTEXT_MAX_TOKENS (422 above).
MAX_MESSAGE_CHARS = 25_000
CONTEXT_MAX_TOKENS = 100_000


class HonchoSession:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        environment: str,
        workspace: str,
        timeout: float,
        session_key: str,
        user_peer: str,
        ai_peer: str,
        observation: dict[str, dict[str, bool]] | None = None,
    ) -> None:
        try:
            from honcho import Honcho
        except ImportError as exc:
            raise ServiceError(
                f'the honcho-ai package cannot be imported ({exc}): pip install "silcrow[honcho]"',
                permanent=True,
            ) from exc
        kwargs: dict[str, Any] = {"workspace_id": workspace, "timeout": timeout, "max_retries": 0}
        if base_url:
            kwargs["base_url"] = base_url
        else:
            kwargs["environment"] = environment if environment in {"local", "production"} else "production"
        self.client = Honcho(api_key=api_key or None, **kwargs)
        self.session_key, self.user_id, self.ai_id = session_key, user_peer, ai_peer
        self.observation = observation or {}  # "user"/"ai" -> {"observeMe", "observeOthers"}
        self._peers: dict[str, Any] = {}
        self._sessions: dict[str, Any] = {}

    def peer(self, peer_id: str) -> Any:
        if peer_id not in self._peers:
            self._peers[peer_id] = self.client.peer(peer_id)
        return self._peers[peer_id]

    def session(self, key: str | None = None) -> Any:
        key = key or self.session_key
        if key not in self._sessions:
            from honcho.api_types import SessionPeerConfig

            peers = []
            for who, pid in (("user", self.user_id), ("ai", self.ai_id)):
                seen = self.observation.get(who, {})
                config = SessionPeerConfig(
                    observe_me=seen.get("observeMe"), observe_others=seen.get("observeOthers")
                )
                peers.append((pid, config))
            self._sessions[key] = self.client.session(key, peers=peers)
        return self._sessions[key]

    def resolve(self, peer: Any) -> str:
        """The peer id for a tool's ``peer`` argument: 'user', 'ai' or any id."""
        name = str(peer or "user").strip()
        return {"user": self.user_id, "ai": self.ai_id}.get(name, name)

    # -- writes ----------------------------------------------------------------------------
    def add_messages(self, messages: list[tuple[str, str]], session_key: str | None = None) -> None:
        """``(peer id, text)`` pairs, in order, to the session (the current one by default)."""
        self.session(session_key).add_messages([self.peer(pid).message(text) for pid, text in messages])

    def conclude(self, content: str, target: str) -> list[dict[str, Any]]:
        # The server 404s a conclusion whose session or peers do not exist yet (first use, or a
        # note before the first synced turn): the session (with both peers) is made first.
        self.session()
        if target not in (self.user_id, self.ai_id):
            self.peer(target)
        made = (
            self.peer(self.ai_id)
            .conclusions_of(target)
            .create([{"content": content, "session_id": self.session_key}])
        )
        return [{"id": c.id, "content": c.content} for c in made]

    # -- reads -----------------------------------------------------------------------------
    def context(self, target: str, *, query: str | None = None, tokens: int | None = None) -> dict[str, Any]:
        # From the AI peer's perspective: the curated notes are its conclusions about the user, and
        # without a perspective the server answers only the target's view of itself.
        kwargs: dict[str, Any] = {"summary": True, "peer_target": target}
        if target != self.ai_id:
            kwargs["peer_perspective"] = self.ai_id
        if query:
            kwargs["search_query"] = query[:10000]
        if tokens:
            kwargs["tokens"] = min(tokens, CONTEXT_MAX_TOKENS)
        ctx = self.session().context(**kwargs)
        summary = getattr(ctx, "summary", None)
        return {
            "summary": getattr(summary, "content", "") or "",
            "representation": getattr(ctx, "peer_representation", None) or "",
            "card": list(getattr(ctx, "peer_card", None) or []),
            "messages": [
                {"role": "user" if m.peer_id == self.user_id else "assistant", "content": m.content}
                for m in getattr(ctx, "messages", None) or []
            ],
        }

    def chat(self, target: str, query: str, level: str | None) -> str:
        # Asked of the AI peer about the target, like context(): its conclusions (the notes) count.
        if target == self.ai_id:
            answer = self.peer(target).chat(query[:10000], reasoning_level=level or None)
        else:
            answer = self.peer(self.ai_id).chat(query[:10000], target=target, reasoning_level=level or None)
        return answer if isinstance(answer, str) else ""

    def search(self, target: str, query: str, limit: int) -> list[dict[str, Any]]:
        found = self.peer(target).search(query, limit=limit)
        return [{"peer": m.peer_id, "session": m.session_id, "content": m.content} for m in found]

    def card(self, target: str) -> list[str]:
        return list(self.peer(target).get_card() or [])

    def set_card(self, target: str, card: list[str]) -> list[str]:
        return list(self.peer(target).set_card(card) or [])

    def conclusions(self, target: str, query: str | None, limit: int = 20) -> list[dict[str, Any]]:
        scope = self.peer(self.ai_id).conclusions_of(target)
        found = scope.query(query, top_k=limit) if query else scope.list(size=limit).items
        return [{"id": c.id, "content": c.content} for c in found]

    def delete_conclusion(self, target: str, conclusion_id: str) -> None:
        self.peer(self.ai_id).conclusions_of(target).delete(conclusion_id)
