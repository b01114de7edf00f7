"""A chat model as the judge of notes the scan's learned stages held (the ``[memory]
judge_held_notes`` setting): what it may judge, what it is asked and which answers count are
:mod:`silcrow.safety._hold_judge`'s; this module only asks the configured model."""

from __future__ import annotations

import logging

from silcrow.agent._llm import LLMClient
from silcrow.errors import ModelError
from silcrow.safety import HoldJudge, Judged, judge_messages, parse_judgement

log = logging.getLogger(__name__)


def model_hold_judge(client: LLMClient) -> HoldJudge:
    """A ``judge(note, why_held)`` for :attr:`silcrow.store.MemoryStore.hold_judge` that asks
    ``client``; None (the hold stays) when the model fails, times out or answers off the schema."""

    def judge(note: str, why_held: str) -> Judged | None:
        try:
            text = client.complete(judge_messages(note, why_held)).content
        except ModelError as exc:
            log.warning("the model could not judge a held note (%s); it stays held", exc)
            return None
        answer = parse_judgement(text or "")
        if answer is None:
            log.warning("the model's judgement of a held note was not on the schema; it stays held")
        return answer

    return judge
