"""Deprecated: moved to :mod:`silcrow.sessions`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.sessions import PostgresSessions

__all__ = ["PostgresSessions"]

warnings.warn("silcrow.db.sessions is deprecated; import from silcrow.sessions",
              DeprecationWarning, stacklevel=2)
