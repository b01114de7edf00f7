"""The ``holographic`` recall provider: SQLite facts, trust scores and HRR probes."""

from silcrow.recall.providers.holographic.provider import HolographicProvider

__all__ = ["HolographicProvider"]
