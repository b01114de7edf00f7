"""The records and hits of the recall contract: what a caller hands a provider to remember
(:class:`RecallRecord`) and what a search finds (:class:`RecallHit`, held by
:class:`~silcrow.recall.Found`). Every provider and the storage backends of ``local`` share them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["KINDS", "RecallHit", "RecallRecord"]

KINDS = ("turn", "fact", "summary")


@dataclass
class RecallRecord:
    """One thing to remember.

    ``timestamp`` is when it happened (a naive value is taken as UTC; None
    means now). ``external_id`` keeps an id from the source, e.g. LoCoMo's
    ``"D1:3"``.
    """

    text: str
    kind: str = "turn"
    session_id: str = ""
    speaker: str = ""
    timestamp: datetime | None = None
    user_id: str | None = None
    agent_id: str | None = None
    external_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)



@dataclass
class RecallHit:
    """One search result; ``score`` is only comparable within one search."""

    id: int
    text: str
    score: float
    kind: str
    session_id: str
    speaker: str
    timestamp: datetime | None
    external_id: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "score": round(self.score, 4),
            "kind": self.kind,
            "session_id": self.session_id,
            "speaker": self.speaker,
            "date": self.timestamp.isoformat() if self.timestamp else None,
            "external_id": self.external_id,
        }
