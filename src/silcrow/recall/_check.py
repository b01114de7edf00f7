"""One real round trip through a provider: write, search and forget a probe, with latencies.

``silcrow providers check`` and the inspector's check button both run it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from silcrow.recall._provider import MemoryProvider

__all__ = ["round_trip"]

T = TypeVar("T")


def _timed(timings: dict[str, Any], step: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    value = fn()
    timings[f"{step}_ms"] = round((time.perf_counter() - start) * 1000, 1)
    return value


def round_trip(provider: MemoryProvider, text: str) -> dict[str, Any]:
    """Write, search and forget ``text``; latencies per step. Raises SilcrowError on failure (a
    provider without a way to remember says so: the RecallError of its ``remember``)."""
    trip = getattr(provider, "round_trip", None)
    if callable(trip):
        result = trip(text)
        return dict(result) if isinstance(result, dict) else {}
    timings: dict[str, Any] = {}
    kept = _timed(timings, "write", lambda: provider.remember(text, source="check"))
    found = _timed(timings, "search", lambda: provider.search(text, 5))
    timings["found"] = any(text in hit.text for hit in found.hits) or text in (found.context or "")
    _timed(timings, "forget", lambda: provider.forget(kept.id))
    return timings
