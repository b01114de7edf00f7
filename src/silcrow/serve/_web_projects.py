"""The inspector's projects panel: the profile's projects with notes, and which one is shown.

What the page shows of a project goes through the same door as any client's request: the page
sends the chosen project's root in the ``X-Silcrow-Project`` header (its script keeps the
choice in the tab's ``sessionStorage``), the token gate checks it, and the notes and prompt
panels then show that project's ``PROJECT.md`` block. This panel lists what
``silcrow memory projects`` lists (root, entries, usage, last used) with a button per project
whose root still exists; a project whose root is gone is archived or moved with the CLI.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from silcrow.serve._tenant import Tenant
from silcrow.serve._web import _fragment, h

router = APIRouter(include_in_schema=False)


def _row(item: dict[str, Any], shown: str | None) -> str:
    root = str(item.get("root") or "")
    used = str(item.get("last_used") or "")[:16].replace("T", " ") or "never"
    if not item.get("exists"):
        action = ('<span class="hint">root gone: <code>silcrow memory projects archive</code> or '
                  "<code>move</code></span>")
    elif root == shown:
        action = '<span class="ok">shown</span>'
    else:
        action = f'<button type="button" data-project="{h(root)}">Show</button>'
    return (f"<tr><td>{h(root or item.get('key', ''))}</td><td>{h(item.get('entries', 0))}</td>"
            f"<td>{h(item.get('usage', ''))}</td><td>{h(used)}</td><td>{action}</td></tr>")


def render_projects(tenant: Tenant, _allowed: bool) -> str:
    shown = str(tenant.project) if tenant.project is not None else None
    listed = tenant.projects()
    current = (f'<p>Shown: project <strong>{h(shown)}</strong> '
               '<button type="button" data-project="">Show no project</button></p>' if shown
               else '<p class="hint">No project is shown: the notes and the prompt are the profile\'s '
                    "alone.</p>")
    if not listed:
        return current + '<p class="hint">No project has notes yet.</p>'
    head = "".join(f'<th scope="col">{name}</th>' for name in ("root", "entries", "usage", "last used", ""))
    rows = "".join(_row(item, shown) for item in listed)
    return (f'{current}<table><caption>Projects with notes</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>")


@router.get("/ui/projects")
async def projects(request: Request) -> HTMLResponse:
    return await _fragment(request, render_projects)
