"""silcrow for other agents: the MCP server (stdio and streamable HTTP), the HTTP API, tokens.

Nothing here has memory logic of its own: every call goes through the same
store, manager and session-store calls as the library, the CLI and the agent
(a :class:`Tenant` is one profile's objects), so they all see one state.

The public names are listed in ``__all__``; the modules named ``_x`` are
internal. They import the MCP SDK, FastAPI and uvicorn, so each name is
imported on first use and ``import silcrow.serve`` stays cheap (it is how
:func:`require_server_stack` can say the ``serve`` extra is missing).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from silcrow._lazy import lazy_getattr
from silcrow.errors import ConfigError

if TYPE_CHECKING:
    from silcrow.serve._guard import bare_host, is_loopback, split_authority
    from silcrow.serve._http_app import build_app, run_http
    from silcrow.serve._limits import MAX_CONNECTIONS, READ_TIMEOUT
    from silcrow.serve._login import ONCE_SECONDS, inspector_login
    from silcrow.serve._mcp_server import run_stdio, stdio_server
    from silcrow.serve._running import ServerProcess, silcrow_command
    from silcrow.serve._tenant import Tenant, open_tenant
    from silcrow.serve._tokens import (
        TokenRecord,
        create_token,
        has_tokens,
        list_tokens,
        printable,
        revoke_token,
        tokens_path,
    )

__all__ = [
    "MAX_CONNECTIONS",
    "ONCE_SECONDS",
    "READ_TIMEOUT",
    "SERVE_EXTRA",
    "ServerProcess",
    "Tenant",
    "TokenRecord",
    "bare_host",
    "build_app",
    "create_token",
    "has_tokens",
    "inspector_login",
    "is_loopback",
    "list_tokens",
    "open_tenant",
    "printable",
    "require_server_stack",
    "revoke_token",
    "run_http",
    "run_stdio",
    "silcrow_command",
    "split_authority",
    "stdio_server",
    "tokens_path",
]

__getattr__ = lazy_getattr(__name__, {
    **dict.fromkeys(("bare_host", "is_loopback", "split_authority"), "silcrow.serve._guard"),
    **dict.fromkeys(("MAX_CONNECTIONS", "READ_TIMEOUT"), "silcrow.serve._limits"),
    **dict.fromkeys(("has_tokens", "printable"), "silcrow.serve._tokens"),
    **dict.fromkeys(("ONCE_SECONDS", "inspector_login"), "silcrow.serve._login"),
    "run_http": "silcrow.serve._http_app",
    "ServerProcess": "silcrow.serve._running",
    "Tenant": "silcrow.serve._tenant",
    "TokenRecord": "silcrow.serve._tokens",
    "build_app": "silcrow.serve._http_app",
    "create_token": "silcrow.serve._tokens",
    "list_tokens": "silcrow.serve._tokens",
    "open_tenant": "silcrow.serve._tenant",
    "revoke_token": "silcrow.serve._tokens",
    "run_stdio": "silcrow.serve._mcp_server",
    "silcrow_command": "silcrow.serve._running",
    "stdio_server": "silcrow.serve._mcp_server",
    "tokens_path": "silcrow.serve._tokens",
})

# The packages of the `serve` extra that the servers import (uvloop and httptools only speed them up).
SERVE_EXTRA = ("mcp", "fastapi", "uvicorn")


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):
        return True


def require_server_stack(what: str = "this command") -> None:
    """Raise a ConfigError naming the install command when the ``serve`` extra is not installed."""
    missing = [module for module in SERVE_EXTRA if _missing(module)]
    if missing:
        raise ConfigError(f"{what} needs silcrow's server stack, which is not installed "
                          f"({', '.join(missing)} missing): pip install 'silcrow[serve]'")
