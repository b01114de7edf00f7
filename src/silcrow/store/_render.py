"""The frozen snapshot blocks that go into the system prompt.

::

    ══════════════════════════════════════════════
    MEMORY (your personal notes) [62% — 1,364/2,200 chars]
    ══════════════════════════════════════════════
    first entry
    §
    second entry

Entries that the threat scanner would refuse are shown as a ``[BLOCKED: ...]``
placeholder (the file keeps them, so the user can see and remove them). An entry
the scanner only holds for a person (an install one-liner, a security note quoting
an attack) is shown: it reached the file through a person -- an approval, a save
they confirmed, or their own edit -- and a model's write of it waits for one. A
file over its budget, which only a hand edit can produce, is marked and cut
to its head and tail so it cannot flood the prompt.
"""

from __future__ import annotations

from silcrow import safety as threats
from silcrow.store._entries import ENTRY_DELIMITER, escape_entry, format_usage, preview

RULE = "═" * 46
TITLES = {
    "memory": "MEMORY (your personal notes)",
    "user": "USER PROFILE (who the user is)",
    "project": "PROJECT (notes on the project you are working in)",
}
OVER_BUDGET = "⚠ OVER BUDGET"


def blocked_placeholder(file_name: str, pattern_ids: list[str]) -> str:
    ids = ", ".join(dict.fromkeys(pattern_ids))
    return f"[BLOCKED: {file_name} entry matched {ids}; remove it with the memory tool]"


def blocking_hits(entry: str) -> list[threats.ThreatHit]:
    """The hits that keep ``entry`` out of a prompt: all of them when the scan would refuse it
    (invisible characters, an attack, a secret), none when it would only hold it."""
    hits = threats.scan(entry)
    return hits if threats.verdict(hits) == "refuse" else []


def shown_entry(entry: str, file_name: str) -> str:
    """The entry as the model may see it: itself, or a placeholder when it is a threat."""
    hits = blocking_hits(entry)
    if hits:
        return blocked_placeholder(file_name, [hit.pattern_id for hit in hits])
    return entry


def safe_entry(entry: str, file_name: str) -> str:
    """The entry as a tool result may echo it: the placeholder when it is a threat, else
    with invisible characters and undecodable bytes shown as ``<U+XXXX>``."""
    return threats.display_safe(shown_entry(entry, file_name))


def safe_preview(entry: str, file_name: str, width: int = 80) -> str:
    """A one-line preview of :func:`safe_entry` (a placeholder is kept whole, never cut)."""
    hits = blocking_hits(entry)
    if hits:
        return blocked_placeholder(file_name, [hit.pattern_id for hit in hits])
    return preview(threats.display_safe(entry), width)


def _head_and_tail(body: str, budget: int, file_name: str, drifted: bool) -> str:
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
    if drifted:
        # replace/remove refuse a file in this shape, so telling the model to
        # consolidate would only start a loop of refusals.
        fix = (
            "it was edited by hand into a shape the memory tool will not rewrite, so do not try to "
            f"consolidate it; ask the user to fix {file_name} (`silcrow memory doctor` shows what is wrong)"
        )
    else:
        fix = "consolidate it with the memory tool (replace or remove entries)"
    note = f"[… {omitted:,} chars of {file_name} omitted: it is over its {budget:,}-char budget; {fix} …]"
    return f"{head}\n{note}\n{tail}"


def project_title(root: object) -> str:
    """The header of a project's block, naming its root (shown safely: a path is the user's text)."""
    return f"PROJECT (notes on the project at {threats.display_safe(str(root))})"


def render_block(
    target: str, entries: list[str], limit: int, file_name: str, *, drifted: bool = False,
    title: str | None = None,
) -> str | None:
    """The block for one target, or None when it has no entries.

    ``drifted``: the file has a shape replace/remove refuse (e.g. one entry
    larger than the whole limit), which changes what the truncation note asks for.
    ``title``: the header's words instead of the target's usual ones.
    """
    if not entries:
        return None
    used = len(ENTRY_DELIMITER.join(escape_entry(e) for e in entries))
    header = f"{title or TITLES[target]} [{format_usage(used, limit)}]"
    body = ENTRY_DELIMITER.join(escape_entry(safe_entry(e, file_name)) for e in entries)
    if used > limit:
        header = f"{header} {OVER_BUDGET}"
        if len(body) > limit:
            body = _head_and_tail(body, limit, file_name, drifted)
    return f"{RULE}\n{header}\n{RULE}\n{body}"
