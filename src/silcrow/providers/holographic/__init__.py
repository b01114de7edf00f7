"""The ``holographic`` recall provider: SQLite facts, trust scores and HRR probes."""

from silcrow.providers.holographic._provider import HolographicProvider

__all__ = ["HolographicProvider"]
