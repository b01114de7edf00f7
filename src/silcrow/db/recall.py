"""Deprecated: moved to :mod:`silcrow.recall.local`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.recall.local._postgres import PostgresRecall, tsquery

__all__ = ["PostgresRecall", "tsquery"]

warnings.warn("silcrow.db.recall is deprecated; import PostgresRecall from silcrow.recall.local",
              DeprecationWarning, stacklevel=2)
