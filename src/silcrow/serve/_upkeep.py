"""Entry metadata, the archive and the review pass over HTTP: REST routes and the inspector's
archive panel.

REST (mounted before ``/v1/memory/{target}``, like the gate's routes):

* ``GET /v1/memory/details[?target=]``: each live entry with when and by whom it was
  written and how it has been used;
* ``GET /v1/memory/archive[?query=&target=]``: entries that left the notes, newest first;
* ``POST /v1/memory/archive/{id}/restore``: add one back through the normal write path (a
  caller's restore is a write like any other: under ``write_policy = "approve"`` it waits
  for approval);
* ``POST /v1/memory/review``: run the review pass; its findings become pending proposals.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from silcrow.safety import display_safe
from silcrow.serve._auth import access_of
from silcrow.serve._rest import respond
from silcrow.serve._tenant import Tenant
from silcrow.serve._web import _fragment, _message, _refused, h
from silcrow.store import PROJECT_TARGET, TARGET_FILES
from silcrow.store import author_label as label

router = APIRouter()

# A restore asked over HTTP is a caller's write: the approval gate holds it like any REST write.
CALLER_ORIGIN = "rest"


def _target(target: str | None) -> str | None:
    if target is not None and target not in TARGET_FILES and target != PROJECT_TARGET:
        raise ValueError(f"unknown target {target!r}: use 'memory', 'user' or 'project'")
    return target


def _bad(message: str) -> JSONResponse:
    return JSONResponse({"success": False, "error": message}, status_code=400)


@router.get("/v1/memory/details")
async def details(request: Request, target: str | None = None) -> Response:
    try:
        chosen = _target(target)
    except ValueError as exc:
        return _bad(str(exc))
    return await respond(request, lambda tenant: {
        "success": True, "details": tenant.targeted(chosen).details(chosen, safe=True)})


@router.get("/v1/memory/archive")
async def archive(request: Request, query: str | None = Query(None, max_length=2000),
                  target: str | None = None) -> Response:
    try:
        chosen = _target(target)
    except ValueError as exc:
        return _bad(str(exc))
    return await respond(request, lambda tenant: {
        "success": True, "archive": tenant.targeted(chosen).archived(query, target=chosen, safe=True)})


@router.post("/v1/memory/archive/{item_id}/restore")
async def restore(request: Request, item_id: str) -> Response:
    """Add an archived entry back (404 when there is none of that id)."""
    return await respond(request, lambda tenant: tenant.notes().restore(item_id, origin=CALLER_ORIGIN))


@router.post("/v1/memory/review")
async def review(request: Request) -> Response:
    return await respond(request, lambda tenant: {"success": True, "findings": run_review(tenant)})


def run_review(tenant: Tenant) -> list[dict[str, Any]]:
    """The review pass with the tenant's embedder (rules alone when it has none)."""
    findings: list[dict[str, Any]] = tenant.notes().consolidate(embed=tenant.settings.embed_function())
    return findings


# ------------------------------------------------------------------------------ inspector


def render_archive(tenant: Tenant, can_write: bool, query: str = "", message: str = "") -> str:
    items = tenant.notes().archived(query or None)
    out = [message]
    if not items:
        out.append('<p class="hint">Nothing archived' + (" matches." if query else " yet.") + "</p>")
        return "".join(out)
    out.append('<ol class="archive">')
    for item in items[:200]:
        when = h(str(item.get("archived", ""))[:19].replace("T", " "))
        line = (f'<li><div class="entry">{h(display_safe(str(item.get("text", ""))))}</div>'
                f'<p class="hint"><time>{when}</time> {h(item.get("target", ""))} · {h(item.get("why", ""))} '
                f'by {h(label(item.get("by")))} · id <code>{h(item.get("id", ""))}</code></p>')
        if item.get("replaced_by"):
            line += f'<div class="was">now: {h(display_safe(str(item["replaced_by"])))}</div>'
        if can_write:
            line += (f'<form class="inline" hx-post="/ui/archive/{h(item.get("id", ""))}/restore" '
                     'hx-target="#archive" hx-swap="innerHTML"><button type="submit">Restore</button></form>')
        out.append(line + "</li>")
    out.append("</ol>")
    return "".join(out)


@router.get("/ui/archive")
async def archive_panel(request: Request, q: str = Query("", max_length=2000)) -> HTMLResponse:
    can_review = access_of(request.scope).can_review  # restoring here is a person's direct edit
    return await _fragment(request, lambda tenant, _can_write: render_archive(tenant, can_review, q))


@router.post("/ui/archive/{item_id}/restore")
async def restore_from_panel(request: Request, item_id: str) -> HTMLResponse:
    refused = _refused(request, need_review=True)  # a direct edit in the inspector: a person's
    if refused is not None:
        return refused

    def run(tenant: Tenant, _allowed: bool) -> str:
        result = dict(tenant.notes().restore(item_id, origin="web"))
        return render_archive(tenant, True, message=_message(result))

    return await _fragment(request, run, trigger="silcrow-notes")
