"""What a memory mutation returns: a JSON object the model reads, typed.

Inside the store a success is a :class:`Done` and a refusal is a :class:`Refusal`
raised as :class:`Refused`, caught at the public methods of
:class:`~silcrow.store.MemoryStore`, which turn either into the JSON result; nothing
in between has to tell results apart from entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Required, TypedDict, cast

from silcrow.errors import StoreError
from silcrow.store._entries import format_usage
from silcrow.store._render import safe_entry


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
    pending: bool
    proposal_id: str
    stale: bool
    eviction_candidates: list[str]
    restored: str
    changes: list[dict[str, str | None]]
    base: str
    entries: list[str]
    char_limit: int


@dataclass(frozen=True)
class Done:
    """A mutation that succeeded: committed, or held for approval (``pending``)."""

    target: str
    entry_count: int
    usage: str        # of the live entries after it (held: as they are)
    message: str
    pending: bool = False
    proposal_id: str | None = None

    def result(self) -> MemoryResult:
        out: MemoryResult = {"success": True, "target": self.target, "usage": self.usage,
                             "entry_count": self.entry_count, "message": self.message}
        if self.pending:
            out["pending"] = True
        if self.proposal_id is not None:
            out["proposal_id"] = self.proposal_id
        return out


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
    # Every threat hit was uncertain (``threats.verdict`` == "hold"): a person can approve it
    # (the write-approval gate turns such a write into a pending proposal instead).
    held: bool = False
    # ``old_text`` addresses no entry, or several (an approved proposal is then stale).
    unmatched: bool = False
    # An add over the limit: the entries that would go first to make room (least used, oldest).
    eviction_candidates: list[str] | None = None
    # An approval met entries other than those its review was shown against.
    stale: bool = False

    def result(self) -> MemoryResult:
        out: dict[str, object] = {"success": False, "error": self.error}
        for name in _SHOWN_WHEN_SET:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.terminal:
            out["terminal"] = True
        return cast(MemoryResult, out)


_SHOWN_WHEN_SET = (
    "target", "current_entries", "usage", "matches", "patterns", "failed_operation", "backup", "problems",
    "eviction_candidates",
)


class Refused(StoreError):
    """Carries a :class:`Refusal` from where it is found to the store's public method."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.error)
        self.refusal = refusal


@dataclass(frozen=True)
class NotesView:
    """What one read of a notes file holds: its live entries and how much of its limit they use."""

    target: str
    file_name: str
    entries: tuple[str, ...]  # verbatim, as on disk
    used: int                 # characters the entries take in the file
    char_limit: int

    @property
    def usage(self) -> str:
        """``"62% — 1,364/2,200 chars"``."""
        return format_usage(self.used, self.char_limit)

    def safe_entries(self) -> list[str]:
        """The entries as a result may echo them (a threat as its ``[BLOCKED: ...]`` placeholder,
        invisible characters as ``<U+XXXX>``), as the prompt shows them."""
        return [safe_entry(entry, self.file_name) for entry in self.entries]

    def to_json(self) -> MemoryResult:
        return {"success": True, "target": self.target, "entries": self.safe_entries(),
                "entry_count": len(self.entries), "usage": self.usage, "char_limit": self.char_limit}
