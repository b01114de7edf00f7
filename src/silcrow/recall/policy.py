"""The recall-safety policy: what goes into long-term recall and what comes back out of it.

One module for both hosts of a provider: :class:`~silcrow.recall.MemoryManager`
(silcrow's agent and servers) and the Hermes bridge (Hermes runs its own manager and
calls the bridge like a provider). Each rule is applied at the same point by both:

* :func:`worth_recalling`: empty prompts, slash commands and acknowledgements
  ("ok", "thanks") start no recall, neither a prefetch nor a queued one; a long
  message is searched by its end (:func:`prefetch_query`), so a huge prompt costs
  what a normal one does;
* :func:`stored`: text written to recall has fence tags stripped, so recalled
  context the model echoed is never stored again (a curated note mirrored to recall
  too: :func:`written_note`; the messages handed over at session end:
  :func:`stored_messages`);
* :func:`outgoing`: every string handed to a provider that keeps it outside silcrow has
  secrets redacted first (turns, queries, notes, tool arguments);
* :func:`recalled`: recalled text is filtered for threats before a model sees it;
  :func:`context_block` is the one builder of the fenced ``<memory-context>`` block
  (prefetch, and a search the MCP server answers with text), over lines in one
  format (:func:`recalled_line`, :func:`hits_block`); what several providers recalled is
  merged into one text first (:func:`merged`), so it is fenced once;
* :func:`screened`: every string of a recall tool's result is screened the same
  way, since it reaches the model outside the fence.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from silcrow.recall._limits import MAX_PREFETCH_QUERY_CHARS
from silcrow.recall._spec import ToolResult
from silcrow.safety import build_memory_context_block, filter_recalled, redact_value, sanitize_context, scan

__all__ = [
    "outgoing",
    "recalled",
    "screened",
    "stored",
]

log = logging.getLogger(__name__)

_V = TypeVar("_V")
_A = TypeVar("_A")

_TRIVIAL = frozenset(
    "ok okay k kk thanks thank you thx ty yes no y n yep yup nope sure cool great nice good "
    "perfect fine lol hi hello hey bye goodbye done continue go on got it right alright".split()
    + ["thank you", "go on", "got it", "ok thanks", "okay thanks", "thanks a lot", "sounds good"]
)
_PUNCT = re.compile(r"[\W_]+", re.UNICODE)


def is_trivial_prompt(query: str) -> bool:
    """True for prompts not worth a recall: empty, slash commands, acknowledgements."""
    text = query.strip()
    if not text or text.startswith("/"):
        return True
    words = _PUNCT.sub(" ", text.casefold()).strip()
    return not words or words in _TRIVIAL


def prefetch_query(text: str) -> str:
    """What a prefetch searches for ``text``: all of it, or its last ``MAX_PREFETCH_QUERY_CHARS``
    characters, starting at a word (a question usually comes after what was pasted before it)."""
    if len(text) <= MAX_PREFETCH_QUERY_CHARS:
        return text
    tail = text[-MAX_PREFETCH_QUERY_CHARS:]
    space = next((i for i, c in enumerate(tail[:100]) if c.isspace()), -1)
    return tail[space + 1:]


def worth_recalling(query: str) -> bool:
    """Whether ``query`` should start a recall (see :func:`is_trivial_prompt`)."""
    return not is_trivial_prompt(query)


def stored(text: str) -> str:
    """``text`` as it may be written to recall: without fence tags."""
    return sanitize_context(text)


def stored_messages(messages: Any) -> list[Any]:
    """Copies of a conversation's messages as they may reach a provider at session end: each
    message's text (a string content, or the text of its parts) as :func:`stored` text. The
    caller's messages are not changed."""
    out: list[Any] = []
    for message in messages or ():
        if not isinstance(message, dict):
            out.append(message)
            continue
        content = message.get("content")
        if isinstance(content, str):
            message = {**message, "content": stored(content)}
        elif isinstance(content, list):
            message = {**message, "content": [
                {**part, "text": stored(part["text"])}
                if isinstance(part, dict) and isinstance(part.get("text"), str) else part
                for part in content]}
        out.append(message)
    return out


def written_note(action: str, content: str) -> str:
    """The content of a curated write as it may be mirrored to recall: a note added or replaced
    is stored text (:func:`stored`); a removal's substring is passed as it is, to find the note."""
    return stored(content) if action in ("add", "replace") and isinstance(content, str) else content


def outgoing(provider: object, value: _V) -> _V:
    """``value`` as it may be handed to ``provider``: secrets redacted from every string when
    the provider keeps it outside silcrow (see :mod:`silcrow.safety._secrets`)."""
    return redact_value(value) if getattr(provider, "external", True) else value


def recalled(text: object) -> str:
    """Recalled text with threats filtered out; "" for nothing (or for what is not text)."""
    return filter_recalled(text) if isinstance(text, str) and text.strip() else ""


def screen_tool_result(value: Any) -> Any:
    """A tool result with every recalled string made safe for the model.

    Tool results reach the model outside the fence, so each string in them
    gets the same treatment as prefetched text: fence tags stripped, and a
    string that matches a threat pattern replaced by a placeholder naming
    the pattern (the memory stays stored; the user can find and forget it).
    """
    if isinstance(value, str):
        cleaned = sanitize_context(value)  # fence tags go first, as in filter_recalled
        hits = scan(cleaned)
        if hits:
            ids = ", ".join(dict.fromkeys(h.pattern_id for h in hits))
            log.warning("recall tool result withheld (%s): %.80r", ids, value)
            return f"[BLOCKED: recalled text matched {ids}]"
        return cleaned
    if isinstance(value, list | tuple):  # typed results may hold tuples
        return type(value)(screen_tool_result(v) for v in value)
    if isinstance(value, dict):
        return {k: screen_tool_result(v) for k, v in value.items()}
    return value


def screened(answer: _A) -> _A:
    """A tool's typed answer as a model may read it: every string of a :class:`ToolResult` (its
    data and error), or of a ``Found``'s hits, screened by :func:`screen_tool_result`; a
    ``Found``'s context (text a provider recalled) filtered and fenced here by
    :func:`context_block`, whatever fence the provider put around it; other answers hold no
    recalled text."""
    from silcrow.recall._api import Found

    if isinstance(answer, ToolResult):
        error = None if answer.error is None else str(screen_tool_result(answer.error))
        return ToolResult(screen_tool_result(dict(answer.data)), error)  # type: ignore[return-value]
    if isinstance(answer, Found):
        fields = ("text", "speaker", "kind", "session_id", "external_id")
        hits = tuple(replace(hit, **{name: screen_tool_result(getattr(hit, name)) for name in fields})
                     for hit in answer.hits)
        context = None if answer.context is None else context_block(str(answer.context))
        return Found(hits, context)  # type: ignore[return-value]
    return answer


def recalled_line(date: str | None, who: str, text: str, *, memory_id: int | None = None) -> str:
    """One recalled memory as a model reads it: ``[2023-05-08] Caroline: text`` (``who`` may be
    empty), after ``#12 `` when the reader may act on it by id (forget it)."""
    head = f"#{memory_id} " if memory_id is not None else ""
    return f"{head}[{(date or 'undated')[:10]}] {f'{who}: ' if who else ''}{text}"


def hit_lines(hits: Iterable[Mapping[str, Any]]) -> str:
    """Search hits (``RecallHit.to_dict()`` rows) as recalled lines, each with its id (if any)."""
    lines = []
    for hit in hits:
        who = hit.get("speaker") or ("fact" if hit.get("kind") == "fact" else "")
        text = str(hit.get("text", ""))
        lines.append(recalled_line(hit.get("date"), str(who), text, memory_id=hit.get("id")))
    return "\n".join(lines)


def hits_block(hits: Iterable[Mapping[str, Any]]) -> str:
    """The fenced block of search hits (``RecallHit.to_dict()`` rows), one line each with its id."""
    return context_block(hit_lines(hits))


def context_block(text: str, *, exclude_lines: Collection[str] = ()) -> str:
    """The fenced ``<memory-context>`` block for recalled ``text``, or ``""`` when nothing is
    left. Lines equal (after stripping) to one of ``exclude_lines`` are dropped first: what the
    model can still see from earlier blocks is not sent twice."""
    if exclude_lines:
        seen = {line.strip() for line in exclude_lines}
        text = "\n".join(line for line in text.splitlines() if not line.strip() or line.strip() not in seen)
    return build_memory_context_block(text)


# A head that dates a recalled line, "[2023-05-08]" or "[undated]" (recalled_line), or any
# bracketed head of a few characters holding a year: "[x]" or "[ ]" (a checklist) is not one.
_YEAR = re.compile(r"\d{4}")
# Who said a line, as recalled_line names a memory that is no speaker's: like no speaker at all.
_NO_SPEAKER = ("", "fact")


def _said(line: str) -> tuple[str, str]:
    """What a recalled line says and who said it, for telling two providers' lines apart:
    without a list bullet, a ``#12`` id before a date and the ``[date]`` head
    (:func:`recalled_line`); case and spacing folded. A speaker (``who:`` after a date) is kept
    apart: the same words from two speakers are two facts."""
    text = line.strip().lstrip("-*•·").strip()
    if text.startswith("#"):
        head, _, rest = text.partition(" ")
        text = rest if head[1:].isdigit() and rest.startswith("[") else text
    who = ""
    end = text.find("]", 1, 32) if text.startswith("[") else -1
    if end > 0 and (text[1:end] == "undated" or _YEAR.search(text[1:end])):
        text = text[end + 1:].strip()
        speaker, colon, rest = text.partition(": ")
        if colon and len(speaker) <= 40:
            who, text = " ".join(speaker.casefold().split()), rest
    return " ".join(text.casefold().split()), ("" if who in _NO_SPEAKER else who)


def merged(texts: Iterable[str]) -> str:
    """The recalled texts of several providers as one text, to be fenced once: each provider's
    text in the order given (the order the providers were selected in), kept as it is, less
    the lines an earlier provider already gave (the same words, whatever their date, id or
    bullet, and no other speaker's: a line that names none matches any)."""
    seen: dict[str, set[str]] = {}
    parts: list[str] = []
    for text in texts:
        kept = []
        said: list[tuple[str, str]] = []
        for line in text.splitlines() if isinstance(text, str) else ():
            words, who = _said(line)
            earlier = seen.get(words)
            if words and earlier is not None and (not who or "" in earlier or who in earlier):
                continue
            said.append((words, who))
            kept.append(line)
        for words, who in said:  # a provider's own lines are all kept: only an earlier one's repeat
            seen.setdefault(words, set()).add(who)
        part = "\n".join(kept).strip("\n")
        if part.strip():
            parts.append(part)
    return "\n\n".join(parts)
