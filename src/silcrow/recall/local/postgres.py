"""Deprecated: import :class:`PostgresRecall` from :mod:`silcrow.recall.local`; this alias goes in
the next release (the README named this path as the new home of ``silcrow.db.recall``)."""

from __future__ import annotations

import warnings

from silcrow.recall.local._postgres import PostgresRecall, tsquery

__all__ = ["PostgresRecall", "tsquery"]

warnings.warn("silcrow.recall.local.postgres is deprecated; import PostgresRecall from silcrow.recall.local",
              DeprecationWarning, stacklevel=2)
