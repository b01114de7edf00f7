"""Deprecated: moved to :mod:`silcrow.store.postgres`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.store.postgres import PostgresBackend, PostgresBox, PostgresTransaction, journal_line

__all__ = ["PostgresBackend", "PostgresBox", "PostgresTransaction", "journal_line"]

warnings.warn("silcrow.db.curated is deprecated; import from silcrow.store.postgres",
              DeprecationWarning, stacklevel=2)
