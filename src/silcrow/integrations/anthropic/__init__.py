"""silcrow as the backend of Claude's memory tool (the ``anthropic`` SDK, ``silcrow[anthropic]``).

:class:`MemoryTool` subclasses the SDK's ``BetaAbstractMemoryTool`` (tool type
``memory_20250818``): ``/memories/MEMORY.md`` and ``/memories/USER.md`` are the profile's
curated notes (with ``project=``, ``/memories/PROJECT.md`` the project's), every other path under
``/memories`` a file of the model's own. See
``docs/integrations/anthropic.md``. Importing this package without the SDK raises
:class:`~silcrow.errors.ExtraNotInstalledError` naming the extra to install.
"""

from __future__ import annotations

from silcrow.integrations.anthropic._tool import MemoryTool

__all__ = ["MemoryTool"]
