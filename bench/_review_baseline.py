"""The review rules as they were before pairs were judged older against newer: the baseline of
bench/review.py, measured in the same run (kept verbatim; not part of the product).

`silcrow memory review`: find what makes the notes rot, and propose fixes a person approves.

Four findings, each with the reason a reviewer reads:

* **near-duplicates**: two entries of one file that say the same thing, by meaning (cosine
  of their embeddings) or by wording (difflib ratio); proposed as a *merge*: the older entry
  is replaced by the merged wording and the newer removed, one batch;
* **contained**: an entry whose whole text is inside another's; proposed as a *remove*;
* **contradicted**: two entries about the same subject and the same kind of fact with
  another value ("lives in Lisbon" / "moved to Porto"); the older is proposed for removal
  (it goes to the archive, nothing is lost);
* **unused**: an entry no tool or recall has surfaced, and nobody changed, for
  ``unused_days``; proposed for removal.

The pass never writes the notes: each finding becomes a pending proposal of the
write-approval gate (:mod:`silcrow.store._pending`), whatever the write policy, so it is
applied only when approved, through the normal write path. Findings already pending are
not proposed twice.

The merged wording comes from ``merge`` when one is given (a model: see
:func:`silcrow.store.review_merge_with_model`), else by rule: the longer entry, which holds
the most.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy is imported where it is used: `memory show` must not pay for it
    import numpy as np

# Cosine of two bge/MiniLM embeddings above which two short notes say the same thing; the
# wording ratio for a near copy with another word or two.
SAME_MEANING = 0.92
SAME_WORDING = 0.85
UNUSED_DAYS = 180

Embed = Callable[[Sequence[str]], "np.ndarray"]
Merge = Callable[[str, str], str | None]

# One kind of fact each: the words before the cue are its subject, the words after its value.
_SLOTS: dict[str, re.Pattern[str]] = {
    "where they live": re.compile(
        r"^(?P<subject>.*?)\b(?:lives?|living|resides?|is based|based|moved|relocated|has moved|now lives?)"
        r"\b(?:\s+\w+){0,2}?\s+(?:in|to)\s+(?P<value>[^.,;]+)", re.IGNORECASE),
    "where they work": re.compile(
        r"^(?P<subject>.*?)\b(?:works?|working|is employed|employed|started|joined)\b(?:\s+\w+){0,2}?\s+"
        r"(?:at|for|with)\s+(?P<value>[^.,;]+)", re.IGNORECASE),
    "their job": re.compile(
        r"^(?P<subject>.*?)\b(?:works? as|job is|is employed as|role is)\s+(?:an?\s+)?(?P<value>[^.,;]+)",
        re.IGNORECASE),
    "their name": re.compile(
        r"^(?P<subject>.*?)\b(?:name is|goes by|prefers to be called|wants to be called)\s+"
        r"(?P<value>[^.,;]+)",
        re.IGNORECASE),
    "their time zone": re.compile(
        r"^(?P<subject>.*?)\b(?:time ?zone is|is in the time ?zone|timezone:)\s+(?P<value>[^.,;]+)",
        re.IGNORECASE),
    "their age": re.compile(r"^(?P<subject>.*?)\bis (?P<value>\d{1,3}) years? old", re.IGNORECASE),
    "their pronouns": re.compile(r"^(?P<subject>.*?)\bpronouns are\s+(?P<value>[^.,;]+)", re.IGNORECASE),
}
# Subjects that all mean the user in USER.md (and "the agent's user" in MEMORY.md).
# Words that turn a statement around: an entry that adds one to another says the opposite, so
# it is neither a duplicate of it nor contains it ("deploy on Fridays" / "never deploy on
# Fridays"). "t" is what _norm leaves of n't.
_NEGATIONS = frozenset("not no never nor neither without cannot t longer stopped stop avoid avoids "
                       "except instead".split())


def _negation_differs(a: str, b: str) -> bool:
    """Whether one of two normalised entries holds a negating word the other does not."""
    return bool(_NEGATIONS & (set(a.split()) ^ set(b.split())))


_USER_WORDS = {"", "user", "the user", "i", "me", "my", "user's", "the user's", "they", "he", "she"}
_FILLER = re.compile(r"\b(?:now|currently|recently|also|has|have|just|since \w+)\b", re.IGNORECASE)


@dataclass
class Finding:
    kind: str  # duplicate | contained | contradicted | unused
    target: str
    reason: str
    remove: list[str] = field(default_factory=list)
    replace: tuple[str, str] | None = None  # (old entry, merged text)

    def operations(self) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        if self.replace is not None:
            ops.append({"action": "replace", "old_text": self.replace[0], "content": self.replace[1]})
        ops.extend({"action": "remove", "old_text": entry} for entry in self.remove)
        return ops

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "target": self.target, "reason": self.reason,
                               "remove": list(self.remove)}
        if self.replace is not None:
            out["replace"] = {"old_text": self.replace[0], "content": self.replace[1]}
        return out


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def _slot(entry: str) -> tuple[str, str, str] | None:
    """(kind of fact, subject, value) of an entry that states one, else None."""
    first = re.split(r"(?<=[.;])\s", entry.strip(), maxsplit=1)[0]
    for kind, pattern in _SLOTS.items():
        found = pattern.search(first)
        if found:
            subject = _norm(_FILLER.sub(" ", found.group("subject")))
            subject = "user" if subject in _USER_WORDS else subject
            return kind, subject, _norm(found.group("value"))
    return None


def _newer(a: int, b: int, when: Sequence[str]) -> tuple[int, int]:
    """(older, newer) of entries ``a`` and ``b``: by when they were last written, else by file
    order (an append goes last)."""
    if when[a] and when[b] and when[a] != when[b]:
        return (a, b) if when[a] < when[b] else (b, a)
    return (a, b) if a < b else (b, a)


def _short(entry: str, width: int = 70) -> str:
    one_line = " ".join(entry.split())
    return one_line if len(one_line) <= width else one_line[: width - 1] + "…"


def find(target: str, entries: Sequence[str], *, details: Sequence[dict[str, Any]] = (),
         embed: Embed | None = None, merge: Merge | None = None, unused_days: int = UNUSED_DAYS,
         today: datetime | None = None) -> list[Finding]:
    """What :func:`review` would propose for one file's ``entries`` (``details``: their
    ledger metadata, same order)."""
    entries = list(entries)
    info = list(details) if len(details) == len(entries) else [{} for _ in entries]
    when = [str(d.get("changed") or d.get("added") or d.get("first_seen") or "") for d in info]
    findings: list[Finding] = []
    gone: set[int] = set()
    norms = [_norm(e) for e in entries]

    # Contained: the whole of one entry inside another (by words, any case).
    for i, small in enumerate(norms):
        for j, big in enumerate(norms):
            if i != j and j not in gone and i not in gone and small and len(small) < len(big) and (
                    f" {small} " in f" {big} ") and not _negation_differs(small, big):
                findings.append(Finding("contained", target, (
                    f"{_short(entries[i])!r} says nothing that {_short(entries[j])!r} does not already say"),
                    remove=[entries[i]]))
                gone.add(i)

    # Near-duplicates by meaning or wording.

    vectors = embed(entries) if embed is not None and len(entries) > 1 else None
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            if i in gone or j in gone:
                continue
            wording = difflib.SequenceMatcher(None, norms[i], norms[j], autojunk=False).ratio()
            meaning = float(vectors[i] @ vectors[j]) if vectors is not None else 0.0
            if (wording < SAME_WORDING and meaning < SAME_MEANING) or _negation_differs(norms[i], norms[j]):
                continue
            older, newer = _newer(i, j, when)
            merged = merge(entries[older], entries[newer]) if merge is not None else None
            if not merged or not merged.strip():
                merged = max(entries[older], entries[newer], key=len)
            how = (f"the same meaning (similarity {meaning:.2f})" if meaning >= SAME_MEANING
                   else f"nearly the same words ({wording:.0%} alike)")
            reason = (f"{_short(entries[older])!r} and {_short(entries[newer])!r} say {how}: "
                      "merge them into one")
            if merged == entries[older]:
                findings.append(Finding("duplicate", target, reason, remove=[entries[newer]]))
            elif merged == entries[newer]:
                findings.append(Finding("duplicate", target, reason, remove=[entries[older]]))
            else:
                findings.append(Finding("duplicate", target, reason, remove=[entries[newer]],
                                        replace=(entries[older], merged.strip())))
            gone.update((i, j))

    # Contradicted: same subject, same kind of fact, another value; the newer one stands.
    slots = [_slot(e) for e in entries]
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            a, b = slots[i], slots[j]
            if i in gone or j in gone or a is None or b is None:
                continue
            if a[0] == b[0] and a[1] == b[1] and a[2] != b[2] and a[2] not in b[2] and b[2] not in a[2]:
                older, newer = _newer(i, j, when)
                findings.append(Finding("contradicted", target, (
                    f"{_short(entries[older])!r} is contradicted by the newer {_short(entries[newer])!r} "
                    f"({a[0]}: {slots[older][2]!r} vs {slots[newer][2]!r}): archive the older one"),  # type: ignore[index]
                    remove=[entries[older]]))
                gone.add(older)

    # Unused: nothing surfaced or changed it for a long time.
    cutoff = ((today or datetime.now(UTC)) - timedelta(days=unused_days)).isoformat()[:19]
    for i, entry in enumerate(entries):
        if i in gone:
            continue
        last_used = max(str(info[i].get("last_surfaced") or ""), when[i])
        if last_used and last_used[:19] < cutoff:
            findings.append(Finding("unused", target, (
                f"{_short(entry)!r} was last written or surfaced {last_used[:10]}, over {unused_days} days "
                "ago: archive it if it no longer matters"), remove=[entry]))
    return findings
