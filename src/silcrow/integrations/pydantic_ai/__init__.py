"""silcrow as a Pydantic AI capability: :class:`SilcrowCapability` (``pip install
'silcrow[pydantic-ai]'``), for ``Agent(..., capabilities=[...])``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("pydantic-ai", "pydantic_ai.capabilities")

from silcrow.integrations.pydantic_ai._capability import SilcrowCapability  # noqa: E402

__all__ = ["SilcrowCapability"]
