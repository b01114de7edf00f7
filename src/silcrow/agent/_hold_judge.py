"""A chat model as the judge of notes the scan's learned stages held (the ``[memory]
judge_held_notes`` setting): what it may judge, what it is asked and which answers count are
:mod:`silcrow.safety._hold_judge`'s; this module only asks the configured model."""

from __future__ import annotations

import logging

from silcrow.agent._llm import LLMClient
from silcrow.config import Settings
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


def configured_hold_judge(settings: Settings) -> HoldJudge | None:
    """The judge every surface that writes for a model (the agent, the MCP and REST servers)
    sets on its store: the profile's chat model when ``[memory] judge_held_notes`` is on, else
    None. A short timeout and no retry: a slow or failing judge keeps the hold."""
    if not settings.judge_held_notes:
        return None
    return model_hold_judge(LLMClient(settings.model, base_url=settings.base_url,
                                      api_key=settings.api_key, timeout=30, max_retries=0))
