"""The Supermemory tools: Hermes' names and arguments, silcrow's wording."""

from __future__ import annotations

from silcrow.recall import ToolSpec

# Hermes registers kebab-case names with these snake_case aliases; silcrow offers the snake_case
# ones (valid everywhere) and accepts the kebab-case ones when a model calls them by habit.
ALIASES = {
    "supermemory-save": "supermemory_store",
    "supermemory-search": "supermemory_search",
    "supermemory-forget": "supermemory_forget",
    "supermemory-profile": "supermemory_profile",
}

_BASE = [
    ToolSpec.of(
        "supermemory_store",
        "Save one memory for later recall.",
        {
            "content": {"type": "string", "description": "What to remember."},
            "metadata": {
                "type": "object",
                "description": "Optional labels (string, number or boolean values).",
            },
        },
        ["content"],
    ),
    ToolSpec.of(
        "supermemory_search",
        "Search long-term memory by meaning.",
        {
            "query": {"type": "string", "description": "What to look for."},
            "limit": {"type": "integer", "description": "How many results, 1 to 20 (default 5)."},
        },
        ["query"],
    ),
    ToolSpec.of(
        "supermemory_forget",
        "Forget one memory, by its id or by the best match for a query.",
        {
            "id": {"type": "string", "description": "The memory id (from supermemory_search)."},
            "query": {"type": "string", "description": "Forget the best match for this."},
        },
    ),
    ToolSpec.of(
        "supermemory_profile",
        "Read the user's standing profile facts and recent context.",
        {
            "query": {"type": "string", "description": "Optional focus (the profile is returned whole)."},
        },
    ),
]


def schemas(containers: list[str], primary: str) -> list[ToolSpec]:
    """The four tools; with several allowed containers each takes an optional ``container_tag``."""
    if not containers:
        return list(_BASE)
    tag = {"type": "string",
           "description": f"Container to use, one of {', '.join(containers)} (default {primary})."}
    return [spec.with_property("container_tag", tag) for spec in _BASE]
