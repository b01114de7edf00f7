"""silcrow in the OpenAI Agents SDK (``openai-agents``, ``silcrow[openai-agents]``).

* :class:`SilcrowSession`: the SDK's ``Session`` protocol on the profile's session archive.
* :func:`memory_tools`: the notes, the session archive and recall as function tools, plus the
  notes' system-prompt section for ``instructions`` (:class:`MemoryTools`).

See ``docs/integrations/openai-agents.md``. Importing this package without the SDK raises
:class:`~silcrow.errors.ExtraNotInstalledError` naming the extra to install.
"""

from __future__ import annotations

from silcrow.integrations._extras import require

require("openai-agents", "agents")

from silcrow.integrations.openai_agents._session import SilcrowSession  # noqa: E402
from silcrow.integrations.openai_agents._tools import MemoryTools, memory_tools  # noqa: E402

__all__ = ["MemoryTools", "SilcrowSession", "memory_tools"]
