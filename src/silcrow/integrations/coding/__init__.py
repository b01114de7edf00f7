"""silcrow inside coding agents: Claude Code, Codex CLI and Cursor.

* :func:`plan` and :func:`apply` (``_connect.py``): silcrow's MCP server, and for Claude Code its
  hooks, added to (or removed from) the client's own config files, touching nothing else.
* :func:`run_hook` (``_hooks.py``): what each Claude Code hook does (``silcrow hook EVENT``),
  reading a transcript's new lines in bounded batches (``_unread.py``).

Importing Claude Code and Codex sessions into recall is the recall readers' job
(:mod:`silcrow.recall`).
"""

from __future__ import annotations

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow.integrations.coding._connect import CLIENTS as CLIENTS
from silcrow.integrations.coding._connect import HOOK_EVENTS as HOOK_EVENTS
from silcrow.integrations.coding._connect import (
    Change,
    apply,
    plan,
)
from silcrow.integrations.coding._connect import Target as Target
from silcrow.integrations.coding._connect import silcrow_command as silcrow_command
from silcrow.integrations.coding._hooks import run_hook

__all__ = [
    "Change",
    "apply",
    "plan",
    "run_hook",
]
