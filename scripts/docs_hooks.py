"""MkDocs hook (mkdocs.yml ``hooks``): the site's architecture and security pages are
ARCHITECTURE.md and SECURITY.md from the repository root, where they stay, so there is one copy
of each. Their links to documentation pages read ``docs/<page>.md`` there; on the site those
pages are siblings, so the prefix is dropped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INCLUDED = {"architecture.md": "ARCHITECTURE.md", "security-policy.md": "SECURITY.md"}
_DOCS_LINK = re.compile(r"\]\(docs/")


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    source = INCLUDED.get(page.file.src_uri)
    if source is None:
        return markdown
    return _DOCS_LINK.sub("](", (ROOT / source).read_text(encoding="utf-8"))
