"""Entry metadata and the archive of dropped entries, folded from the journal.

The note files stay exactly what Hermes reads and writes; what silcrow knows *about* each
entry lives beside them in one small document (the *ledger*: ``.ledger.json`` in the
memories directory, a row of ``silcrow.curated_ledger`` in PostgreSQL):

* per live entry: when it was added and last changed, and by whom; how many sessions'
  system prompts it has been in; when a tool or recall last surfaced it;
* the *archive*: every entry that a remove, a replace, an eviction, an undo or a hand edit
  dropped, with when, why and by whom, restorable through the normal write path.

Nothing here is on the write path. Every committed change is already a journal record
(before, after, time, origin, who), so the ledger is *folded* from the journal when someone
asks for it (``memory show --details``, the archive, review) and before the journal drops
old records (compaction), and stored with a checkpoint per target. Folding is idempotent:
an entry already known keeps its history, an archived item is keyed by the record that
dropped it. The usage counters are the only facts the journal does not hold; they are
written to the ledger directly, once per session start and per surfacing.

An entry changed outside silcrow (a hand edit not yet journaled) is matched against the
entries the ledger knows by similarity: a match keeps its history and is marked changed
"outside silcrow", anything else starts fresh, and what disappeared is archived.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from silcrow import safety as threats
from silcrow.store._pending import who_text

LEDGER_FILE = ".ledger.json"
VERSION = 1

#: The archive keeps at most this many items and bytes of entry text; past either bound, or
#: older than the retention, the oldest items go first. Documented in docs/memory-hygiene.md.
ARCHIVE_MAX_ITEMS = 1000
ARCHIVE_MAX_BYTES = 1024 * 1024
ARCHIVE_RETENTION_DAYS = 365

# How alike two entries must be (difflib ratio) to count as one entry edited, when a change
# did not say which entry became which (a batch, an undo, a hand edit).
SAME_ENTRY = 0.6

# Why an entry left the notes, by the journal action that dropped it.
_WHY = {"remove": "removed", "replace": "replaced", "batch": "replaced", "undo": "undone",
        "outside_edit": "edited outside silcrow", "add": "evicted"}


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def empty() -> dict[str, Any]:
    return {"version": VERSION, "folded": {}, "entries": {}, "archive": []}


def parse(text: str) -> dict[str, Any]:
    """The ledger document from its stored text; an unreadable one starts empty (it holds
    derived facts and counters, never the notes themselves)."""
    if not text.strip():
        return empty()
    try:
        state = json.loads(text)
    except json.JSONDecodeError:
        return empty()
    if not isinstance(state, dict) or state.get("version") != VERSION:
        return empty()
    # A damaged document (edited by hand, say) keeps what still has the right shape.
    folded, entries, archive = state.get("folded"), state.get("entries"), state.get("archive")
    state["folded"] = ({k: v for k, v in folded.items() if isinstance(v, str)}
                       if isinstance(folded, dict) else {})
    state["entries"] = ({target: {e: i for e, i in known.items() if isinstance(i, dict)}
                         for target, known in entries.items() if isinstance(known, dict)}
                        if isinstance(entries, dict) else {})
    state["archive"] = ([i for i in archive if isinstance(i, dict) and isinstance(i.get("id"), str)
                         and isinstance(i.get("text"), str) and isinstance(i.get("target"), str)]
                        if isinstance(archive, list) else [])
    return state


def render(state: Mapping[str, Any]) -> str:
    # ensure_ascii: surrogate-escaped bytes of a damaged note survive, as in the journal.
    return json.dumps(state, ensure_ascii=True, separators=(",", ":"))


def who(record: Mapping[str, Any]) -> dict[str, Any]:
    """Who made a journal record's change: its origin, and the caller's token and session
    when the record names them (an approved proposal names the model that proposed it)."""
    by: dict[str, Any] = {"origin": str(record.get("origin") or "unknown")}
    caller = record.get("by")
    if isinstance(caller, Mapping):
        by.update({k: v for k, v in caller.items() if v not in (None, "") and k != "origin"})
    proposal = record.get("proposal")
    if isinstance(proposal, Mapping):
        by["proposal"] = proposal.get("id")
        proposed = {k: v for k, v in proposal.items() if k != "id" and v}
        if proposed:
            by["proposed_by"] = proposed
    return by


def shown_origin(origin: str) -> str:
    """A record's origin for people: silcrow's own names as they are, any other (a library
    caller chooses its own) quoted and escaped."""
    plain = not origin or (origin.isascii() and origin.replace("_", "").isalnum())
    return origin if plain else threats.display_safe(origin, quoted=True)


def label(by: Mapping[str, Any] | None) -> str:
    """``by`` for people: "cli", "model", 'rest (client "rest", token "agent" (id "1a2b"))', ...
    (every label a caller chose quoted and escaped, see :func:`who_text`)."""
    if not by:
        return "unknown (before silcrow kept metadata)"
    origin = str(by.get("origin", "unknown"))
    name = {"tool": "model", "disk": "outside silcrow", "api": "library", "approved": "approved proposal",
            "web": "inspector"}.get(origin) or shown_origin(origin)
    details = who_text({k: v for k, v in by.items() if k not in ("origin", "proposal", "proposed_by")})
    proposed = by.get("proposed_by")
    if isinstance(proposed, Mapping) and proposed:
        details = "; ".join(p for p in (details, "proposed by " + who_text(dict(proposed))) if p)
    return f"{name} ({details})" if details else name


def _item_id(record: Mapping[str, Any], before: list[str], after: list[str], text: str) -> str:
    """An archived item's id. A hand edit has no record id until the next write journals it
    (see :func:`reconcile`), so its items are named by the change itself: folding that
    record later finds them already archived."""
    if record.get("action") == "outside_edit" or not record.get("id"):
        key = "\0".join(["outside", *before, "\1", *after])
    else:
        key = str(record["id"])
    return hashlib.sha256(f"{key}\0{text}".encode("utf-8", "surrogateescape")).hexdigest()[:12]


def _pairs(removed: list[str], added: list[str], action: str) -> list[tuple[str, str]]:
    """Which removed entry became which added one: a replace of one entry says so; otherwise
    the most alike pairs above SAME_ENTRY."""
    if action == "replace" and len(removed) == 1 and len(added) == 1:
        return [(removed[0], added[0])]
    scored = sorted(
        ((difflib.SequenceMatcher(None, old, new, autojunk=False).ratio(), old, new)
         for old in removed for new in added),
        reverse=True,
    )
    pairs: list[tuple[str, str]] = []
    used_old: set[str] = set()
    used_new: set[str] = set()
    for score, old, new in scored:
        if score < SAME_ENTRY:
            break
        if old not in used_old and new not in used_new:
            used_old.add(old)
            used_new.add(new)
            pairs.append((old, new))
    return pairs


def _apply_change(state: dict[str, Any], target: str, before: list[str], after: list[str], *,
                  record: Mapping[str, Any], time: str, evicted: Iterable[str] = ()) -> None:
    action = str(record.get("action", ""))
    by = who(record)
    known: dict[str, Any] = state["entries"].setdefault(target, {})
    after_set, before_set = set(after), set(before)
    removed = [e for e in dict.fromkeys(before) if e not in after_set]
    added = [e for e in dict.fromkeys(after) if e not in before_set]
    evicted_set = set(evicted)
    pairs = _pairs([e for e in removed if e not in evicted_set], added, action)
    became = dict(pairs)
    dropped = {old: known.pop(old, None) or {} for old in removed}
    archive: list[dict[str, Any]] = state["archive"]
    have = {item["id"] for item in archive}
    for old in removed:
        item_id = _item_id(record, before, after, old)
        if item_id in have:
            continue
        why = "evicted" if old in evicted_set else _WHY.get(action, action)
        if action == "batch" and old not in became:  # a batch's remove step, not an edit
            why = "removed"
        item = {"id": item_id, "target": target, "text": old, "archived": time, "why": why, "by": dict(by),
                "added": dropped[old].get("added"), "added_by": dropped[old].get("added_by")}
        if old in became:
            item["replaced_by"] = became[old]
        archive.append(item)
    for old, new in pairs:
        # The edited entry keeps its history (when added, by whom, how used): it is one entry.
        history = {k: v for k, v in dropped[old].items() if k not in ("changed", "changed_by")}
        known[new] = {**history, **(known.get(new) or {}), "changed": time, "changed_by": dict(by)}
        known[new].setdefault("added", None)
        known[new].setdefault("added_by", None)
    paired_new = set(became.values())
    for new in added:
        # An entry that comes back (a restore, an undo, the same text added again) is no
        # longer archived, and keeps when and by whom it was first added.
        back = _came_back(archive, target, new, time)
        if new in paired_new:
            continue
        info = known.get(new)
        if info is None or info.get("added") is None:
            first = ({"added": back["added"], "added_by": back.get("added_by")}
                     if back is not None and back.get("added") else {"added": time, "added_by": dict(by)})
            # Usage counted before this record was folded stays; what is known of it does not.
            known[new] = {**(info or {}), **first, "changed": time, "changed_by": dict(by)}
            known[new].pop("first_seen", None)


def _came_back(archive: list[dict[str, Any]], target: str, text: str, time: str) -> dict[str, Any] | None:
    """The newest item of ``target`` holding ``text`` archived before ``time``, when it is live
    again, marked restored then (kept, so folding its record again does not archive it twice;
    folding again, an add older than the item leaves it archived)."""
    for item in reversed(archive):
        if (item.get("target") == target and item.get("text") == text
                and str(item.get("archived") or "") < time and item.get("restored") in (None, time)):
            item["restored"] = time
            return item
    return None


def fold(state: dict[str, Any], records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """``state`` brought up to date with journal ``records`` (all targets, oldest first): each
    target's records after its checkpoint, or all of them when the checkpoint is gone (the
    journal was compacted past it; folding again changes nothing already known)."""
    by_target: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        target = record.get("target")
        if isinstance(target, str) and isinstance(record.get("after"), list):
            by_target.setdefault(target, []).append(record)
    for target, chain in by_target.items():
        checkpoint = state["folded"].get(target)
        ids = [r.get("id") for r in chain]
        start = ids.index(checkpoint) + 1 if checkpoint in ids else 0
        for record in chain[start:]:
            before = record.get("before")
            before = list(before) if isinstance(before, list) else []
            _fold_one(state, target, before, list(record["after"]), record)
        if chain:
            state["folded"][target] = chain[-1].get("id")
    return state


def _fold_one(state: dict[str, Any], target: str, before: list[str], after: list[str],
              record: Mapping[str, Any]) -> None:
    evicted = record.get("evicted")
    _apply_change(state, target, before, after, record=record, time=str(record.get("time") or now()),
                  evicted=evicted if isinstance(evicted, list) else ())


def reconcile(state: dict[str, Any], target: str, live: list[str], journaled: list[str] | None, *,
              time: str | None = None) -> None:
    """Bring the ledger's entries of ``target`` in line with the ``live`` ones. ``journaled``
    is the text the journal says the notes hold (its newest record's ``after``; None when
    there is no journal): a difference is a hand edit the next write will journal, folded
    now as that ``outside_edit`` record will be (same archive ids, so nothing twice). Live
    entries the ledger never saw predate it: nothing is known of them but when first seen."""
    time = time or now()
    if journaled is not None and journaled != live:
        _fold_one(state, target, journaled, live, {"action": "outside_edit", "time": time, "origin": "disk"})
    known: dict[str, Any] = state["entries"].setdefault(target, {})
    live_set = set(live)
    for entry in [e for e in known if e not in live_set]:
        del known[entry]
    for entry in live:
        if entry not in known:
            known[entry] = {"added": None, "added_by": None, "changed": None, "changed_by": None,
                            "first_seen": time}


def note_prompt(state: dict[str, Any], target: str, entries: Iterable[str], session: str | None,
                time: str | None = None) -> None:
    """Count one session's system prompt for each of ``entries`` (the frozen snapshot): a
    session counted already is not counted again."""
    known: dict[str, Any] = state["entries"].setdefault(target, {})
    time = time or now()
    for entry in entries:
        info = known.setdefault(entry, {"added": None, "added_by": None, "changed": None,
                                        "changed_by": None, "first_seen": time})
        if session is not None and info.get("last_session") == session:
            continue
        info["prompt_sessions"] = int(info.get("prompt_sessions") or 0) + 1
        info["last_prompt"] = time
        if session is not None:
            info["last_session"] = session


def note_surfaced(state: dict[str, Any], target: str, entries: Iterable[str], how: str,
                  time: str | None = None) -> None:
    """Record that a tool or recall showed ``entries`` (``how``: "tool", "recall", ...)."""
    known: dict[str, Any] = state["entries"].setdefault(target, {})
    time = time or now()
    for entry in entries:
        if entry in known:
            known[entry]["last_surfaced"] = time
            known[entry]["surfaced_by"] = how


def bound(state: dict[str, Any], *, today: datetime | None = None) -> None:
    """Apply the archive's retention and size bounds (oldest items go first)."""
    cutoff = ((today or datetime.now(UTC)) - timedelta(days=ARCHIVE_RETENTION_DAYS)).isoformat()
    archive = [i for i in state["archive"] if str(i.get("archived") or "") >= cutoff[:19]]
    archive = archive[-ARCHIVE_MAX_ITEMS:]
    total = 0
    kept: list[dict[str, Any]] = []
    for item in reversed(archive):
        total += len(str(item.get("text", "")))
        if total > ARCHIVE_MAX_BYTES and kept:
            break
        kept.append(item)
    kept.reverse()
    state["archive"] = kept


def entry_details(state: Mapping[str, Any], target: str, live: list[str]) -> list[dict[str, Any]]:
    """Each live entry of ``target`` with what the ledger knows of it, in file order."""
    known: Mapping[str, Any] = state.get("entries", {}).get(target, {})
    out = []
    for number, entry in enumerate(live, start=1):
        info = known.get(entry) or {}
        out.append({
            "number": number,
            "text": entry,
            "added": info.get("added"),
            "added_by": info.get("added_by"),
            "changed": info.get("changed"),
            "changed_by": info.get("changed_by"),
            "first_seen": info.get("first_seen"),
            "prompt_sessions": int(info.get("prompt_sessions") or 0),
            "last_prompt": info.get("last_prompt"),
            "last_surfaced": info.get("last_surfaced"),
            "surfaced_by": info.get("surfaced_by"),
        })
    return out


def search_archive(state: Mapping[str, Any], query: str | None = None,
                   target: str | None = None) -> list[dict[str, Any]]:
    """Archived items, newest first, whose text holds every word of ``query`` (any case)."""
    words = [w.casefold() for w in (query or "").split()]
    found = []
    for item in reversed(state.get("archive", [])):
        if (target is not None and item.get("target") != target) or item.get("restored"):
            continue
        text = str(item.get("text", "")).casefold()
        if all(w in text for w in words):
            found.append(dict(item))
    return found


def eviction_order(state: Mapping[str, Any], target: str, live: list[str]) -> list[str]:
    """The live entries of ``target`` in the order they would be evicted: least used first
    (fewest sessions' prompts, least recently surfaced), then oldest."""
    known: Mapping[str, Any] = state.get("entries", {}).get(target, {})

    def key(item: tuple[int, str]) -> tuple[int, str, str, int]:
        index, entry = item
        info = known.get(entry) or {}
        return (int(info.get("prompt_sessions") or 0), str(info.get("last_surfaced") or ""),
                str(info.get("changed") or info.get("added") or ""), index)

    return [entry for _, entry in sorted(enumerate(live), key=key)]
