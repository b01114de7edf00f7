"""Size caps of the built-in recall memory, checked where text comes in (documented in docs/mcp-http.md).

Recalled text is scanned and fenced every time it is shown, so one huge memory
would make every later search that finds it slow, for every caller of a
server. A saved fact is one short statement; an ingested record (a
conversation turn) may be longer; a query is a few words.
"""

from __future__ import annotations

MAX_FACT_CHARS = 4000  # one fact saved with recall_add / add_fact / POST /v1/recall
MAX_RECORD_CHARS = 16000  # one ingested record (a turn); longer turns synced by an agent are clipped
MAX_QUERY_CHARS = 1000  # one recall_search query
#: What a prefetch searches with: the end of a longer message (a question usually comes after the
#: log or file pasted before it), so a huge prompt costs what a normal one does.
MAX_PREFETCH_QUERY_CHARS = 4000
MAX_RESULTS = 50  # recall_search k
