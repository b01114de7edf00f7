"""The five Honcho tools: Hermes' names and arguments, silcrow's wording."""

from __future__ import annotations

from silcrow.recall import ToolSpec

LEVELS = ["minimal", "low", "medium", "high", "max"]
_PEER = {
    "type": "string",
    "description": "Whose memory: 'user' (default), 'ai', or any peer id of the workspace.",
}

SCHEMAS: list[ToolSpec] = [
    ToolSpec.of(
        "honcho_profile",
        "Read a peer's card (a short list of standing facts: name, role, preferences, style) or replace it "
        "by passing card. Cheapest Honcho call: no query, no LLM. An empty card is normal for a new peer.",
        {
            "peer": _PEER,
            "card": {
                "type": "array",
                "items": {"type": "string"},
                "description": "New card as a list of facts; omit to read.",
            },
        },
    ),
    ToolSpec.of(
        "honcho_search",
        "Search what was actually said by a peer across all past sessions (semantic and keyword); returns "
        "raw excerpts, no synthesis. Use it to recall a specific fact, then reason over the excerpts.",
        {
            "query": {"type": "string", "description": "What to look for."},
            "max_tokens": {
                "type": "integer",
                "description": "Budget for the excerpts (default 800, max 2000).",
            },
            "peer": _PEER,
        },
        ["query"],
    ),
    ToolSpec.of(
        "honcho_reasoning",
        "Ask Honcho's reasoning agent a question about a peer and get a synthesized answer (runs an LLM: "
        "slow and costly). For one stated fact prefer honcho_search; for standing facts honcho_profile.",
        {
            "query": {"type": "string", "description": "The question."},
            "reasoning_level": {
                "type": "string",
                "enum": LEVELS,
                "description": "Depth: minimal (one quick fact) to max; default from config.",
            },
            "peer": _PEER,
        },
        ["query"],
    ),
    ToolSpec.of(
        "honcho_context",
        "The standing snapshot for this session: summary, the peer's representation and card, and recent "
        "messages. No query, no LLM.",
        {"peer": _PEER},
    ),
    ToolSpec.of(
        "honcho_conclude",
        "Write, list or delete conclusions (durable facts about a peer that shape its profile). Pass exactly "
        "one of conclusion (to save), list=true (optionally with query, to see ids) or delete_id (only to "
        "remove personal data; for a wrong fact write a corrected one).",
        {
            "conclusion": {"type": "string", "description": "A fact to keep."},
            "delete_id": {"type": "string", "description": "Id of a conclusion to delete (from list)."},
            "list": {"type": "boolean", "description": "List or search conclusions with their ids."},
            "query": {"type": "string", "description": "With list: only conclusions about this."},
            "peer": _PEER,
        },
    ),
]
