"""Deprecated: import :class:`PostgresBackend` from :mod:`silcrow.store`; this alias goes in the
next release."""

from __future__ import annotations

import warnings

from silcrow.store._postgres import PostgresBackend, PostgresBox, PostgresTransaction, journal_line

__all__ = ["PostgresBackend", "PostgresBox", "PostgresTransaction", "journal_line"]

warnings.warn("silcrow.db.curated is deprecated; import PostgresBackend from silcrow.store",
              DeprecationWarning, stacklevel=2)
