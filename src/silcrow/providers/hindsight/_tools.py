"""The three tools of the hindsight provider (names and arguments as in Hermes)."""

from __future__ import annotations

from silcrow.recall import ToolSpec

RETAIN = ToolSpec.of(
    "hindsight_retain",
    "Store information in long-term memory. Hindsight extracts structured facts, resolves entities and "
    "indexes them for retrieval.",
    {"content": {"type": "string", "description": "The information to store."},
     "context": {"type": "string", "description": "A short label, e.g. 'user preference'."},
     "tags": {"type": "array", "items": {"type": "string"},
              "description": "Tags for this memory, added to the configured retain tags."}},
    ["content"],
)
RECALL = ToolSpec.of(
    "hindsight_recall",
    "Search long-term memory: the most relevant memories, found by meaning, keywords, the entity graph "
    "and reranking.",
    {"query": {"type": "string", "description": "What to look for."}},
    ["query"],
)
REFLECT = ToolSpec.of(
    "hindsight_reflect",
    "Answer a question by reasoning over all long-term memories (a synthesis, not a list of matches).",
    {"query": {"type": "string", "description": "The question to reflect on."}},
    ["query"],
)
