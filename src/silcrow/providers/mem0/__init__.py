"""The ``mem0`` recall provider: Mem0 Platform or the open-source mem0 running locally."""

from silcrow.providers.mem0._provider import Mem0Provider

__all__ = ["Mem0Provider"]
