"""The one way a silcrow package defers an import: a module ``__getattr__`` built here.

A package lists which of its public names live in which module; the first
access imports that module and caches the value in the package, so later
accesses are plain attribute lookups. This keeps ``import silcrow`` (and
importing a provider class) from loading the agent loop, the embedder or the
threat scanners before they are used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: name -> the module that defines it."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
