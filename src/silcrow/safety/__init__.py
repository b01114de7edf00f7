"""Safety: threat scanning of text entering a prompt, and the recall fence.

The public names are listed in ``__all__``; the modules behind them (``_threats``, ``_fence``,
``_learned``, ...) are internal.
"""

from __future__ import annotations

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow.safety._fence import FENCE_CLOSE as FENCE_CLOSE
from silcrow.safety._fence import FENCE_OPEN as FENCE_OPEN
from silcrow.safety._fence import SYSTEM_NOTE as SYSTEM_NOTE
from silcrow.safety._fence import StreamingFenceScrubber as StreamingFenceScrubber
from silcrow.safety._fence import (
    build_memory_context_block,
    sanitize_context,
)
from silcrow.safety._fence import filter_recalled as filter_recalled
from silcrow.safety._fence import recalled_count as recalled_count
from silcrow.safety._hold_judge import HoldJudge as HoldJudge
from silcrow.safety._hold_judge import Judged as Judged
from silcrow.safety._hold_judge import judge_messages as judge_messages
from silcrow.safety._hold_judge import judgeable as judgeable
from silcrow.safety._hold_judge import parse_judgement as parse_judgement
from silcrow.safety._secrets import redact_secrets, redact_value
from silcrow.safety._threats import (
    ThreatHit,
    Verdict,
    scan,
    verdict,
)
from silcrow.safety._threats import describe as describe
from silcrow.safety._threats import display_safe as display_safe
from silcrow.safety._threats import normalize as normalize

__all__ = [
    "ThreatHit",
    "Verdict",
    "build_memory_context_block",
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
