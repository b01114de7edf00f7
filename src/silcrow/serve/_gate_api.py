"""REST routes of the write-approval gate: list, approve and reject pending proposals.

Mounted before the ``/v1/memory/{target}`` routes (``pending`` is not a target).
Approving and rejecting need the ``review`` scope (a person's): any other token
gets 403 from the token gate. :class:`ProposerContext` records who made each
request, so every write, proposal and decision names its client and token (name
and id), and the session the caller claims as claimed.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Receive, Scope, Send

from silcrow.serve._auth import ACCESS_KEY
from silcrow.serve._guard import answer_error
from silcrow.serve._rest import respond
from silcrow.store import Proposer, current_proposer

router = APIRouter()
# The headers a caller names its session with (shown as sent, in the error that refuses one).
SESSION_HEADERS = {b"mcp-session-id": "Mcp-Session-Id", b"x-silcrow-session": "X-Silcrow-Session"}


def _visible_ascii(value: bytes) -> bool:
    """Whether a header value is only visible ASCII (0x21-0x7E), as MCP requires of a session id:
    anything else would reach a person's terminal or page as the caller chose it."""
    return all(0x21 <= byte <= 0x7E for byte in value)


class ApproveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base: str | None = Field(None, max_length=64, description=(
        "The proposal's `base` from the listing: the approval is refused as stale (422) when the "
        "notes have changed since, instead of applying something other than what was shown."))


class RejectBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str | None = Field(None, max_length=2000, description="Why (kept with the decision).")


@router.get("/v1/memory/pending")
async def pending(request: Request, sequential: bool = False) -> Response:
    """The model's writes waiting for approval, each with its net effect on the live notes
    (``changes``, ``base``, ``problem``). ``sequential``: each against the notes the ones
    before it leave, as approving them all in order meets them. ``box``: how full the box
    is (new proposals are refused when it, or a caller's share, is full)."""
    return await respond(request, lambda tenant: {
        "success": True, "pending": tenant.review(sequential), "box": tenant.box_usage()})


@router.post("/v1/memory/pending/{proposal_id}/approve")
async def approve(request: Request, proposal_id: str, body: ApproveBody | None = None) -> Response:
    """Apply a proposal through the normal write path (422 with the reason when refused,
    ``stale`` when the notes changed since its ``base`` or its ``old_text`` no longer finds
    one entry; 404 when there is no such proposal); the reply's ``changes`` are what it did."""
    base = body.base if body else None
    return await respond(request, lambda tenant: tenant.approve(proposal_id, base=base))


@router.post("/v1/memory/pending/{proposal_id}/reject")
async def reject(request: Request, proposal_id: str, body: RejectBody | None = None) -> Response:
    reason = body.reason if body else None
    return await respond(request, lambda tenant: tenant.reject(proposal_id, reason))


class ProposerContext:
    """Sets :data:`~silcrow.store.current_proposer` for each request that passed the
    token gate: the client (mcp, rest, web), the token's name and id, and the session its
    header claims (``claimed_session``: any caller can send any value, so one that is not visible
    ASCII is refused with 400 naming the header)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        access = scope.get(ACCESS_KEY)
        if scope["type"] != "http" or access is None:
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        client = "mcp" if path.startswith("/mcp") else "web" if path.startswith("/ui") else "rest"
        headers = dict(scope.get("headers") or [])
        name = next((n for n in SESSION_HEADERS if headers.get(n)), b"")
        session = headers.get(name)
        if session and not _visible_ascii(session):
            await answer_error(send, 400, f"the {SESSION_HEADERS[name]} header holds a character that is not "
                               "visible ASCII (a control character, a line break, or a byte of another "
                               "encoding); send a session id of the characters 0x21 to 0x7E only")
            return
        token = current_proposer.set(Proposer(
            claimed_session=session.decode("ascii")[:200] if session else None, client=client,
            token=getattr(access, "token_name", None), token_id=getattr(access, "token_id", None)))
        try:
            await self.app(scope, receive, send)
        finally:
            current_proposer.reset(token)
