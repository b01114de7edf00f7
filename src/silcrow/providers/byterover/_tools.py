"""The three tools of the byterover provider (names and arguments as in Hermes)."""

from __future__ import annotations

from silcrow.recall import ToolSpec

QUERY = ToolSpec.of(
    "brv_query",
    "Search ByteRover's persistent knowledge tree: memories, project knowledge, decisions and patterns "
    "from earlier sessions. Use it for any question where past context would help.",
    {"query": {"type": "string", "description": "What to look for."}},
    ["query"],
)
CURATE = ToolSpec.of(
    "brv_curate",
    "Store important information in ByteRover's knowledge tree: decisions, fixes, user preferences, "
    "project patterns, anything worth remembering across sessions. ByteRover files it by topic.",
    {"content": {"type": "string", "description": "What to remember."}},
    ["content"],
)
STATUS = ToolSpec.of(
    "brv_status",
    "Check ByteRover: CLI version, knowledge tree size, cloud sync state.",
    {},
)
