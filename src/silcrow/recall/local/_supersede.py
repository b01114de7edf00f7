"""Recalled facts that a later one updates: the later ranks first, the earlier is shown as of
its date.

"User lives in Lisbon" and, later, "User moved to Porto in June" are both true of their
time; a model reading them side by side should know which holds now. The judgement is the
curated notes' review's (:func:`silcrow.store.supersedes`: offline rules over the words),
applied at search time to the short facts among the hits (conversation turns are left as
they are: they are a timeline already, each with its date). A search passes no ``embed``:
embedding the facts of every search would cost it tens of milliseconds, and the rules
alone catch most updates (bench/review.py measures both).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from silcrow.recall._records import RecallHit
from silcrow.store import supersedes

Embed = Callable[[Sequence[str]], Any]

#: Facts longer than this are not judged: the rules are made for one-statement notes.
MAX_FACT_CHARS = 300


def _when(hit: RecallHit) -> tuple[float, int]:
    return (hit.timestamp.timestamp() if isinstance(hit.timestamp, datetime) else 0.0, hit.id)


def supersede(hits: Sequence[RecallHit],
              embed: Embed | None = None) -> tuple[list[RecallHit], dict[int, str]]:
    """``hits`` with each fact that a later fact among them updates ranked after that later
    one, and the ids of the updated facts with the date they held as of ("" when undated).
    ``embed`` (normalised vectors) tells whether two facts are about one thing by meaning."""
    out = list(hits)
    facts = sorted((h for h in out if h.kind == "fact" and len(h.text) <= MAX_FACT_CHARS), key=_when)
    earlier: dict[int, str] = {}
    if len(facts) < 2:
        return out, earlier
    vectors = embed([f.text for f in facts]) if embed is not None else None
    for index, older in enumerate(facts):
        for at_newer in range(index + 1, len(facts)):
            newer = facts[at_newer]
            cosine = float(vectors[index] @ vectors[at_newer]) if vectors is not None else None
            if supersedes(older.text, newer.text, cosine) is None:
                continue
            earlier[older.id] = older.timestamp.strftime("%Y-%m-%d") if older.timestamp else ""
            at, later = out.index(older), out.index(newer)
            if later > at:
                out.insert(at, out.pop(later))
            break
    return out, earlier
