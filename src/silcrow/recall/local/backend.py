"""The storage seam of the local recall provider.

:class:`~silcrow.recall.local.provider.LocalProvider` needs exactly these
operations from wherever its memories live: the SQLite file of a home
(:class:`~silcrow.recall.local.store.RecallStore`) or a shared PostgreSQL
database (:class:`silcrow.db.recall.PostgresRecall`). Both run the same
hybrid retrieval (:mod:`silcrow.recall.local.retrieval`): BM25-like lexical
scores and cosine similarities fused the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from silcrow.recall.embedders import Embedder
from silcrow.recall.local.records import MemoryFilter, RecallHit, RecallRecord, Scope


class RecallBackend(ABC):
    """Memories of every scope, searchable by words and by meaning."""

    embedder: Embedder

    @abstractmethod
    def ingest(
        self,
        records: Sequence[RecallRecord],
        scope: Scope,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, list[int]]:
        """Store ``records``; returns (how many were new, the id of each record in order)."""

    @abstractmethod
    def search(
        self, query: str, k: int, scope: Scope, *, mode: str = "hybrid", min_similarity: float | None = None
    ) -> list[RecallHit]:
        """Best ``k`` memories for ``query`` in ``scope``; mode is hybrid, lexical or dense."""

    @abstractmethod
    def find_ids(self, which: MemoryFilter, scope: Scope) -> list[int]:
        """Ids in ``scope`` of the memories ``which`` picks, oldest first."""

    @abstractmethod
    def delete(self, ids: Sequence[int]) -> int:
        """Delete these memories; returns how many existed."""

    @abstractmethod
    def stats(self, scope: Scope) -> dict[str, Any]:
        """Counts and where the memories live, for ``silcrow recall stats``."""

    @abstractmethod
    def close(self) -> None:
        """Release connections; the backend is not used again."""
