"""silcrow inside other agents: each integration keeps its logic here, so upgrading silcrow
upgrades the small shims it installs into those agents.

Each integration is a public subpackage (``silcrow.integrations.hermes``) with its own
``__all__``; this package itself exports nothing.
"""

from __future__ import annotations

__all__: list[str] = []
