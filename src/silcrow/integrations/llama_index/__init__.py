"""silcrow as a LlamaIndex memory block: :class:`SilcrowMemoryBlock` (``pip install
'silcrow[llama-index]'``), for ``llama_index.core.memory.Memory``."""

from __future__ import annotations

from silcrow.integrations._extras import require

require("llama-index", "llama_index.core.memory")

from silcrow.integrations.llama_index._block import SilcrowMemoryBlock  # noqa: E402

__all__ = ["SilcrowMemoryBlock"]
