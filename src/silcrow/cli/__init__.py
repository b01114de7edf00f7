"""The ``silcrow`` command line.

Its public module is :mod:`silcrow.cli.main`: ``main`` is the console-script entry point
(``silcrow = "silcrow.cli.main:main"`` in pyproject.toml) and ``app`` the Typer app. Each
command group is an internal module (``_memory.py``, ``_recall.py``, ...) imported only when
its command runs.
"""

from __future__ import annotations

from silcrow.cli import main

__all__ = ["main"]
