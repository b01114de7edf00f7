"""The two tools of the holographic provider (names and arguments as in Hermes)."""

from __future__ import annotations

from silcrow.recall import ToolSpec

FACT_STORE = ToolSpec.of(
    "fact_store",
    (
        "Structured long-term facts with entity resolution and trust scores, next to the memory "
        "tool (memory: always-on notes; fact_store: deep recall).\n"
        "Actions: add (store a fact), search (keywords), probe (every fact about one entity), "
        "related (what connects to an entity), reason (facts involving ALL of several entities), "
        "contradict (facts about the same entities that disagree), update, remove, list.\n"
        "Before answering a question about the user, probe or reason first."
    ),
    {
        "action": {"type": "string", "enum": ["add", "search", "probe", "related", "reason",
                                               "contradict", "update", "remove", "list"]},
        "content": {"type": "string", "description": "The fact (for add; new text for update)."},
        "query": {"type": "string", "description": "Words to look for (for search)."},
        "entity": {"type": "string", "description": "An entity name (for probe and related)."},
        "entities": {"type": "array", "items": {"type": "string"},
                     "description": "Entity names (for reason)."},
        "fact_id": {"type": "integer", "description": "The fact's id (for update and remove)."},
        "category": {"type": "string", "enum": ["user_pref", "project", "tool", "general"]},
        "tags": {"type": "string", "description": "Comma-separated tags."},
        "trust_delta": {"type": "number", "description": "Trust change (for update)."},
        "min_trust": {"type": "number", "description": "Only facts at least this trusted (0.3)."},
        "limit": {"type": "integer", "description": "At most this many results (10)."},
    },
    ["action"],
)

FACT_FEEDBACK = ToolSpec.of(
    "fact_feedback",
    ("Rate a fact you used: 'helpful' when it was right, 'unhelpful' when it was wrong or "
     "outdated. Trusted facts rank higher; distrusted ones sink out of recall."),
    {
        "action": {"type": "string", "enum": ["helpful", "unhelpful"]},
        "fact_id": {"type": "integer", "description": "The id of the fact to rate."},
    },
    ["action", "fact_id"],
)
