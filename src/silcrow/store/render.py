"""The frozen snapshot blocks that go into the system prompt.

::

    ══════════════════════════════════════════════
    MEMORY (your personal notes) [62% — 1,364/2,200 chars]
    ══════════════════════════════════════════════
    first entry
    §
    second entry

Entries that the threat scanner flags are shown as a ``[BLOCKED: ...]``
placeholder (the file keeps them, so the user can see and remove them). A
file over its budget, which only a hand edit can produce, is marked and cut
to its head and tail so it cannot flood the prompt.
"""

from __future__ import annotations

from silcrow.safety import threats
from silcrow.store.entries import ENTRY_DELIMITER, escape_entry, format_usage

RULE = "═" * 46
TITLES = {
    "memory": "MEMORY (your personal notes)",
    "user": "USER PROFILE (who the user is)",
}
OVER_BUDGET = "⚠ OVER BUDGET"


def blocked_placeholder(file_name: str, pattern_ids: list[str]) -> str:
    ids = ", ".join(dict.fromkeys(pattern_ids))
    return f"[BLOCKED: {file_name} entry matched {ids}; remove it with the memory tool]"


def shown_entry(entry: str, file_name: str) -> str:
    """The entry as the model may see it: itself, or a placeholder when it is a threat."""
    hits = threats.scan(entry)
    if hits:
        return blocked_placeholder(file_name, [hit.pattern_id for hit in hits])
    return entry


def _head_and_tail(body: str, budget: int, file_name: str) -> str:
    # Keep the start (oldest, usually most settled notes) and the end (most
    # recent) and say plainly what was cut and how to fix it.
    half = max(budget // 2, 1)
    head = body[:half]
    tail = body[-half:]
    # Cut on line boundaries when there is one close by, so no line is half shown.
    if "\n" in head[half // 2 :]:
        head = head[: head.rindex("\n")]
    if "\n" in tail[: half // 2]:
        tail = tail[tail.index("\n") + 1 :]
    omitted = len(body) - len(head) - len(tail)
    note = (
        f"[… {omitted:,} chars of {file_name} omitted: it is over its {budget:,}-char budget; "
        "consolidate it with the memory tool (replace or remove entries) …]"
    )
    return f"{head}\n{note}\n{tail}"


def render_block(target: str, entries: list[str], limit: int, file_name: str) -> str | None:
    """The block for one target, or None when it has no entries."""
    if not entries:
        return None
    used = len(ENTRY_DELIMITER.join(escape_entry(e) for e in entries))
    header = f"{TITLES[target]} [{format_usage(used, limit)}]"
    body = ENTRY_DELIMITER.join(escape_entry(shown_entry(e, file_name)) for e in entries)
    if used > limit:
        header = f"{header} {OVER_BUDGET}"
        if len(body) > limit:
            body = _head_and_tail(body, limit, file_name)
    return f"{RULE}\n{header}\n{RULE}\n{body}"
