"""Safety: threat scanning of text entering a prompt, and the recall fence."""

from __future__ import annotations

from silcrow.safety.fence import (
    FENCE_CLOSE,
    FENCE_OPEN,
    SYSTEM_NOTE,
    StreamingFenceScrubber,
    build_memory_context_block,
    filter_recalled,
    sanitize_context,
)
from silcrow.safety.threats import ThreatHit, describe, display_safe, normalize, scan

__all__ = [
    "FENCE_CLOSE",
    "FENCE_OPEN",
    "SYSTEM_NOTE",
    "StreamingFenceScrubber",
    "ThreatHit",
    "build_memory_context_block",
    "describe",
    "display_safe",
    "filter_recalled",
    "normalize",
    "sanitize_context",
    "scan",
]
