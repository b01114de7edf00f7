"""`silcrow serve`: the HTTP API and the MCP server (streamable HTTP at /mcp) in one process."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer
from rich.text import Text

from silcrow.cli.common import EXIT_REFUSED, console_err, fail, state
from silcrow.cli.main import app
from silcrow.cli.mcp import served_home
from silcrow.errors import ConfigError
from silcrow.paths import resolve_home


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (loopback by default)"),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="TCP port"),
    home: str = typer.Option(None, "--home", help="silcrow home holding tokens.json and the profiles"),
    profile: str = typer.Option(None, "--profile",
                                help="what a token-less caller gets while no token exists (loopback only)"),
) -> None:
    """Serve the REST API (/v1, docs at /docs) and MCP (/mcp); tokens choose each caller's profile."""
    from silcrow.serve.tokens import TokenBook

    base = resolve_home(home or state(ctx).home).absolute()
    try:
        has_tokens = TokenBook(base).any()
    except ConfigError as exc:
        fail(str(exc))
    if not has_tokens and not is_loopback(host):
        fail(f"refusing to serve on {host} with no token: anyone who can reach it could read and change "
             f"the memory. Create one first with `silcrow tokens create --profile NAME` (home {base}), "
             "or bind to 127.0.0.1", EXIT_REFUSED)
    default = served_home(ctx, home, profile)

    import uvicorn

    from silcrow.serve.http_app import build_app

    shown = f"[{host}]" if ":" in host else host
    console_err.print(Text(f"silcrow serve: http://{shown}:{port}  (REST /v1, MCP /mcp, docs /docs); "
                           f"home {base}"), soft_wrap=True, highlight=False)
    if not has_tokens:
        console_err.print(Text(f"no tokens yet: every local caller gets {default} with write access; "
                               "`silcrow tokens create` turns authentication on", style="yellow"),
                          soft_wrap=True, highlight=False)
    served_app = build_app(base, default, host=host)
    _print_inspector(served_app, base, default, f"http://{shown}:{port}")
    uvicorn.run(served_app, host=host, port=port, log_level="warning", access_log=False)


def _print_inspector(served_app: object, base: Path, default: Path, url: str) -> None:
    """Where the web inspector is, and how to log in: a one-time link when tokens exist."""
    from silcrow.serve.web import ONCE_SECONDS, inspector_login

    code = inspector_login(served_app, base, default)
    if code is None:
        console_err.print(Text(f"inspector: {url}/", style="bold"), soft_wrap=True, highlight=False)
        return
    console_err.print(Text(f"inspector: {url}/  (paste a token, or open this one-time link within "
                           f"{int(ONCE_SECONDS // 60)} minutes: {url}/#once={code} )", style="bold"),
                      soft_wrap=True, highlight=False)
