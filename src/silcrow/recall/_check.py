"""One real round trip through a provider: write, search and forget a probe, with latencies.

``silcrow providers check`` and the inspector's check button both run it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from silcrow.errors import SilcrowError
from silcrow.recall._provider import MemoryProvider

__all__ = ["round_trip"]

T = TypeVar("T")


def _timed(timings: dict[str, Any], step: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    value = fn()
    timings[f"{step}_ms"] = round((time.perf_counter() - start) * 1000, 1)
    return value


def round_trip(provider: MemoryProvider, text: str) -> dict[str, Any]:
    """Write, search and forget ``text``; latencies per step. Raises SilcrowError on failure."""
    trip = getattr(provider, "round_trip", None)
    if callable(trip):
        result = trip(text)
        return dict(result) if isinstance(result, dict) else {}
    add, search, forget = (getattr(provider, n, None) for n in ("add_fact", "search", "forget"))
    if not (callable(add) and callable(search) and callable(forget)):
        raise SilcrowError(f"provider {provider.name!r} offers no round-trip check (no round_trip method)")
    timings: dict[str, Any] = {}
    ref = _timed(timings, "write", lambda: add(text))
    hits = _timed(timings, "search", lambda: search(text, 5))
    timings["found"] = any(text in str(getattr(h, "text", h)) for h in hits)
    _timed(timings, "forget", lambda: forget(ref))
    return timings
