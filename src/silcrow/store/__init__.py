"""Curated notes: MEMORY.md and USER.md, in the system prompt.

Public names: :class:`MemoryStore` and :data:`ENTRY_DELIMITER`. The rest of
the package is implementation: ``entries`` (delimiter, escaping, matching),
``document`` (a file's text parsed once, written back keeping what a write
does not change), ``edits`` (what a mutation does to the entries),
``results`` (the typed result and refusal), ``files`` (lock, atomic write,
backups), ``journal`` (history), ``render`` (snapshot blocks) and
``backend`` (the persistence interface).
"""

from __future__ import annotations

from silcrow.store.entries import ENTRY_DELIMITER
from silcrow.store.store import MemoryStore

__all__ = ["ENTRY_DELIMITER", "MemoryStore"]
