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

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr
from silcrow.errors import ConfigError

if TYPE_CHECKING:
    from silcrow.serve._guard import bare_host as bare_host
    from silcrow.serve._guard import is_loopback as is_loopback
    from silcrow.serve._guard import split_authority as split_authority
    from silcrow.serve._http_app import build_app
    from silcrow.serve._http_app import run_http as run_http
    from silcrow.serve._limits import MAX_CONNECTIONS as MAX_CONNECTIONS
    from silcrow.serve._limits import READ_TIMEOUT as READ_TIMEOUT
    from silcrow.serve._login import ONCE_SECONDS as ONCE_SECONDS
    from silcrow.serve._login import inspector_login as inspector_login
    from silcrow.serve._mcp_server import run_stdio as run_stdio
    from silcrow.serve._mcp_server import stdio_server
    from silcrow.serve._project import PROJECT_HEADER as PROJECT_HEADER
    from silcrow.serve._project import ProjectRefused as ProjectRefused
    from silcrow.serve._project import project_of as project_of
    from silcrow.serve._running import ServerProcess as ServerProcess
    from silcrow.serve._running import silcrow_command as silcrow_command
    from silcrow.serve._tenant import Tenant as Tenant
    from silcrow.serve._tenant import open_tenant
    from silcrow.serve._tokens import TokenRecord as TokenRecord
    from silcrow.serve._tokens import (
        create_token,
        list_tokens,
        revoke_token,
    )
    from silcrow.serve._tokens import has_tokens as has_tokens
    from silcrow.serve._tokens import printable as printable
    from silcrow.serve._tokens import tokens_path as tokens_path

__all__ = [
    "build_app",
    "create_token",
    "list_tokens",
    "open_tenant",
    "revoke_token",
    "stdio_server",
]

__getattr__ = lazy_getattr(__name__, {
    **dict.fromkeys(("bare_host", "is_loopback", "split_authority"), "silcrow.serve._guard"),
    **dict.fromkeys(("MAX_CONNECTIONS", "READ_TIMEOUT"), "silcrow.serve._limits"),
    **dict.fromkeys(("has_tokens", "printable"), "silcrow.serve._tokens"),
    **dict.fromkeys(("ONCE_SECONDS", "inspector_login"), "silcrow.serve._login"),
    **dict.fromkeys(("PROJECT_HEADER", "ProjectRefused", "project_of"), "silcrow.serve._project"),
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
