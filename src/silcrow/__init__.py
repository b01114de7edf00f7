"""silcrow: memory for LLM agents.

:func:`open_profile` opens a home (or one of its profiles) in one place.
Curated notes that live in the system prompt (:class:`MemoryStore`), one
pluggable long-term recall provider (:class:`MemoryProvider`,
:class:`MemoryManager`), and an agent loop (:class:`Agent`) that keeps the
prompt prefix cache intact.

Heavy parts (the agent loop, recall) are imported on first use so that
``import silcrow`` stays cheap for code that only needs the curated store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from silcrow._lazy import lazy_getattr
from silcrow.errors import (
    ConfigError,
    ConnectError,
    DriftError,
    EmbedderUnavailableError,
    ExtraNotInstalledError,
    LockTimeoutError,
    ModelError,
    ProjectRequiredError,
    ProviderConflictError,
    ProviderNotFoundError,
    RecallError,
    ReviewRequiredError,
    SafetyModelError,
    ServiceError,
    ServiceUnavailableError,
    SessionError,
    SilcrowError,
    StoreError,
    ToolCallError,
)

if TYPE_CHECKING:
    from silcrow.agent import Agent
    from silcrow.home import Profile, open_profile
    from silcrow.recall import MemoryManager, MemoryProvider, load_provider
    from silcrow.recall.contract import check_provider_contract
    from silcrow.recall.local import LocalProvider
    from silcrow.safety import build_memory_context_block, sanitize_context
    from silcrow.store import ENTRY_DELIMITER, MemoryStore
    from silcrow.tool import handle_memory_call, memory_call, memory_tool_schema

__version__ = "0.1.0"

# Where each lazily imported public name lives; importing them all up front would load the
# embedder, the agent loop and the scanners for code that only needs the curated store.
_LAZY = {
    "Agent": "silcrow.agent",
    "ENTRY_DELIMITER": "silcrow.store",
    "LocalProvider": "silcrow.recall.local",
    "MemoryManager": "silcrow.recall",
    "MemoryProvider": "silcrow.recall",
    "MemoryStore": "silcrow.store",
    "Profile": "silcrow.home",
    "build_memory_context_block": "silcrow.safety",
    "check_provider_contract": "silcrow.recall.contract",
    "handle_memory_call": "silcrow.tool",
    "load_provider": "silcrow.recall",
    "memory_call": "silcrow.tool",
    "memory_tool_schema": "silcrow.tool",
    "open_profile": "silcrow.home",
    "sanitize_context": "silcrow.safety",
}

__all__ = [
    "Agent",
    "ConfigError",
    "ConnectError",
    "DriftError",
    "ENTRY_DELIMITER",
    "EmbedderUnavailableError",
    "ExtraNotInstalledError",
    "LocalProvider",
    "LockTimeoutError",
    "MemoryManager",
    "MemoryProvider",
    "MemoryStore",
    "ModelError",
    "Profile",
    "ProjectRequiredError",
    "ProviderConflictError",
    "ProviderNotFoundError",
    "RecallError",
    "ReviewRequiredError",
    "SafetyModelError",
    "ServiceError",
    "ServiceUnavailableError",
    "SessionError",
    "SilcrowError",
    "StoreError",
    "ToolCallError",
    "__version__",
    "build_memory_context_block",
    "check_provider_contract",
    "handle_memory_call",
    "load_provider",
    "memory_call",
    "memory_tool_schema",
    "open_profile",
    "sanitize_context",
]


__getattr__ = lazy_getattr(__name__, _LAZY)


def __dir__() -> list[str]:
    return sorted(__all__)
