"""silcrow as a Microsoft Agent Framework context provider: :class:`SilcrowContextProvider`
(``pip install 'silcrow[agent-framework]'``), for ``Agent(..., context_providers=[...])``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("agent-framework", "agent_framework")

from silcrow.integrations.agent_framework._provider import SilcrowContextProvider  # noqa: E402

__all__ = ["SilcrowContextProvider"]
