"""Safety: threat scanning of text entering a prompt, and the recall fence.

The public names are listed in ``__all__``; the modules behind them (``_threats``, ``_fence``,
``_learned``, ...) are internal.
"""

from __future__ import annotations

from silcrow.safety._fence import (
    FENCE_CLOSE,
    FENCE_OPEN,
    SYSTEM_NOTE,
    StreamingFenceScrubber,
    build_memory_context_block,
    filter_recalled,
    recalled_count,
    sanitize_context,
)
from silcrow.safety._secrets import redact_secrets, redact_value
from silcrow.safety._threats import (
    ThreatHit,
    Verdict,
    describe,
    display_safe,
    normalize,
    scan,
    verdict,
)

__all__ = [
    "FENCE_CLOSE",
    "FENCE_OPEN",
    "SECRET_PATTERNS",
    "SYSTEM_NOTE",
    "StreamingFenceScrubber",
    "ThreatHit",
    "Verdict",
    "build_memory_context_block",
    "describe",
    "display_safe",
    "filter_recalled",
    "normalize",
    "recalled_count",
    "redact_secrets",
    "redact_value",
    "sanitize_context",
    "scan",
    "verdict",
]


def __getattr__(name: str) -> object:
    # SECRET_PATTERNS holds detect-secrets' patterns, imported on first use (see _secrets).
    if name == "SECRET_PATTERNS":
        from silcrow.safety import _secrets

        return _secrets.SECRET_PATTERNS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
