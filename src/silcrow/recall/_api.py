"""The typed recall API: search, remember and forget, with typed results.

The servers (and any library caller) use these through
:class:`~silcrow.recall.MemoryManager` (a :class:`RecallAPI`) instead
of a provider's tool names and JSON; tool JSON stays at the edges (a model's
tool call, see :mod:`silcrow.recall._edge`; an HTTP body). Every provider has the
three calls (:class:`~silcrow.recall.MemoryProvider`): its own, or the defaults
that serve one without a store of its own (a search is its prefetched context,
remember and forget its own ``recall_add`` / ``recall_forget`` tools).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from silcrow.recall._spec import ToolResult

if TYPE_CHECKING:
    from silcrow.recall._records import RecallHit

__all__ = ["Answer", "Forgotten", "Found", "RecallAPI", "Remembered"]


@dataclass(frozen=True)
class Found:
    """What a search found: the hits (best first), or for a provider without a search of its
    own the fenced context block it recalls for the query."""

    hits: tuple[RecallHit, ...] = ()
    context: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (:func:`silcrow.recall._edge.answer_dict` answers with it)."""
        if self.context is not None:
            return {"success": True, "context": self.context}
        return {"success": True, "results": [hit.to_dict() for hit in self.hits]}


@dataclass(frozen=True)
class Remembered:
    """A fact kept: its id (the existing one when the same fact was stored already)."""

    id: int

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (:func:`silcrow.recall._edge.answer_dict` answers with it)."""
        return {"success": True, "id": self.id}


@dataclass(frozen=True)
class Forgotten:
    """How many memories a forget removed (0: none had that id)."""

    removed: int

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (:func:`silcrow.recall._edge.answer_dict` answers with it)."""
        return {"success": True, "removed": self.removed}


#: What a recall tool call answers, typed: a typed API result, or a provider tool's result.
Answer: TypeAlias = Found | Remembered | Forgotten | ToolResult


class RecallAPI(Protocol):
    """The typed calls, as :class:`~silcrow.recall.MemoryManager` and every
    :class:`~silcrow.recall.MemoryProvider` offer them. Bad input or a failing provider raises
    :class:`~silcrow.errors.RecallError` with a message that says what to do.

    ``source`` is kept with a remembered fact (who saved it: "api", "tool"...);
    ``forget`` takes a memory id, or text contained in the memories to delete, refused
    when it matches more than ``max_matches`` of them.
    """

    def search(self, query: str, k: int = 8) -> Found: ...

    def remember(self, text: str, *, source: str = "api") -> Remembered: ...

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten: ...
