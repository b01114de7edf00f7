"""What a memory mutation returns: a JSON object the model reads, typed.

Inside the store a refusal is a :class:`Refusal` raised as :class:`Refused`
and caught at the public methods of :class:`~silcrow.store.MemoryStore`,
which turn it into the JSON result; nothing in between has to tell results
apart from entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Required, TypedDict

from silcrow.errors import StoreError


class MemoryResult(TypedDict, total=False):
    """The JSON of one mutation: ``success`` always; ``error`` on a refusal, ``message`` on success."""

    success: Required[bool]
    error: str
    target: str
    usage: str
    entry_count: int
    message: str
    current_entries: list[str]
    matches: list[str]
    patterns: list[str]
    failed_operation: int
    backup: str
    problems: list[str]
    terminal: bool


@dataclass(frozen=True)
class Refusal:
    """Why a mutation was refused, and what the model needs to retry."""

    error: str
    target: str | None = None
    current_entries: list[str] | None = None
    usage: str | None = None
    matches: list[str] | None = None
    patterns: list[str] | None = None
    failed_operation: int | None = None
    backup: str | None = None
    problems: list[str] | None = None
    terminal: bool = False
    # Refused because the file would exceed its size limit (starts the consolidation guard).
    over_limit: bool = False

    def result(self) -> MemoryResult:
        out: MemoryResult = {"success": False, "error": self.error}
        if self.target is not None:
            out["target"] = self.target
        if self.current_entries is not None:
            out["current_entries"] = self.current_entries
        if self.usage is not None:
            out["usage"] = self.usage
        if self.matches is not None:
            out["matches"] = self.matches
        if self.patterns is not None:
            out["patterns"] = self.patterns
        if self.failed_operation is not None:
            out["failed_operation"] = self.failed_operation
        if self.backup is not None:
            out["backup"] = self.backup
        if self.problems is not None:
            out["problems"] = self.problems
        if self.terminal:
            out["terminal"] = True
        return out


class Refused(StoreError):
    """Carries a :class:`Refusal` from where it is found to the store's public method."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.error)
        self.refusal = refusal

