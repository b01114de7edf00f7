"""`silcrow sessions list|show|search`: browse and search past conversations.

Read-only: a home without ``sessions.db`` is reported as having no sessions
rather than having an empty database created in it. Stored text is printed
as :class:`rich.text.Text`, never as markup, since transcripts routinely
contain ``[brackets]``. Errors are one line on stderr, exit 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from silcrow._paths import sessions_db
from silcrow.cli._common import JSON_OPTION, app_home, app_profile, console, error, guarded, print_json
from silcrow.cli.main import app
from silcrow.sessions import SessionBackend, SessionInfo, fts_query

sessions_app = typer.Typer(help="Past conversations: list, show, search.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")


def _db_path(ctx: typer.Context) -> Path:
    return sessions_db(app_home(ctx))


@contextmanager
def _open(ctx: typer.Context) -> Iterator[SessionBackend | None]:
    """The session store of the selected home, or None when it has none yet."""
    path = _db_path(ctx)
    with guarded():
        profile = app_profile(ctx)
        store = profile.sessions() if profile.storage.shared or path.exists() else None
    if store is None:
        yield None
        return
    try:
        with guarded():
            yield store
    finally:
        store.close()


def _when(iso: str) -> str:
    return iso[:16].replace("T", " ")


def _info_dict(info: SessionInfo) -> dict[str, Any]:
    return {
        "id": info.id, "parent_id": info.parent_id, "title": info.title, "created_at": info.created_at,
        "updated_at": info.updated_at, "message_count": info.message_count,
    }


def _no_sessions(ctx: typer.Context) -> str:
    return f"no sessions yet in {_db_path(ctx).parent} (start one with `silcrow chat`)"


@sessions_app.command("list")
def list_sessions(
    ctx: typer.Context,
    limit: int = typer.Option(20, "--limit", "-n", min=1, help="how many sessions, most recent first"),
    as_json: bool = JSON_OPTION,
) -> None:
    """List the most recently active sessions."""
    with _open(ctx) as store:
        infos = store.list(limit=limit) if store is not None else []
    if as_json:
        print_json([_info_dict(i) for i in infos])
        return
    if not infos:
        console.print(Text(_no_sessions(ctx), style="dim"))
        return
    table = Table(title="sessions (most recent first)", title_justify="left")
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("title", min_width=16, ratio=1, overflow="fold")
    table.add_column("updated (UTC)", no_wrap=True)
    table.add_column("msgs", justify="right")
    # Fits 80 columns: a branch is marked in its title; the parent id is in `sessions show` and --json.
    for info in infos:
        title = Text(info.title or "(untitled)")
        if info.parent_id:
            title = Text.assemble(("⑂ ", "dim"), title, (f" (branch of {info.parent_id})", "dim"))
        table.add_row(info.id, title, _when(info.updated_at), str(info.message_count))
    console.print(table)


def _message_text(message: dict[str, Any]) -> Text:
    text = Text()
    if message.get("summary"):
        text.append("(summary) ", style="italic yellow")
    if message.get("content"):
        text.append(message["content"])
    for call in message.get("tool_calls") or []:
        fn = call.get("function", {}) if isinstance(call, dict) else {}
        if text:
            text.append("\n")
        text.append(f"→ {fn.get('name', '?')}({fn.get('arguments', '')})", style="magenta")
    return text


@sessions_app.command("show")
def show(
    ctx: typer.Context,
    session_id: str = typer.Argument(..., help="session id (a unique prefix is enough)"),
    as_json: bool = JSON_OPTION,
    system_prompt: bool = typer.Option(False, "--system-prompt", help="also print the cached system prompt"),
) -> None:
    """Show one session's active transcript (compacted turns appear as their summary)."""
    with _open(ctx) as store:
        if store is None:
            raise error(_no_sessions(ctx))
        info = store.get(store.resolve(session_id))
        messages = store.messages(info.id)
    if as_json:
        print_json({**_info_dict(info), "system_prompt": info.system_prompt, "messages": messages})
        return
    header = Text.assemble(("session ", "bold"), (info.id, "bold cyan"), "  ", (info.title or "(untitled)"))
    console.print(header, soft_wrap=True)
    details = f"created {_when(info.created_at)} · updated {_when(info.updated_at)} UTC · "
    details += f"{info.message_count} messages"
    if info.parent_id:
        details += f" · branch of {info.parent_id}"
    console.print(Text(details, style="dim"))
    if system_prompt:
        console.print(Text("system prompt:", style="bold"))
        console.print(Text(info.system_prompt or "(none cached)"), soft_wrap=True)
    table = Table(show_header=True, expand=True)
    table.add_column("#", style="dim", justify="right", no_wrap=True)
    table.add_column("role", no_wrap=True)
    table.add_column("time", style="dim", no_wrap=True)
    table.add_column("content", ratio=1)
    styles = {"user": "green", "assistant": "blue", "tool": "magenta", "system": "yellow"}
    for m in messages:
        role = m["role"] + (f" ({m['name']})" if m.get("name") else "")
        table.add_row(str(m["id"]), Text(role, style=styles.get(m["role"], "")), m["created_at"][11:16],
                      _message_text(m))
    if messages:
        console.print(table)
    else:
        console.print(Text("(no messages)", style="dim"))


def _snippet(snippet: str) -> Text:
    # The store marks matches with ** pairs; show them bold instead.
    text = Text()
    for i, part in enumerate(snippet.split("**")):
        text.append(part, style="bold yellow" if i % 2 else "")
    return text


@sessions_app.command("search")
def search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="keywords (full-text search; punctuation is taken literally)"),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=50, help="at most this many sessions"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Full-text search of past sessions, best match first, one hit per branch family."""
    if not fts_query(query):  # the same answer whether or not a database exists yet
        raise error(f"search query {query!r} has no words to search for; give one or more keywords")
    with _open(ctx) as store:
        hits = store.search(query, limit=limit) if store is not None else []
    if as_json:
        print_json(hits)
        return
    if not hits:
        console.print(Text(_no_sessions(ctx) if store is None else f"no session matched {query!r}",
                           style="dim"))
        return
    table = Table(title=f"sessions matching {query!r}", title_justify="left")
    table.add_column("date", no_wrap=True)
    table.add_column("session", style="cyan", no_wrap=True)
    table.add_column("msg", style="dim", justify="right", no_wrap=True)
    table.add_column("title")
    table.add_column("snippet", ratio=1)
    for h in hits:
        table.add_row(_when(h["created_at"]), h["session_id"], str(h["message_id"]),
                      Text(h["title"] or "(untitled)"), _snippet(h["snippet"]))
    console.print(table)
    console.print(Text("read one with: silcrow sessions show SESSION_ID", style="dim"))
