"""Merged wording for `silcrow memory review`, from the configured model.

The review pass proposes merging near-duplicate notes; a model words the merge better
than the rule (keep the longer entry). What it returns is only a proposal's text: it is
threat-scanned here (a model can be talked into anything) and again when a person
approves it, and any failure falls back to the rule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from silcrow import safety
from silcrow.agent._llm import LLMClient
from silcrow.errors import ModelError

log = logging.getLogger(__name__)

_INSTRUCTIONS = (
    "You maintain an agent's memory notes. Merge the two notes below into ONE short note that keeps "
    "every fact of both and adds nothing. When they disagree, the second (newer) note wins. Reply "
    "with the merged note only: no quotes, no preamble."
)
MAX_MERGED = 1000


def model_merge(client: LLMClient) -> Callable[[str, str], str | None]:
    """A ``merge(older, newer)`` for :meth:`silcrow.store.MemoryStore.consolidate` that asks
    ``client``; None (the rule decides) when the model fails or its text is unusable."""

    def merge(older: str, newer: str) -> str | None:
        messages = [{"role": "system", "content": _INSTRUCTIONS},
                    {"role": "user", "content": f"Note 1 (older):\n{older}\n\nNote 2 (newer):\n{newer}"}]
        try:
            text = client.complete(messages).content.strip()
        except ModelError as exc:
            log.warning("the model could not word a merge (%s); keeping the longer note", exc)
            return None
        if not text or len(text) > MAX_MERGED or "\n§\n" in f"\n{text}\n" or safety.scan(text):
            return None
        return text

    return merge
