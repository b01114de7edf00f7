"""Merged wording and pair judgements for `silcrow memory review`, from the configured model.

The review pass proposes merging near-duplicate notes; a model words the merge better
than the rule (keep the longer entry). What it returns is only a proposal's text: it is
threat-scanned here (a model can be talked into anything) and again when a person
approves it, and any failure falls back to the rule. A model may also judge a pair of notes
(:func:`model_judge`); the review holds its answer to what the rules' would be held to.
"""

from __future__ import annotations

import json
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


_JUDGE_INSTRUCTIONS = (
    "You maintain an agent's memory notes. Two notes follow, the older first. Decide how the newer "
    "relates to the older: \"update\" when it changes what the older says (a new value, a move, a "
    "switch, something started or stopped: only the newer is true now), \"same\" when both state the "
    "same fact in other words, \"independent\" when both can be true together. Reply with one JSON "
    'object and nothing else: {"verdict": "update" | "same" | "independent"}'
)
VERDICTS = ("update", "same", "independent")


def model_judge(client: LLMClient) -> Callable[[str, str], str | None]:
    """A ``decide(older, newer)`` for :meth:`silcrow.store.MemoryStore.consolidate` that asks
    ``client`` how two notes relate: "update", "same" or "independent", on a strict schema (one
    JSON object with exactly one key, ``verdict``, one of those words); None (the rules decide)
    when the model fails or answers anything else."""

    def decide(older: str, newer: str) -> str | None:
        messages = [{"role": "system", "content": _JUDGE_INSTRUCTIONS},
                    {"role": "user", "content": f"Older note:\n{older}\n\nNewer note:\n{newer}"}]
        try:
            text = client.complete(messages).content.strip()
        except ModelError as exc:
            log.warning("the model could not judge a pair of notes (%s); the rules decide", exc)
            return None
        try:
            answer = json.loads(text)
        except ValueError:
            return None
        if not isinstance(answer, dict) or set(answer) != {"verdict"} or answer["verdict"] not in VERDICTS:
            return None
        verdict: str = answer["verdict"]
        return verdict

    return decide
