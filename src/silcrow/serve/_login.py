"""The inspector's log-in: the one-time link ``silcrow serve`` prints, and log-out.

``silcrow serve`` prints a one-time link (``/#once=CODE``): the page trades
the code, once and within :data:`ONCE_SECONDS`, for a new review token of the
served profile (named ``inspector-...``, listed and revocable like any other)
that expires after ``[serve] login_token_hours`` and that "Log out" revokes.
These calls touch the server's token file, not a profile's memory.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from silcrow.errors import SilcrowError
from silcrow.serve._auth import access_of
from silcrow.serve._web import CSRF_HEADER, MalformedBody, _form

log = logging.getLogger(__name__)

ONCE_SECONDS = 600.0

router = APIRouter(include_in_schema=False)


class OneTimeLogins:
    """Codes printed by ``silcrow serve``, each good once for a new token of one profile."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._codes: dict[str, tuple[str | None, float]] = {}
        self._lock = threading.Lock()

    def issue(self, profile: str | None) -> str:
        code = secrets.token_urlsafe(24)
        with self._lock:
            self._codes[_digest(code)] = (profile, time.monotonic() + ONCE_SECONDS)
        return code

    def redeem(self, code: str) -> str | None:
        """A new review token for the code's profile, expiring after ``[serve] login_token_hours``;
        None for an unknown, used or expired code."""
        from silcrow.serve._tokens import create_token, login_token_seconds

        digest = _digest(code)
        with self._lock:
            found = self._codes.get(digest)
            if found is not None and found[1] < time.monotonic():
                del self._codes[digest]
                found = None
        if found is None:
            return None
        lifetime = login_token_seconds(self.base, found[0])  # a bad setting raises: the code stays good
        with self._lock:
            if self._codes.pop(digest, None) is None:  # a parallel redeem of it won
                return None
        secret, _ = create_token(self.base, profile=found[0], scope="review",
                                 name=f"inspector-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}",
                                 expires_in=lifetime, login=True)
        return secret


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def inspector_login(app: Any, base: Path, served: Path) -> str | None:
    """A one-time login code for ``served`` (a home under ``base``) on ``app``; None when no token
    exists yet (the page then needs no login, like every other route)."""
    from silcrow.serve._tokens import TokenBook

    if not TokenBook(base).any():
        return None
    served, base = served.absolute(), base.absolute()
    profile = served.name if served.parent == base / "profiles" else None
    logins: OneTimeLogins = app.state.inspector_logins
    return logins.issue(profile)


@router.post("/ui/login/once")
async def login_once(request: Request) -> JSONResponse:
    if not request.headers.get(CSRF_HEADER):
        return JSONResponse({"success": False, "error": f"missing the {CSRF_HEADER} header"}, status_code=403)
    try:
        form = await _form(request)
    except MalformedBody as exc:
        return JSONResponse({"success": False, "error": str(exc)}, status_code=400)
    logins: OneTimeLogins = request.app.state.inspector_logins
    try:
        token = await anyio.to_thread.run_sync(logins.redeem, form.get("code", ""))
    except SilcrowError as exc:  # a bad [serve] setting, a locked token file: for the operator's eyes
        log.error("could not make a login token: %s", exc)
        return JSONResponse({"success": False, "error": "the server could not make a login token; its "
                             "operator finds why in the server's log"}, status_code=503)
    if token is None:
        return JSONResponse({"success": False, "error": "this login link was used already or has expired; "
                             "restart `silcrow serve` for a new one, or paste a token"}, status_code=401)
    return JSONResponse({"success": True, "token": token}, headers={"cache-control": "no-store"})


@router.post("/ui/logout")
async def logout(request: Request) -> JSONResponse:
    """Revoke the caller's token when the one-time link made it (a token pasted in is only
    forgotten by the page: it was made with `silcrow tokens create` and may be in use elsewhere)."""
    if not request.headers.get(CSRF_HEADER):
        return JSONResponse({"success": False, "error": f"missing the {CSRF_HEADER} header"}, status_code=403)
    access = access_of(request.scope)
    logins: OneTimeLogins = request.app.state.inspector_logins

    def revoke() -> bool:
        from silcrow.serve._tokens import list_tokens, revoke_token

        mine = [r for r in list_tokens(logins.base) if r.id == access.token_id]
        if not mine or not mine[0].login:
            return False
        revoke_token(logins.base, mine[0].id)
        return True

    try:
        revoked = await anyio.to_thread.run_sync(revoke)
    except SilcrowError as exc:
        return JSONResponse({"success": False, "error": f"could not revoke the token: {exc}"},
                            status_code=503)
    message = ("logged out; the token of this login is revoked" if revoked else "logged out of this "
               "page; the token itself stays valid (revoke it with `silcrow tokens revoke`)")
    return JSONResponse({"success": True, "revoked": revoked, "message": message})
