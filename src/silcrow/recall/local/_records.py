"""What the local recall store keeps besides the contract's records and hits
(:mod:`silcrow.recall._records`): scopes, filters, stored times and identities."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from silcrow.recall._records import KINDS, RecallHit, RecallRecord

__all__ = ["KINDS", "MemoryFilter", "RecallHit", "RecallRecord", "Scope", "content_hash", "epoch_time",
           "from_epoch", "to_epoch"]

Scope = tuple[str | None, str | None]  # (user_id, agent_id) a memory belongs to


@dataclass(frozen=True)
class MemoryFilter:
    """Which memories of a scope to pick; every field given must match.

    ``contains`` matches text holding that string, ignoring ASCII case;
    ``before`` is a unix time (memories that happened earlier).
    """

    id: int | None = None
    kind: str | None = None
    session_id: str | None = None
    before: float | None = None
    contains: str | None = None


#: The first and last whole seconds a datetime holds. A time in the last second of 9999 has an
#: epoch that rounds up past the end (year 10000 when read back), and one at the start of year 1
#: with a positive UTC offset lies before it: such times are stored as the nearest end.
_FIRST = datetime(1, 1, 1, tzinfo=UTC).timestamp()
_LAST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()


def to_epoch(when: datetime | None) -> float | None:
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return min(max(when.timestamp(), _FIRST), _LAST)


def from_epoch(ts: float | None) -> datetime | None:
    return None if ts is None else epoch_time(ts)


def epoch_time(ts: float) -> datetime:
    """The UTC datetime of a stored epoch (one outside what a datetime holds: the nearest end)."""
    return datetime.fromtimestamp(min(max(ts, _FIRST), _LAST), tz=UTC)


def content_hash(
    record: RecallRecord, ts: float | None, user_id: str | None, agent_id: str | None
) -> str:
    """Identity used for "exact duplicates are not stored twice".

    A turn is the same turn only if it was said by the same speaker, in the
    same session, at the same time (two "thanks!" on different days are two
    memories), with the same ``external_id``. ``ts`` is the time the caller
    gave; the store passes None for an undated record that has an
    ``external_id`` (so re-ingesting an undated file stores nothing new) and
    the time of storing for an undated live turn. A fact or summary is the
    same if its text and scope are.
    """
    if record.kind == "turn":
        parts: list[Any] = [record.kind, record.text, record.session_id, record.speaker, ts,
                            record.external_id, user_id, agent_id]
    else:
        parts = [record.kind, " ".join(record.text.split()).casefold(), user_id, agent_id]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()
