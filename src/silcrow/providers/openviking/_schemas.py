"""The OpenViking tools offered to the model: Hermes' names and arguments, silcrow's wording."""

from __future__ import annotations

from silcrow.recall import ToolSpec

_URI = {"type": "string", "description": "A viking:// URI."}

SCHEMAS: list[ToolSpec] = [
    ToolSpec.of(
        "viking_search",
        "Search the OpenViking knowledge base by meaning. Returns ranked viking:// URIs with short "
        "abstracts; read the strongest ones with viking_read. mode 'fast' for a simple lookup, "
        "'deep' for questions that need several sources.",
        {
            "query": {"type": "string", "description": "What to look for."},
            "mode": {
                "type": "string",
                "enum": ["auto", "fast", "deep"],
                "description": "Depth (default auto).",
            },
            "scope": {"type": "string", "description": "Only under this viking:// prefix."},
            "limit": {"type": "integer", "description": "At most this many results (default 10)."},
        },
        ["query"],
    ),
    ToolSpec.of(
        "viking_read",
        "Read one viking:// URI (or up to three in uris) at a level of detail: abstract (short summary), "
        "overview (key points) or full (everything). Start small; ask for full only when needed.",
        {
            "uri": _URI,
            "uris": {"type": "array", "items": {"type": "string"}, "description": "Up to three URIs."},
            "level": {
                "type": "string",
                "enum": ["abstract", "overview", "full"],
                "description": "Detail level (default overview).",
            },
        },
    ),
    ToolSpec.of(
        "viking_browse",
        "Look at the OpenViking store like a filesystem: list a directory, show a tree, or stat one URI.",
        {
            "action": {"type": "string", "enum": ["tree", "list", "stat"], "description": "What to do."},
            "path": {"type": "string", "description": "A viking:// path (default viking://)."},
        },
        ["action"],
    ),
    ToolSpec.of(
        "viking_remember",
        "Store one fact in OpenViking for the long term; it is filed under its category and indexed.",
        {
            "content": {"type": "string", "description": "The fact to keep."},
            "category": {
                "type": "string",
                "enum": ["preference", "entity", "event", "case", "pattern"],
                "description": "Where to file it (default preference).",
            },
        },
        ["content"],
    ),
    ToolSpec.of(
        "viking_forget",
        "Delete one OpenViking memory file, given its exact viking:// URI ending in .md. Only when the user "
        "asks to forget something specific; directories, resources and summaries are refused.",
        {"uri": {"type": "string", "description": "The exact memory file URI."}},
        ["uri"],
    ),
    ToolSpec.of(
        "viking_add_resource",
        "Add a public URL (http(s), git or ssh) to the OpenViking knowledge base to be parsed and indexed.",
        {
            "url": {"type": "string", "description": "The URL to add."},
            "reason": {"type": "string", "description": "Why it matters (helps search)."},
            "to": {"type": "string", "description": "Target viking:// URI."},
            "parent": {"type": "string", "description": "Parent viking:// URI (not with to)."},
            "instruction": {"type": "string", "description": "How to process it."},
            "wait": {"type": "boolean", "description": "Wait until it is processed."},
            "timeout": {"type": "number", "description": "Seconds to wait when wait is true."},
        },
        ["url"],
    ),
]
