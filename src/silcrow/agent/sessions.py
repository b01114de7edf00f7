"""Deprecated: the session archive moved to :mod:`silcrow.sessions`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.sessions import (
    SCHEMA_VERSION,
    SUMMARY_MARKER,
    SessionBackend,
    SessionInfo,
    SessionStore,
    fts_query,
    open_sessions,
)

__all__ = ["SCHEMA_VERSION", "SUMMARY_MARKER", "SessionBackend", "SessionInfo", "SessionStore", "fts_query",
           "open_sessions"]

warnings.warn("silcrow.agent.sessions is deprecated; import from silcrow.sessions", DeprecationWarning,
              stacklevel=2)
