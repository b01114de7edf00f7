"""The ``supermemory`` recall provider: Supermemory through its official SDK (5.x or 3.x)."""

from silcrow.providers.supermemory._provider import SupermemoryProvider

__all__ = ["SupermemoryProvider"]
