"""The four tools of the mem0 provider (names and arguments as in Hermes)."""

from __future__ import annotations

from silcrow.recall import ToolSpec

SEARCH = ToolSpec.of(
    "mem0_search",
    "Search the user's memories by meaning; the best matches first, each with its id. Search before "
    "answering anything that may depend on what you know about the user; for multi-part questions search "
    "several times with different wording and follow up on what the first results reveal.",
    {"query": {"type": "string", "description": "What to look for."},
     "top_k": {"type": "integer", "description": "At most this many results (default 10, at most 50)."},
     "rerank": {"type": "boolean", "description": "Rerank the results (platform only; default false)."}},
    ["query"],
)
ADD = ToolSpec.of(
    "mem0_add",
    "Store one durable fact about the user, word for word. Call it as soon as the user states a lasting "
    "preference, correction, decision or personal detail; skip small talk and facts already stored.",
    {"content": {"type": "string", "description": "The fact to store."}},
    ["content"],
)
UPDATE = ToolSpec.of(
    "mem0_update",
    "Replace the text of a memory by its id (from mem0_search) when the fact changed or was wrong, instead "
    "of adding a duplicate.",
    {"memory_id": {"type": "string", "description": "The memory's id."},
     "text": {"type": "string", "description": "The new text."}},
    ["memory_id", "text"],
)
DELETE = ToolSpec.of(
    "mem0_delete",
    "Delete a memory by its id (from mem0_search) when it is obsolete or the user asks you to forget it; "
    "prefer mem0_update when the fact merely changed.",
    {"memory_id": {"type": "string", "description": "The memory's id."}},
    ["memory_id"],
)
