"""`silcrow serve`: the HTTP API and the MCP server (streamable HTTP at /mcp) in one process."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.text import Text

from silcrow._paths import resolve_home
from silcrow.cli._common import EXIT_REFUSED, console_err, error, state
from silcrow.cli._mcp import served_home
from silcrow.cli.main import app
from silcrow.errors import ConfigError
from silcrow.serve import MAX_CONNECTIONS, READ_TIMEOUT, bare_host, is_loopback, split_authority

__all__ = ["is_loopback", "serve"]


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (loopback by default)"),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="TCP port"),
    home: str = typer.Option(None, "--home", help="silcrow home holding tokens.json and the profiles"),
    profile: str = typer.Option(None, "--profile",
                                help="the home a caller without a token reaches under --no-auth"),
    no_auth: bool = typer.Option(False, "--no-auth",
                                 help="loopback only, while no token exists: serve every local caller "
                                 "without a token (the first token created ends this for good)"),
    allow_host: list[str] = typer.Option([], "--allow-host", metavar="NAME[:PORT]",
                                         help="also answer to this Host name (a proxy in front); repeatable"),
    read_timeout: float = typer.Option(READ_TIMEOUT, "--read-timeout", min=0.1,
                                       help="seconds a client has to send a whole request"),
    max_connections: int = typer.Option(MAX_CONNECTIONS, "--max-connections", min=1,
                                        help="open connections before new requests get 503"),
) -> None:
    """Serve the REST API (/v1, docs at /docs) and MCP (/mcp); tokens choose each caller's profile."""
    from silcrow.serve import has_tokens, require_server_stack

    require_server_stack("silcrow serve")

    base = resolve_home(home or state(ctx).home).absolute()
    bind = bare_host(host)
    for name in allow_host:
        if split_authority(name) is None:
            raise typer.BadParameter(f"{name!r} is not a host name (NAME or NAME:PORT)",
                                     param_hint="'--allow-host'")
    try:
        tokens_exist = has_tokens(base)
    except ConfigError as exc:
        raise error(str(exc)) from None
    if no_auth and (tokens_exist or not is_loopback(bind)):
        raise error("--no-auth serves callers without a token, so it is only for a loopback address and a "
                    f"home with no token yet; {base} has tokens" if tokens_exist else
                    f"--no-auth is only for a loopback address, not {host}", EXIT_REFUSED)
    proxied = [name for name in allow_host if not is_loopback((split_authority(name) or (name,))[0])]
    if no_auth and proxied:
        raise error(f"--no-auth serves callers without a token, so it cannot be combined with --allow-host "
                    f"{proxied[0]}: a proxy forwarding that name brings callers from anywhere. Create a "
                    "token with `silcrow tokens create --profile NAME` instead", EXIT_REFUSED)
    if not tokens_exist and not is_loopback(bind):
        raise error(f"refusing to serve on {host} with no token: anyone who can reach it could read and "
                    f"change the memory. Create one first with `silcrow tokens create --profile NAME` (home "
                    f"{base}), or bind to 127.0.0.1", EXIT_REFUSED)
    default = served_home(ctx, home, profile)

    from silcrow.serve import build_app, run_http

    shown = f"[{bind}]" if ":" in bind else bind
    console_err.print(Text(f"silcrow serve: http://{shown}:{port}  (REST /v1, MCP /mcp, docs /docs); "
                           f"home {base}"), soft_wrap=True, highlight=False)
    if no_auth:
        console_err.print(Text(f"--no-auth: every local caller gets {default} with write access until "
                               "the first `silcrow tokens create`", style="yellow"), soft_wrap=True,
                          highlight=False)
    elif not tokens_exist:
        console_err.print(Text(f"no tokens yet: every request is refused (503) until you create one with "
                               f"`silcrow tokens create --profile NAME --home {base}`", style="yellow"),
                          soft_wrap=True, highlight=False)
    application = build_app(base, default, host=bind, allow_hosts=allow_host, open_access=no_auth,
                            max_connections=max_connections)
    _print_inspector(application, base, default, f"http://{shown}:{port}")
    run_http(application, host=bind, port=port, read_timeout=read_timeout, max_connections=max_connections)


def _print_inspector(served_app: object, base: Path, default: Path, url: str) -> None:
    """Where the web inspector is, and how to log in: a one-time link when tokens exist."""
    from silcrow.serve import ONCE_SECONDS, inspector_login

    code = inspector_login(served_app, base, default)
    if code is None:
        console_err.print(Text(f"inspector: {url}/", style="bold"), soft_wrap=True, highlight=False)
        return
    console_err.print(Text(f"inspector: {url}/  (paste a token, or open this one-time link within "
                           f"{int(ONCE_SECONDS // 60)} minutes: {url}/#once={code} )", style="bold"),
                      soft_wrap=True, highlight=False)
