"""The typed recall API: search, remember and forget, with typed results.

The servers (and any library caller) use these through
:class:`~silcrow.recall.MemoryManager` (a :class:`RecallAPI`) instead
of a provider's tool names and JSON; tool JSON stays at the edges (a model's
tool call, see :mod:`silcrow.recall._edge`; an HTTP body). A provider offers
the typed calls by having the three methods of :class:`Searchable` (the local
provider does); for one that does not, the manager falls back to what it has:
a search becomes its prefetched context, and remember/forget call the
provider's ``recall_add`` / ``recall_forget`` tools (typed) when it declares them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from silcrow.recall._spec import ToolResult

if TYPE_CHECKING:
    from silcrow.recall.local._records import RecallHit

__all__ = ["Answer", "Forgotten", "Found", "ProviderAPI", "RecallAPI", "Remembered", "Searchable"]


@runtime_checkable
class Searchable(Protocol):
    """A provider that answers the typed calls itself."""

    def search(self, query: str, k: int = 10) -> list[RecallHit]: ...

    def add_fact(self, text: str, *, metadata: dict[str, Any] | None = None) -> int: ...

    def forget(self, id_or_query: int | str, *, max_matches: int | None = None) -> int: ...


@dataclass(frozen=True)
class Found:
    """What a search found: the hits (best first), or for a provider without a search of its
    own the fenced context block it recalls for the query."""

    hits: tuple[RecallHit, ...] = ()
    context: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (see :func:`silcrow.recall._edge.answer_dict`)."""
        from silcrow.recall._edge import answer_dict

        return answer_dict(self)


@dataclass(frozen=True)
class Remembered:
    """A fact kept: its id (the existing one when the same fact was stored already)."""

    id: int

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (see :func:`silcrow.recall._edge.answer_dict`)."""
        from silcrow.recall._edge import answer_dict

        return answer_dict(self)


@dataclass(frozen=True)
class Forgotten:
    """How many memories a forget removed (0: none had that id)."""

    removed: int

    def to_json(self) -> dict[str, Any]:
        """The result a model reads (see :func:`silcrow.recall._edge.answer_dict`)."""
        from silcrow.recall._edge import answer_dict

        return answer_dict(self)


#: What a recall tool call answers, typed: a typed API result, or a provider tool's result.
Answer: TypeAlias = Found | Remembered | Forgotten | ToolResult


class RecallAPI(Protocol):
    """The typed calls, as :class:`~silcrow.recall.MemoryManager` and
    :class:`ProviderAPI` offer them. Bad input or a failing provider raises
    :class:`~silcrow.errors.RecallError` with a message that says what to do.

    ``source`` is kept with a remembered fact (who saved it: "api", "tool"...);
    ``forget`` takes a memory id, or text contained in the memories to delete, refused
    when it matches more than ``max_matches`` of them.
    """

    def search(self, query: str, k: int = 8) -> Found: ...

    def remember(self, text: str, *, source: str = "api") -> Remembered: ...

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten: ...


class ProviderAPI:
    """The typed calls straight on a :class:`Searchable` provider: what the provider's own tool
    edge uses (its host, the manager, adds timeouts and screening around the tool call)."""

    def __init__(self, provider: Searchable) -> None:
        self._provider = provider

    def search(self, query: str, k: int = 8) -> Found:
        return Found(hits=tuple(self._provider.search(query, k)))

    def remember(self, text: str, *, source: str = "api") -> Remembered:
        return Remembered(self._provider.add_fact(text, metadata={"source": source}))

    def forget(self, target: int | str, *, max_matches: int | None = None) -> Forgotten:
        return Forgotten(self._provider.forget(target, max_matches=max_matches))
