"""silcrow as an AutoGen memory: :class:`SilcrowMemory` (``pip install 'silcrow[autogen]'``),
for ``AssistantAgent(..., memory=[...])``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("autogen", "autogen_core.memory")

from silcrow.integrations.autogen._memory import SilcrowMemory  # noqa: E402

__all__ = ["SilcrowMemory"]
