"""Deprecated: import :class:`MemoryProvider` from :mod:`silcrow.recall`; this alias goes in the
next release (ARCHITECTURE.md named this path, so third-party providers may import it)."""

from __future__ import annotations

import warnings

from silcrow.recall._provider import MemoryProvider, as_openai_tool

__all__ = ["MemoryProvider", "as_openai_tool"]

warnings.warn("silcrow.recall.provider is deprecated; import MemoryProvider from silcrow.recall",
              DeprecationWarning, stacklevel=2)
