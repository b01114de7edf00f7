"""silcrow as LangGraph's long-term memory store (``langgraph``, ``silcrow[langgraph]``).

:class:`SilcrowStore` is a ``langgraph.store.base.BaseStore`` on a profile's storage (SQLite
or PostgreSQL), its ``search(query=...)`` ranked by silcrow's hybrid recall. See
``docs/integrations/langgraph.md``. Importing this package without the SDK raises
:class:`~silcrow.errors.ExtraNotInstalledError` naming the extra to install.
"""

from __future__ import annotations

from silcrow.integrations._extras import require

require("langgraph", "langgraph.store.base")

from silcrow.integrations.langgraph._store import SilcrowStore  # noqa: E402

__all__ = ["SilcrowStore"]
