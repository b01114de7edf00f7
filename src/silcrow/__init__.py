"""silcrow: memory for LLM agents.

Curated notes that live in the system prompt (:class:`MemoryStore`), one
pluggable long-term recall provider (:class:`MemoryProvider`,
:class:`MemoryManager`), and an agent loop (:class:`Agent`) that keeps the
prompt prefix cache intact.

Heavy parts (the agent loop, recall) are imported on first use so that
``import silcrow`` stays cheap for code that only needs the curated store.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from silcrow.errors import SilcrowError

if TYPE_CHECKING:
    from silcrow.agent.loop import Agent
    from silcrow.recall.manager import MemoryManager
    from silcrow.recall.provider import MemoryProvider
    from silcrow.safety.fence import build_memory_context_block, sanitize_context
    from silcrow.store import ENTRY_DELIMITER, MemoryStore

__version__ = "0.1.0"

_LAZY = {
    "MemoryStore": "silcrow.store",
    "ENTRY_DELIMITER": "silcrow.store",
    "MemoryManager": "silcrow.recall.manager",
    "MemoryProvider": "silcrow.recall.provider",
    "build_memory_context_block": "silcrow.safety.fence",
    "sanitize_context": "silcrow.safety.fence",
    "Agent": "silcrow.agent.loop",
}

__all__ = [
    "Agent",
    "ENTRY_DELIMITER",
    "MemoryManager",
    "MemoryProvider",
    "MemoryStore",
    "SilcrowError",
    "__version__",
    "build_memory_context_block",
    "sanitize_context",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'silcrow' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
