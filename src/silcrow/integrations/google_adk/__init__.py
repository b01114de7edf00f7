"""silcrow as Google ADK's memory service: :class:`SilcrowMemoryService` (``pip install
'silcrow[google-adk]'``), for ``Runner(..., memory_service=...)``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("google-adk", "google.adk.memory")

from silcrow.integrations.google_adk._service import SilcrowMemoryService  # noqa: E402

__all__ = ["SilcrowMemoryService"]
