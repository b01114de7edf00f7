"""Deprecated: moved to :mod:`silcrow.transfer`; this alias goes in the next release."""

from __future__ import annotations

import warnings

from silcrow.transfer import Counts, export_home, import_home

__all__ = ["Counts", "export_home", "import_home"]

warnings.warn("silcrow.db.transfer is deprecated; import from silcrow.transfer",
              DeprecationWarning, stacklevel=2)
