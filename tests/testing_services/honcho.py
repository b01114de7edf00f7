"""A loopback STAND-IN for the Honcho v3 API (not Honcho: no reasoning model, no deriver).

Routes under ``/v3/workspaces`` with the response shapes the ``honcho-ai``
SDK validates: get-or-create of workspaces, peers and sessions; messages;
session context; peer chat, search and card; conclusions (create, list,
query, delete). Where Honcho runs an LLM the stand-in is plain: a peer's
"representation" is its stored conclusions plus its own messages that share
words with the query, ``chat`` answers with the best matching ones, and the
summary lists the session's last user messages. ``Authorization: Bearer KEY``
is required; errors are ``{"detail": ...}``.

Strict where the server is (plastic-labs/honcho; the file each rule follows is
named at its route): a conclusion needs its session and both peers to exist
(404 otherwise, ``src/crud/document.py`` ``create_observations``); a
message's content is at most 25,000 characters (422, ``MAX_MESSAGE_SIZE``
in ``src/config.py``); a context's ``tokens`` at most 100,000 (422,
``GET_CONTEXT_MAX_TOKENS``); and a representation is what the observer
concluded about the observed (``src/routers/sessions.py``
``get_session_context``: the observer is ``peer_perspective`` or, without
one, ``peer_target`` itself).
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from testing_services.base import Reply, Request, StandInService, overlap_score

_WS = r"/v3/workspaces/([^/]+)"
MAX_MESSAGE_SIZE = 25_000  # src/config.py AppSettings.MAX_MESSAGE_SIZE
GET_CONTEXT_MAX_TOKENS = 100_000  # src/config.py AppSettings.GET_CONTEXT_MAX_TOKENS


def _now() -> str:
    return datetime.now(UTC).isoformat()


class HonchoStandIn(StandInService):
    service = "honcho"

    def __init__(self, api_key: str = "test-key", **kwargs: Any) -> None:
        super().__init__(api_key, **kwargs)
        self.workspaces: set[str] = set()
        self.peers: dict[tuple[str, str], dict[str, Any]] = {}
        self.sessions: dict[tuple[str, str], dict[str, Any]] = {}
        self.messages: list[dict[str, Any]] = []
        self.conclusions: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self.route("POST", r"/v3/workspaces", self._workspace)
        self.route("POST", _WS + r"/peers", self._peer)
        self.route("POST", _WS + r"/sessions", self._session)
        self.route("POST", _WS + r"/sessions/([^/]+)/messages", self._add_messages)
        self.route("GET", _WS + r"/sessions/([^/]+)/context", self._context)
        self.route("POST", _WS + r"/peers/([^/]+)/chat", self._chat)
        self.route("POST", _WS + r"/peers/([^/]+)/search", self._search)
        self.route("GET", _WS + r"/peers/([^/]+)/card", self._card)
        self.route("PUT", _WS + r"/peers/([^/]+)/card", self._set_card)
        self.route("POST", _WS + r"/conclusions", self._conclude)
        self.route("POST", _WS + r"/conclusions/list", self._list_conclusions)
        self.route("POST", _WS + r"/conclusions/query", self._query_conclusions)
        self.route("DELETE", _WS + r"/conclusions/([^/]+)", self._delete_conclusion)

    def error_body(self, status: int, message: str) -> Any:
        return {"detail": message}

    def _known_workspace(self, ws: str) -> None:
        if ws not in self.workspaces:
            raise self.violation(404, f"workspace {ws!r} was never created (POST /v3/workspaces first)")

    def _known_peer(self, ws: str, peer: str) -> None:
        self._known_workspace(ws)
        if (ws, peer) not in self.peers:
            raise Reply(404, {"detail": f"peer {peer!r} not found"})

    def _message(self, m: dict[str, Any]) -> dict[str, Any]:
        return {
            k: m[k]
            for k in (
                "id",
                "content",
                "peer_id",
                "session_id",
                "metadata",
                "created_at",
                "workspace_id",
                "token_count",
            )
        }

    def _workspace(self, req: Request) -> Any:
        ws = self.body_fields(req, "id")["id"]
        self.workspaces.add(ws)
        return {"id": ws, "metadata": {}, "configuration": {}, "created_at": _now()}

    def _peer(self, req: Request) -> Any:
        ws = req.groups[0]
        self._known_workspace(ws)
        peer = self.body_fields(req, "id")["id"]
        self.peers.setdefault((ws, peer), {"card": [], "created_at": _now()})
        return {
            "id": peer,
            "workspace_id": ws,
            "created_at": self.peers[(ws, peer)]["created_at"],
            "metadata": {},
            "configuration": {},
        }

    def _session(self, req: Request) -> Any:
        ws = req.groups[0]
        self._known_workspace(ws)
        body = self.body_fields(req, "id")
        session = self.sessions.setdefault((ws, body["id"]), {"peers": {}, "created_at": _now()})
        for peer, config in (body.get("peers") or {}).items():
            if (
                not isinstance(config, dict)
                or set(config) - {"observe_me", "observe_others"}
                or not all(isinstance(v, bool) for v in config.values())
            ):
                raise self.violation(
                    422, f"sessions: peer config of {peer!r} must be observe_me/observe_others bools"
                )
            self.peers.setdefault((ws, peer), {"card": [], "created_at": _now()})
            session["peers"][peer] = config
        return {
            "id": body["id"],
            "is_active": True,
            "workspace_id": ws,
            "metadata": {},
            "configuration": {},
            "created_at": session["created_at"],
        }

    @staticmethod
    def _invalid(loc: list[Any], msg: str, kind: str) -> Reply:
        """FastAPI's 422 for a request that fails its pydantic schema."""
        return Reply(422, {"detail": [{"loc": loc, "msg": msg, "type": kind}]})

    def _add_messages(self, req: Request) -> Any:
        # src/routers/messages.py create_messages_for_session; schemas.MessageCreate content
        # max_length=MAX_MESSAGE_SIZE
        ws, sid = req.groups
        if (ws, sid) not in self.sessions:
            raise Reply(404, {"detail": f"session {sid!r} not found"})
        batch = self.body_fields(req, "messages")["messages"]
        if not isinstance(batch, list) or not 1 <= len(batch) <= 100:
            raise self.violation(422, "messages: 1 to 100 messages per request")
        made: list[dict[str, Any]] = []
        for item in batch:
            if (
                not isinstance(item, dict)
                or not isinstance(item.get("content"), str)
                or not item.get("peer_id")
            ):
                raise self.violation(422, "messages: each needs content and peer_id")
            if len(item["content"]) > MAX_MESSAGE_SIZE:
                raise self._invalid(["body", "messages", len(made), "content"],
                                    f"String should have at most {MAX_MESSAGE_SIZE} characters",
                                    "string_too_long")
            self._known_peer(ws, item["peer_id"])
            message = {
                "id": f"msg_{next(self._ids)}",
                "content": item["content"],
                "peer_id": item["peer_id"],
                "session_id": sid,
                "metadata": item.get("metadata") or {},
                "created_at": _now(),
                "workspace_id": ws,
                "token_count": max(1, len(item["content"]) // 4),
            }
            self.messages.append(message)
            made.append(self._message(message))
        return made

    def _about(self, ws: str, peer: str, query: str, k: int = 5, *, observer: str = "") -> list[str]:
        """What ``observer`` (default: ``peer`` itself) 'knows' about ``peer``: its conclusions about
        it, then the peer's own matching messages."""
        facts = [
            c["content"]
            for c in self.conclusions.values()
            if c["workspace"] == ws and c["observed_id"] == peer and c["observer_id"] == (observer or peer)
        ]
        said = [m for m in self.messages if m["workspace_id"] == ws and m["peer_id"] == peer]
        if query:
            facts = [f for f in facts if overlap_score(query, f) > 0] or facts[:2]
            said = sorted(
                (m for m in said if overlap_score(query, m["content"]) > 0),
                key=lambda m: -overlap_score(query, m["content"]),
            )
        return (facts + [m["content"] for m in said])[:k]

    def _context(self, req: Request) -> Any:
        # src/routers/sessions.py get_session_context
        ws, sid = req.groups
        if (ws, sid) not in self.sessions:
            raise Reply(404, {"detail": f"session {sid!r} not found"})
        tokens = req.params.get("tokens")
        if tokens is not None and (not tokens.isdigit() or int(tokens) > GET_CONTEXT_MAX_TOKENS):
            raise self._invalid(["query", "tokens"], f"Input should be less than or equal to "
                                f"{GET_CONTEXT_MAX_TOKENS}", "less_than_equal")
        perspective = req.params.get("peer_perspective")
        if perspective and not req.params.get("peer_target"):
            raise Reply(422, {"detail": "peer_target must be provided if peer_perspective is provided"})
        mine = [m for m in self.messages if m["workspace_id"] == ws and m["session_id"] == sid]
        target = req.params.get("peer_target")
        summary = None
        if len(mine) >= 4:
            said = [m["content"] for m in mine if m["peer_id"] == target][-3:]
            summary = {
                "content": "Earlier in this session the user said: " + " / ".join(said),
                "message_id": mine[-1]["id"],
                "summary_type": "short",
                "created_at": _now(),
                "token_count": 20,
            }
        representation = card = None
        if target:
            self._known_peer(ws, target)
            query = req.params.get("search_query", "")
            about = self._about(ws, target, query, observer=perspective or target)
            representation = "\n".join(f"- {a}" for a in about) or None
            card = self.peers[(ws, target)]["card"] or None
        return {
            "id": sid,
            "messages": [self._message(m) for m in mine[-10:]],
            "summary": summary,
            "peer_representation": representation,
            "peer_card": card,
        }

    def _chat(self, req: Request) -> Any:
        # src/routers/peers.py chat: the peer answers about ``target`` (default: itself) from
        # what it observed
        ws, peer = req.groups
        self._known_peer(ws, peer)
        body = self.body_fields(req, "query")
        if body.get("reasoning_level", "low") not in {"minimal", "low", "medium", "high", "max"}:
            raise self.violation(422, f"chat: bad reasoning_level {body.get('reasoning_level')!r}")
        target = str(body.get("target") or peer)
        self._known_peer(ws, target)
        about = self._about(ws, target, body["query"], 2, observer=peer)
        return {"content": ("Based on what they said: " + " ".join(about)) if about else None}

    def _search(self, req: Request) -> Any:
        ws, peer = req.groups
        self._known_peer(ws, peer)
        body = self.body_fields(req, "query")
        hits = sorted(
            (
                m
                for m in self.messages
                if m["workspace_id"] == ws
                and m["peer_id"] == peer
                and overlap_score(body["query"], m["content"]) > 0
            ),
            key=lambda m: -overlap_score(body["query"], m["content"]),
        )
        return [self._message(m) for m in hits[: int(body.get("limit") or 10)]]

    def _card(self, req: Request) -> Any:
        ws, peer = req.groups
        self._known_peer(ws, peer)
        return {"peer_card": self.peers[(ws, peer)]["card"] or None}

    def _set_card(self, req: Request) -> Any:
        ws, peer = req.groups
        self._known_peer(ws, peer)
        card = self.body_fields(req, "peer_card")["peer_card"]
        if not isinstance(card, list) or not all(isinstance(c, str) for c in card):
            raise self.violation(422, "card: peer_card must be a list of strings")
        self.peers[(ws, peer)]["card"] = card
        return {"peer_card": card}

    def _conclusion(self, c: dict[str, Any]) -> dict[str, Any]:
        return {k: c[k] for k in ("id", "content", "observer_id", "observed_id", "session_id", "created_at")}

    def _conclude(self, req: Request) -> Any:
        # src/routers/conclusions.py create_conclusions -> src/crud/document.py create_observations:
        # every named session and peer must exist (get_session / get_peer raise 404), before any
        # conclusion is stored; 201 with the list
        ws = req.groups[0]
        self._known_workspace(ws)
        made: list[dict[str, Any]] = []
        items = self.body_fields(req, "conclusions")["conclusions"]
        for item in items:
            if not isinstance(item, dict) or not all(
                item.get(k) for k in ("content", "observer_id", "observed_id")
            ):
                raise self.violation(422, "conclusions: each needs content, observer_id and observed_id")
            if item.get("session_id") and (ws, item["session_id"]) not in self.sessions:
                raise Reply(404, {"detail": f"Session {item['session_id']} not found in workspace {ws}"})
            for peer in (item["observer_id"], item["observed_id"]):
                if (ws, peer) not in self.peers:
                    raise Reply(404, {"detail": f"Peer {peer} not found in workspace {ws}"})
        for item in items:
            cid = f"con_{next(self._ids)}"
            self.conclusions[cid] = {
                "id": cid,
                "workspace": ws,
                "content": item["content"],
                "observer_id": item["observer_id"],
                "observed_id": item["observed_id"],
                "session_id": item.get("session_id"),
                "created_at": _now(),
            }
            made.append(self._conclusion(self.conclusions[cid]))
        raise Reply(201, made)

    def _matching(self, ws: str, filters: Any) -> list[dict[str, Any]]:
        filters = filters if isinstance(filters, dict) else {}
        return [
            c
            for c in self.conclusions.values()
            if c["workspace"] == ws
            and all(c.get(k) == filters[k] for k in ("observer_id", "observed_id") if k in filters)
        ]

    def _list_conclusions(self, req: Request) -> Any:
        ws = req.groups[0]
        self._known_workspace(ws)
        found = self._matching(ws, (req.body or {}).get("filters"))
        size = int(req.params.get("size") or 50)
        items = [self._conclusion(c) for c in found[:size]]
        return {"items": items, "page": 1, "size": size, "total": len(found), "pages": 1}

    def _query_conclusions(self, req: Request) -> Any:
        ws = req.groups[0]
        self._known_workspace(ws)
        body = self.body_fields(req, "query")
        found = [
            c
            for c in self._matching(ws, body.get("filters"))
            if overlap_score(body["query"], c["content"]) > 0
        ]
        found.sort(key=lambda c: -overlap_score(body["query"], c["content"]))
        return [self._conclusion(c) for c in found[: int(body.get("top_k") or 10)]]

    def _delete_conclusion(self, req: Request) -> Any:
        ws, cid = req.groups
        if self.conclusions.get(cid, {}).get("workspace") != ws:
            raise Reply(404, {"detail": f"conclusion {cid!r} not found"})
        del self.conclusions[cid]
        return None
