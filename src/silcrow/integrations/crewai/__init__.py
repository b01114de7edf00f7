"""silcrow as the storage of CrewAI's unified memory: :class:`SilcrowStorage` (``pip install
'silcrow[crewai]'``), for ``crewai.Memory(storage=...)``. See ``docs/integrations/crewai.md``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("crewai", "crewai.memory.storage.backend")

from silcrow.integrations.crewai._storage import SilcrowStorage  # noqa: E402

__all__ = ["SilcrowStorage"]
