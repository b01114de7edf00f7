"""silcrow: memory for LLM agents.

Curated notes that live in the system prompt (:class:`MemoryStore`), one
pluggable long-term recall provider (:class:`MemoryProvider`,
:class:`MemoryManager`), and an agent loop (:class:`Agent`) that keeps the
prompt prefix cache intact.
"""

from __future__ import annotations

from silcrow.errors import SilcrowError
from silcrow.recall.provider import MemoryProvider

__version__ = "0.1.0"

__all__ = [
    "SilcrowError",
    "MemoryProvider",
    "__version__",
]
