"""The walkthrough `make demo` runs (``python -m silcrow.demo``): notes, the agent, project notes,
several recall providers, the servers.

Each part is an internal module (``_memory_walkthrough``, ``_agent_walkthrough``,
``_project_walkthrough``, ``_providers_walkthrough``, ``_serve_walkthrough``) with
``run() -> bool`` (every check passed); :func:`main`
runs them in that order on throw-away homes, offline, and never touches
``~/.silcrow``.
"""

from __future__ import annotations

import importlib
import sys

__all__ = ["main"]

WALKTHROUGHS = ("_memory_walkthrough", "_agent_walkthrough", "_project_walkthrough",
                "_providers_walkthrough", "_serve_walkthrough")


def main() -> None:
    """Run every walkthrough; exit 1 when a check failed in one of them."""
    failed = []
    for name in WALKTHROUGHS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        if module.run() is False:
            failed.append(name.lstrip("_"))
    if failed:
        print(f"demo: a check failed in {', '.join(failed)} (see the table above)", file=sys.stderr)
        sys.exit(1)
