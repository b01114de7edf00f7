"""Deprecated: moved to :mod:`silcrow.recall.local.postgres`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.recall.local.postgres import PostgresRecall, tsquery

__all__ = ["PostgresRecall", "tsquery"]

warnings.warn("silcrow.db.recall is deprecated; import from silcrow.recall.local.postgres",
              DeprecationWarning, stacklevel=2)
