"""The built-in local recall provider: SQLite (WAL, FTS5) plus in-memory vectors.

Public names: :class:`LocalProvider`, :class:`RecallRecord`, :class:`RecallHit`.
"""

from silcrow.recall.local.provider import LocalProvider
from silcrow.recall.local.records import RecallHit, RecallRecord

__all__ = ["LocalProvider", "RecallHit", "RecallRecord"]
