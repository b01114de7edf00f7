"""silcrow for other agents: the MCP server (stdio and streamable HTTP), the HTTP API, tokens.

Nothing here has memory logic of its own: every call goes through the same
store, manager and session-store calls as the library, the CLI and the agent
(:mod:`silcrow.serve.tenant`), so they all see one state. The modules import
the MCP SDK, FastAPI and uvicorn; import them only where they are used, so
that ``import silcrow`` stays cheap.
"""

from __future__ import annotations

import importlib.util

from silcrow.errors import ConfigError

__all__ = ["SERVE_EXTRA", "require_server_stack"]

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
