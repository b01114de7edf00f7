"""The edits a mutation applies to a list of entries, and their refusals.

Pure functions, no I/O: the store validates a request up front (target,
fields, threat scan) into an :data:`Edit`, then runs that edit on the entries
it re-read under the lock. An edit returns the new entries and a message, or
raises :class:`~silcrow.store._results.Refused` with what was wrong and what to do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from silcrow import safety as threats
from silcrow.store import _entries as E
from silcrow.store import _render as render
from silcrow.store._document import Document
from silcrow.store._results import Refusal, Refused

Outcome = tuple[list[str], str]
Edit = Callable[[list[str]], Outcome]


@dataclass(frozen=True)
class Where:
    """The file an edit applies to, for messages."""

    file_name: str
    limit: int


_SURROGATE = re.compile("[\ud800-\udfff]")


def safe_entries(entries: list[str], file_name: str) -> list[str]:
    """Entries as a result may echo them: a threat becomes the ``[BLOCKED: ...]`` placeholder,
    invisible characters show as ``<U+XXXX>``. Results go back to the model, so a hand-edited
    entry must reach it in the same form as in the prompt, not verbatim."""
    return [render.safe_entry(entry, file_name) for entry in entries]


def safe_shape_problems(document: Document, where: Where) -> list[str]:
    """:meth:`Document.problems` with offending entries named in a form safe for the model."""

    def show(entry: str) -> str:
        shown = render.safe_preview(entry, where.file_name, 40)
        return shown if shown.startswith("[BLOCKED: ") else repr(shown)

    return document.problems(where.limit, show=show)


def _check_characters(field: str, value: str) -> None:
    """Refuse ``value`` when it holds a lone surrogate, which no file can store as UTF-8."""
    found = _SURROGATE.search(value)
    if found is None:
        return
    raise Refused(Refusal(
        f"'{field}' contains an invalid character (a lone UTF-16 surrogate, U+{ord(found.group()):04X} "
        f"at character {found.start()}; bytes that are not valid UTF-8, e.g. in a command-line "
        "argument, arrive as these); remove it and retry. Nothing was changed."
    ))


def threat_reasons(hits: list[threats.ThreatHit]) -> str:
    """What the threat scan found, in words: ``id (category): description; ...``."""
    return "; ".join(dict.fromkeys(f"{h.pattern_id} ({h.category}): {h.description}" for h in hits))


def _check_threats(content: str, holds: list[threats.ThreatHit] | None = None,
                   judge: threats.HoldJudge | None = None, released: list[dict[str, Any]] | None = None,
                   ) -> None:
    """Refuse ``content`` naming the threat patterns it matched. With ``holds`` (a list), hits
    the scan can only hold are added to it instead: a person will judge them. With ``judge``, a
    hold of the learned stages alone is put to it first; a release is added to ``released`` (for
    the journal) and the content passes."""
    hits = threats.scan(content, learned=True)
    if not hits:
        return
    ids = list(dict.fromkeys(h.pattern_id for h in hits))
    reasons = threat_reasons(hits)
    if threats.verdict(hits) == "hold":
        if holds is not None:
            holds.extend(hits)
            return
        if judge is not None and released is not None and threats.judgeable(hits):
            answer = judge(content, reasons)
            if answer is not None and answer.verdict == "release":
                released.append({"held": ids, "reason": answer.reason})
                return
        raise Refused(Refusal(
            f"Held: the content may be unsafe in a system prompt ({reasons}), and only the user can "
            "judge it. Rephrase it as a plain fact without the flagged part, or ask the user to save it "
            f"themselves. Nothing was changed. Content as received (sanitized): "
            f"{threats.display_safe(content)!r}",
            patterns=ids, held=True,
        ))
    raise Refused(Refusal(
        f"Refused: the content matched threat pattern(s) {', '.join(ids)} — {reasons}. Memory "
        "entries are placed in the system prompt, so they must not contain instructions to the "
        "model, secrets, or hidden text. Save the underlying fact as plain declarative text. "
        f"Content as received (sanitized): {threats.display_safe(content)!r}",
        patterns=ids,
    ))


def checked_content(content: Any, hint: str, force: bool = False,
                    holds: list[threats.ThreatHit] | None = None, judge: threats.HoldJudge | None = None,
                    released: list[dict[str, Any]] | None = None) -> str:
    """The normalized entry text; refused when it is missing, empty or (unless a person
    confirmed it with ``force``) a threat; uncertain hits go to ``holds`` when it is given; a
    hold of the learned stages that ``judge`` releases goes to ``released``."""
    if not isinstance(content, str) or not content.strip():
        raise Refused(Refusal(f"'content' is missing or empty: {hint}"))
    _check_characters("content", content)
    text = E.normalize_entry(content)
    if not force:
        _check_threats(text, holds, judge, released)
    return text


def checked_old_text(old_text: Any, action: str) -> str:
    if not isinstance(old_text, str) or not old_text.strip():
        raise Refused(Refusal(
            f"'old_text' is missing or empty: give a short substring of the entry to {action}"
        ))
    _check_characters("old_text", old_text)
    return old_text


def locate(where: Where, current: list[str], old_text: str, new_content: str | None = None) -> int:
    """Index of the one entry ``old_text`` designates; refused when there is none or several."""
    match = E.find(current, old_text)
    if not match.found:
        raise Refused(Refusal(
            f"No entry in {where.file_name} contains {threats.display_safe(old_text)!r}. Copy a short "
            "substring exactly from one of the current entries listed here and retry.",
            current_entries=safe_entries(current, where.file_name),
            usage=E.format_usage(E.char_count(current), where.limit), unmatched=True,
        ))
    if match.ambiguous:
        error = (
            f"Multiple entries matched {threats.display_safe(old_text)!r} ({len(match.distinct)} "
            "different entries). Be more specific: use a longer substring found in only one of them."
        )
        if new_content is not None and new_content in current:
            error += (
                " Note: the new content already exists verbatim as an entry, so it may already be saved."
            )
        raise Refused(Refusal(
            error, matches=[render.safe_preview(e, where.file_name) for e in match.distinct], unmatched=True,
        ))
    return match.indexes[0]


def add_edit(text: str) -> Edit:
    def edit(current: list[str]) -> Outcome:
        if text in current:
            return current, "Entry already exists; nothing added."
        return [*current, text], "Entry added."

    return edit


def replace_edit(where: Where, old_text: str, text: str) -> Edit:
    def edit(current: list[str]) -> Outcome:
        index = locate(where, current, old_text, new_content=text)
        if current[index] == text:
            return current, "Entry already has this content; nothing changed."
        updated = list(current)
        if text in current:
            # The new text is already an entry of its own: keep one copy.
            del updated[index]
            return updated, "Entry replaced (the new content already existed, so the two were merged)."
        updated[index] = text
        return updated, "Entry replaced."

    return edit


def remove_edit(where: Where, old_text: str) -> Edit:
    def edit(current: list[str]) -> Outcome:
        index = locate(where, current, old_text)
        return current[:index] + current[index + 1 :], "Entry removed."

    return edit


def _batch_failure(number: int, op: Any, refused: Refused) -> Refused:
    action = op.get("action") if isinstance(op, dict) else None
    refusal = refused.refusal
    return Refused(replace(
        refusal,
        error=f"Operation {number} ({action}) failed: {refusal.error} Nothing was changed: a batch "
        "is all-or-nothing.",
        failed_operation=number,
    ))


def _batch_step(where: Where, op: Any, holds: list[threats.ThreatHit] | None, force: bool = False) -> Edit:
    if not isinstance(op, dict):
        raise Refused(Refusal("each operation must be an object with an 'action'"))
    action = op.get("action")
    if action == "add":
        return add_edit(checked_content(op.get("content"), "give the fact to add", force, holds))
    if action in ("replace", "remove"):
        old_text = checked_old_text(op.get("old_text"), action)
        if action == "remove":
            return remove_edit(where, old_text)
        text = checked_content(op.get("content"), "give the new text of the entry", force, holds)
        return replace_edit(where, old_text, text)
    raise Refused(Refusal(f"unknown action {action!r}: use 'add', 'replace' or 'remove'"))


def batch_edit(where: Where, operations: Any, holds: list[threats.ThreatHit] | None = None,
               force: bool = False) -> Edit:
    """One edit applying every operation in order; the first failure refuses the whole batch
    (``holds`` and ``force`` as in :func:`checked_content`)."""
    if not isinstance(operations, list) or not operations:
        raise Refused(Refusal(
            '\'operations\' must be a non-empty list of {"action": "add"|"replace"|"remove", '
            '"content"?, "old_text"?} objects'
        ))
    steps: list[Edit] = []
    for number, op in enumerate(operations, start=1):
        try:
            steps.append(_batch_step(where, op, holds, force))
        except Refused as refused:
            raise _batch_failure(number, op, refused) from None

    def edit(current: list[str]) -> Outcome:
        state = list(current)
        for number, (op, step) in enumerate(zip(operations, steps, strict=True), start=1):
            try:
                state = step(state)[0]
            except Refused as refused:
                raise _batch_failure(number, op, refused) from None
        return state, f"Batch of {len(steps)} operation(s) applied."

    return edit
