"""The web inspector at ``/`` of ``silcrow serve``: see and steer what the agent remembers.

Server-rendered HTML fragments, swapped in by htmx (vendored in ``static/``,
served from here: no CDN, no build step). The page itself and its static
files hold no memory and are public; every fragment and every action is a
``/ui/...`` route behind the same Host/Origin check and token gate as the API:
the page's script sends the token the user pasted (kept in the tab's
``sessionStorage``) as ``Authorization: Bearer``, so the page only ever sees
that token's profile.

Safety of the page:

* memory content is untrusted: everything shown goes through :func:`h`
  (HTML-escaped), and htmx runs no scripts from swapped content;
* a strict Content-Security-Policy (scripts and styles only from this
  server, nothing inline, no frames, no foreign form targets);
* writes need the custom ``X-Silcrow-CSRF`` header (a cross-site form cannot
  send one, and no CORS is offered);
* a person's edits here are applied at once (origin ``web``, the token named in
  the journal), as at the CLI, and the model's proposals wait for the buttons of
  the pending panel: both need a token with the ``review`` scope (a person's),
  so a model's write token sees the panels but cannot press them.

Logging in with the one-time link ``silcrow serve`` prints is :mod:`silcrow.serve._login`.
Every panel and action calls the tenant through its one entry (:func:`_fragment`): the
profile's thread bound holds for the inspector too, and a failure is shown with its
status from the one table (:mod:`silcrow.serve._errors`).
"""

from __future__ import annotations

import html
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from silcrow.errors import SilcrowError
from silcrow.recall import round_trip
from silcrow.safety import display_safe
from silcrow.serve._auth import access_of, review_needed
from silcrow.serve._errors import failure
from silcrow.serve._mcp_server import Access
from silcrow.serve._tenant import Tenant
from silcrow.store import (
    PROJECT_FILES,
    PROJECT_TARGET,
    TARGET_FILES,
    author_label,
    box_warnings,
    shown_origin,
    who_text,
)

STATIC = Path(__file__).with_name("static")
STATIC_FILES = {"htmx.min.js": "text/javascript", "inspector.js": "text/javascript",
                "inspector.css": "text/css"}
# Public (listed in auth.PUBLIC_PATHS too): the shell and its files, which hold no memory, and the
# one-time login.
PUBLIC_PATHS = frozenset({"/", "/favicon.ico", "/ui/login/once", *(f"/static/{n}" for n in STATIC_FILES)})
CSRF_HEADER = "x-silcrow-csrf"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
           "referrer-policy": "no-referrer", "x-frame-options": "DENY", "cache-control": "no-store"}
LABELS = {"memory": "the agent's notes", "user": "the user profile", PROJECT_TARGET: "this project's notes"}
FILES = {**TARGET_FILES, **PROJECT_FILES}

router = APIRouter(include_in_schema=False)


def h(value: Any) -> str:
    """``value`` as text inside HTML (an element or a quoted attribute)."""
    return html.escape(str(value), quote=True)


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=HEADERS)


# ------------------------------------------------------------------------------- the shell


# The page: no memory in it, the same for every caller; every panel is a fragment it loads.
SHELL = (STATIC / "inspector.html").read_text(encoding="utf-8")


@router.get("/")
def shell() -> HTMLResponse:
    return _html(SHELL)


@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(status_code=204, headers=HEADERS)  # none: but a browser asks


def _static(name: str) -> Callable[[], Response]:
    def serve_file() -> Response:
        body = (STATIC / name).read_bytes()
        headers = {**HEADERS, "cache-control": "no-cache"}
        return Response(body, media_type=STATIC_FILES[name], headers=headers)

    return serve_file


for _name in STATIC_FILES:
    router.add_api_route(f"/static/{_name}", _static(_name), methods=["GET"])


# ------------------------------------------------------------------------------- reads


async def _fragment(request: Request, render: Callable[[Tenant, bool], str], *,
                    review: bool = False, trigger: str | None = None) -> HTMLResponse:
    """``render(tenant, allowed)`` through the tenant's one entry (on a worker thread, within
    its thread bound), as the fragment; ``allowed``: whether the caller may press what the
    fragment offers (write, or with ``review`` the review scope); ``trigger``: the panels to
    reload after it (htmx's ``HX-Trigger``). A failure is shown with its status and text from
    the one table (:mod:`silcrow.serve._errors`)."""
    access = access_of(request.scope)
    allowed = access.can_review if review else access.can_write
    try:
        body = await access.tenant.offload(render, access.tenant, allowed)
    except Exception as exc:  # the one place an inspector call's failure is answered
        status, error = failure(exc)
        return _html(f'<p class="error">{h(error)}</p>', status)
    return HTMLResponse(body, headers={**HEADERS, "hx-trigger": trigger} if trigger else HEADERS)


@router.get("/ui/whoami")
async def whoami(request: Request) -> HTMLResponse:
    access = access_of(request.scope)

    def render(tenant: Tenant, _allowed: bool) -> str:
        scope = h(_scope_text(access))
        where = f" in project <strong>{h(tenant.project)}</strong>" if tenant.project else ""
        return f'profile <strong>{h(_profile(tenant))}</strong>{where} <span class="hint">({scope})</span>'

    return await _fragment(request, render)


def _scope_text(access: Access) -> str:
    if access.can_review:
        return "review: read, write, decide proposals"
    if access.can_write:
        return "write: proposals only, no deciding or editing here"
    return "read only"


REVIEW_HINT = ('<p class="hint">Deciding and editing here need a review token (a person\'s): this one '
               "can only look. Open the one-time link <code>silcrow serve</code> prints, or approve with "
               "<code>silcrow memory approve ID</code>.</p>")


def _profile(tenant: Tenant) -> str:
    home = tenant.home
    return home.name if home.parent.name == "profiles" else "default"


def _write_form(action: str, fields: dict[str, str], label: str, *, extra: str = "",
                cls: str = "") -> str:
    hidden = "".join(f'<input type="hidden" name="{h(k)}" value="{h(v)}">' for k, v in fields.items())
    return (f'<form class="inline {cls}" hx-post="{h(action)}" hx-target="#notes" hx-swap="innerHTML">'
            f'{hidden}{extra}<button type="submit">{h(label)}</button></form>')


def _entry_history(records: list[dict[str, Any]], entry: str) -> str:
    """The journal records that brought ``entry`` into its file, newest first."""
    items: list[str] = []
    for record in reversed(records):
        before, after = record.get("before") or [], record.get("after") or []
        if entry not in after or entry in before:
            continue
        was = [e for e in before if e not in after]
        who = record.get("proposal") or {}
        source = shown_origin(str(record.get("origin", "")))
        if record.get("by"):
            source += " · by " + who_text(record["by"])
        if who:
            source += " · proposed by " + who_text(who)
        line = (f'<li><time>{h(str(record.get("time", ""))[:19].replace("T", " "))}</time> '
                f'{h(record.get("action", ""))} <span class="hint">({h(source)})</span>')
        if was:
            line += "".join(f'<div class="was">was: {h(display_safe(e))}</div>' for e in was)
        items.append(line + "</li>")
    if not items:
        return '<p class="hint">Not in the journal (written before it, or by hand).</p>'
    return f'<ol class="history">{"".join(items)}</ol>'


def entry_meta(item: dict[str, Any]) -> str:
    """One line of an entry's metadata for the notes panel."""
    def when(value: Any) -> str:
        return str(value)[:16].replace("T", " ")

    if item.get("added"):
        text = f"added {when(item['added'])} by {author_label(item.get('added_by'))}"
        if item.get("changed") and item["changed"] != item["added"]:
            text += f"; changed {when(item['changed'])} by {author_label(item.get('changed_by'))}"
    else:
        text = "written before silcrow kept metadata"
    text += f" · in {item.get('prompt_sessions', 0)} session prompt(s)"
    if item.get("last_surfaced"):
        text += f" · last surfaced {when(item['last_surfaced'])}"
    return f'<p class="hint meta">{h(text)}</p>'


def render_notes(tenant: Tenant, can_write: bool, message: str = "") -> str:
    notes = tenant.notes()
    records = notes.history()
    described = notes.details()
    out = [message]
    for target in notes.targets:
        file_name = FILES[target]
        meta = {item["text"]: item for item in described.get(target, [])}
        view = notes.read(target)
        entries, limit, used = list(view.entries), view.char_limit, view.used
        where = f": {notes.project}" if target == PROJECT_TARGET else ""
        out.append(f'<section class="file" aria-label="{h(file_name)}"><h3>{h(file_name)} '
                   f'<span class="hint">{h(LABELS[target] + where)}</span></h3>'
                   f'<p class="usage"><meter min="0" max="{limit}" low="{int(limit * 0.7)}" '
                   f'high="{int(limit * 0.9)}" optimum="0" value="{min(used, limit)}" '
                   f'aria-label="{h(file_name)} usage"></meter> {h(view.usage)}</p>')
        out.append('<ol class="entries">')
        for number, entry in enumerate(entries, start=1):
            out.append(f'<li><div class="entry">{h(display_safe(entry))}</div>')
            if entry in meta:
                out.append(entry_meta(meta[entry]))
            out.append(f"<details><summary>History</summary>{_entry_history(records, entry)}</details>")
            if can_write:
                edit_id = f"edit-{target}-{number}"
                textarea = (f'<label class="sr" for="{edit_id}">New text of entry {number}</label>'
                            f'<textarea id="{edit_id}" name="content" rows="2" required>'
                            f"{h(entry)}</textarea>")
                form = _write_form(f"/ui/memory/{target}/replace", {"old_text": entry}, "Save",
                                   extra=textarea)
                out.append(f"<details><summary>Edit</summary>{form}</details>")
                out.append(_write_form(f"/ui/memory/{target}/remove", {"old_text": entry}, "Remove",
                                       cls="danger"))
            out.append("</li>")
        out.append("</ol>")
        if not entries:
            out.append('<p class="hint">(no entries)</p>')
        if can_write:
            add_id = f"add-{target}"
            field = (f'<label for="{add_id}">New entry</label>'
                     f'<textarea id="{add_id}" name="content" rows="2" required></textarea>')
            out.append(_write_form(f"/ui/memory/{target}/add", {}, "Add", extra=field, cls="add"))
            out.append(_write_form(f"/ui/memory/{target}/undo", {}, f"Undo the last change of {file_name}"))
        out.append("</section>")
    return "".join(out)


@router.get("/ui/notes")
async def notes(request: Request) -> HTMLResponse:
    return await _fragment(request, render_notes, review=True)


@router.get("/ui/prompt")
async def prompt(request: Request) -> HTMLResponse:
    def render(tenant: Tenant, _can_write: bool) -> str:
        section = tenant.prompt_section()
        return f'<pre class="prompt">{h(section)}</pre>' if section else '<p class="hint">(empty)</p>'

    return await _fragment(request, render)


def render_pending(tenant: Tenant, can_review: bool, message: str = "") -> str:
    reviewed = tenant.review()
    out = [message]
    if not reviewed:
        return message + '<p class="hint">Nothing is waiting for approval.</p>'
    out.extend(f'<p class="held">{h(line)}</p>' for line in box_warnings(tenant.box_usage()))
    if not can_review:
        out.append(REVIEW_HINT)
    out.append('<ol class="proposals">')
    for item in reviewed:
        pid = str(item.get("id"))
        who = who_text(item.get("who"))
        out.append(f'<li class="proposal"><p><strong>{h(item.get("action"))}</strong> in '
                   f'{h(FILES.get(str(item.get("target")), item.get("target")))} '
                   f'<span class="hint"><time>{h(str(item.get("time", "")).replace("T", " "))}</time>'
                   f'{" · from " + h(who) if who else ""} · id {h(pid)}</span></p>')
        if item.get("held"):
            out.append(f'<p class="held">Held by the threat scan: {h(item["held"])}</p>')
        if item.get("problem"):
            label = "Stale" if item.get("stale") else "Cannot apply now"
            out.append(f'<p class="held">{label}: {h(item["problem"])}</p>')
        for change in item.get("changes") or []:
            if change.get("before") is not None:
                before = h(display_safe(change["before"]))
                out.append(f'<div class="del"><span class="sr">removed: </span>− {before}</div>')
            if change.get("after") is not None:
                after = h(display_safe(change["after"]))
                out.append(f'<div class="ins"><span class="sr">added: </span>+ {after}</div>')
        if item.get("last_error"):
            out.append(f'<p class="hint">Last approval refused: {h(item["last_error"])}</p>')
        if can_review:
            reason_id = f"reason-{pid}"
            reason = (f'<label class="sr" for="{reason_id}">Reason for rejecting</label>'
                      f'<input id="{reason_id}" name="reason" placeholder="reason (optional)" '
                      'maxlength="2000">')
            out.append(f'<div class="actions">'
                       f'<form class="inline" hx-post="/ui/pending/{h(pid)}/approve" hx-target="#pending">'
                       f'<input type="hidden" name="base" value="{h(item.get("base") or "")}">'
                       f'<button type="submit">Approve</button></form>'
                       f'<form class="inline" hx-post="/ui/pending/{h(pid)}/reject" hx-target="#pending">'
                       f'{reason}<button type="submit" class="danger">Reject</button></form></div>')
        out.append("</li>")
    out.append("</ol>")
    return "".join(out)


@router.get("/ui/pending")
async def pending(request: Request) -> HTMLResponse:
    return await _fragment(request, render_pending, review=True)


@router.get("/ui/sessions")
async def sessions(request: Request, q: str = "") -> HTMLResponse:
    query = q.strip()[:2000]

    def render(tenant: Tenant, _can_write: bool) -> str:
        if query:
            hits = tenant.search_sessions(query, 10)
            if not hits:
                return f'<p class="hint">No session mentions {h(query)}.</p>'
            return '<ol class="sessions">' + "".join(
                f'<li><strong>{h(hit.get("title") or hit.get("session_id"))}</strong> '
                f'<span class="hint">{h(hit.get("session_id"))} · {h(hit.get("date") or "")} · '
                f'{h(hit.get("role") or "")}</span>'
                f'<div class="entry">{h(hit.get("snippet") or "")}</div></li>'
                for hit in hits) + "</ol>"
        infos = tenant.sessions.list(limit=20)
        if not infos:
            return '<p class="hint">No sessions yet.</p>'
        return '<ol class="sessions">' + "".join(
            f'<li><strong>{h(info.title or "untitled")}</strong> <span class="hint">{h(info.id)} · '
            f'{h(info.updated_at[:16].replace("T", " "))} · {info.message_count} messages</span></li>'
            for info in infos) + "</ol>"

    return await _fragment(request, render)


@router.get("/ui/provider")
async def provider(request: Request) -> HTMLResponse:
    def render(tenant: Tenant, can_write: bool) -> str:
        manager = tenant.manager
        active = manager.provider
        if active is None:
            return '<p class="hint">No recall provider is active for this profile.</p>'
        tools = ", ".join(tenant.provider_tool_names()) or "none"
        check = ('<form hx-post="/ui/provider/check" hx-target="#provider-check">'
                 '<button type="submit">Check (write, search, forget a probe)</button></form>'
                 '<div id="provider-check" aria-live="polite"></div>') if can_write else ""
        status = manager.recall_status()

        def facts(one: dict[str, Any]) -> str:
            return " · ".join(f"{h(k)} {h(v)}" for k, v in one.items()
                              if k not in ("provider", "available", "reason", "counters") and v is not None)

        # Several providers at once: a line for each, available or why not, its last error, timings.
        each = [f'<p class="hint"><strong>{h(one["provider"])}</strong> '
                f'{"available" if one["available"] else h("unavailable: " + str(one["reason"]))} · '
                f'{facts({k: v for k, v in one.items() if v != ""})}</p>'
                for one in status.get("providers", ())]
        return (f'<p><strong>{h(active.name)}</strong>: available · tools {h(tools)}</p>'
                + ("".join(each) if each else f'<p class="hint">{facts(status)}</p>') + check)

    return await _fragment(request, render)


# ------------------------------------------------------------------------------- writes


class MalformedBody(SilcrowError):
    """A request body that is not the form or JSON object the page sends; the message says why."""


async def _form(request: Request) -> dict[str, str]:
    """The fields the page sent: a JSON object of strings, or a URL-encoded form (the body is
    bounded by the token gate before it gets here)."""
    body = (await request.body()).decode("utf-8", "replace")
    if not request.headers.get("content-type", "").startswith("application/json"):
        return {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
    try:
        data = json.loads(body or "{}")
    except RecursionError:  # the C decoder recurses once per level: thousands of them end here
        raise MalformedBody("malformed request: the JSON body is nested too deeply; send one flat "
                            "JSON object whose values are strings") from None
    except ValueError as exc:
        raise MalformedBody(f"malformed request: the body is not JSON ({exc}); send one JSON object of "
                            "strings") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise MalformedBody("malformed request: send one JSON object whose values are strings")
    return data


def _refused(request: Request, need_write: bool = True, need_review: bool = False) -> HTMLResponse | None:
    if not request.headers.get(CSRF_HEADER):
        return _html(f'<p class="error">refused: the request lacks the {CSRF_HEADER} header that the '
                     "page sends (a form posted from another site cannot)</p>", 403)
    access = access_of(request.scope)
    if need_write and not access.can_write:
        return _html('<p class="error">this token is read-only; log in with a write token</p>', 403)
    if need_review and not access.can_review:  # the token gate refuses these first; kept for any new route
        return _html(f'<p class="error">{h(review_needed(access))}</p>', 403)
    return None


async def _fields(request: Request) -> dict[str, str] | HTMLResponse:
    """:func:`_form`, or the 400 that says what is wrong with the body."""
    try:
        return await _form(request)
    except MalformedBody as exc:
        return _html(f'<p class="error">{h(exc)}</p>', 400)


def _message(result: dict[str, Any]) -> str:
    if result.get("success"):
        return f'<p class="ok" role="status">{h(result.get("message", "Done."))}</p>'
    return f'<p class="error" role="alert">{h(result.get("error", "refused"))}</p>'


@router.post("/ui/memory/{target}/{action}")
async def write(request: Request, target: str, action: str) -> HTMLResponse:
    refused = _refused(request, need_review=True)
    if refused is not None:
        return refused
    if target not in FILES or action not in ("add", "replace", "remove", "undo"):
        return _html('<p class="error">unknown target or action</p>', 404)
    form = await _fields(request)
    if isinstance(form, HTMLResponse):
        return form

    def run(tenant: Tenant, _allowed: bool) -> str:
        notes = tenant.notes()
        if action == "add":
            result = notes.add(target, form.get("content", ""), origin="web")
        elif action == "replace":
            result = notes.replace(target, form.get("old_text", ""), form.get("content", ""), origin="web")
        elif action == "remove":
            result = notes.remove(target, form.get("old_text", ""), origin="web")
        else:  # a review token's: a person's undo
            result = notes.undo(target, origin="web", person=True)
        return render_notes(tenant, True, _message(dict(result)))

    return await _fragment(request, run, trigger="silcrow-prompt")


@router.post("/ui/pending/{proposal_id}/{decision}")
async def decide(request: Request, proposal_id: str, decision: str) -> HTMLResponse:
    refused = _refused(request, need_review=True)
    if refused is not None:
        return refused
    if decision not in ("approve", "reject"):
        return _html('<p class="error">unknown decision</p>', 404)
    form = await _fields(request)
    if isinstance(form, HTMLResponse):
        return form

    def run(tenant: Tenant, _allowed: bool) -> str:
        if decision == "approve":
            # What the person saw: refused as stale if the notes changed since it was shown.
            result = tenant.approve(proposal_id, origin="approved", base=form.get("base") or "-")
        else:
            result = tenant.reject(proposal_id, form.get("reason") or None)
        return render_pending(tenant, True, _message(result))

    # The notes and the prompt panels reload: an approval changed them.
    return await _fragment(request, run, trigger="silcrow-notes")


@router.post("/ui/recall")
async def recall(request: Request) -> HTMLResponse:
    refused = _refused(request, need_write=False)
    if refused is not None:
        return refused
    form = await _fields(request)
    if isinstance(form, HTMLResponse):
        return form
    query = form.get("query", "").strip()[:2000]

    def render(tenant: Tenant, _can_write: bool) -> str:
        if not query:
            return '<p class="error">type what to look for</p>'
        found = tenant.recall.search(query, 8)  # a RecallError is shown as the error it is
        rows = []
        for hit in found.hits:
            when = hit.timestamp.isoformat()[:10] if hit.timestamp else "undated"
            rows.append(f'<tr><td>{h(f"{round(hit.score, 4):.3f}")}</td><td>{h(when)}</td>'
                        f'<td>{h(hit.speaker or hit.kind or "")}</td><td>{h(hit.text)}</td></tr>')
        head = "".join(f'<th scope="col">{name}</th>' for name in ("score", "date", "who", "text"))
        table = (f'<table><caption>Matches</caption><thead><tr>{head}</tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>' if rows else '<p class="hint">No matches.</p>')
        # As a new session would get it: the server's own session leaves out what it saved itself.
        block = tenant.manager.prefetch(query, "silcrow-inspector") or (found.context or "")
        fenced = (f'<h3>What the agent would get</h3><pre class="prompt">{h(block)}</pre>' if block
                  else '<p class="hint">The agent would get no recalled block for this.</p>')
        return table + fenced

    return await _fragment(request, render)


@router.post("/ui/provider/check")
async def provider_check(request: Request) -> HTMLResponse:
    refused = _refused(request)
    if refused is not None:
        return refused

    def render(tenant: Tenant, _can_write: bool) -> str:
        active = tenant.manager.provider
        if active is None:
            return '<p class="hint">No recall provider is active.</p>'
        probe = f"silcrow inspector check probe {secrets.token_hex(6)}"
        try:
            timings = round_trip(active, probe)
        except SilcrowError as exc:
            return f'<p class="error">{h(active.name)} round trip failed: {h(exc)}</p>'
        found = "found" if timings.get("found") else "not found yet"
        return (f'<p class="ok">{h(active.name)}: ok · write {h(timings.get("write_ms"))} ms, search '
                f'{h(timings.get("search_ms"))} ms ({found}), forget {h(timings.get("forget_ms"))} ms</p>')

    return await _fragment(request, render)
