"""Deprecated: import :class:`MemoryManager` from :mod:`silcrow.recall`; this alias goes in the
next release (ARCHITECTURE.md named this path)."""

from __future__ import annotations

import warnings

from silcrow.recall._manager import MemoryManager

__all__ = ["MemoryManager"]

warnings.warn("silcrow.recall.manager is deprecated; import MemoryManager from silcrow.recall",
              DeprecationWarning, stacklevel=2)
