"""`silcrow memory review`: find what makes the notes rot, and propose fixes a person approves.

Every pair of entries of one file is judged older against newer (:mod:`silcrow.store._judge`:
the newer *updates* the older, says the *same* thing, or is *independent*), by when each was
last written (the ledger), else by file order (an append goes last). Four findings, each
with the reason a reviewer reads:

* **contradicted**: the newer updates the older ("lives in Lisbon" / "moved to Porto",
  "Preferred answer language: French" / "...: German", "is single" / "got married"); the
  *older* is proposed for archival, never the newer (nothing is lost: it goes to the archive);
* **near-duplicates**: the same fact in other words; proposed as a *merge*: the older entry
  takes the merged wording and the newer is removed, one batch. The merged wording holds
  every value of both (numbers, names, identifiers): a model's when one is given and its
  answer does, else the fuller of the two that does; a pair neither wording covers is not
  merged;
* **contained**: an entry whose whole text is inside another's; proposed as a *remove*;
* **unused**: an entry no tool or recall has surfaced, and nobody changed, for
  ``unused_days``; proposed for removal.

The pass never writes the notes: each finding becomes a pending proposal of the
write-approval gate (:mod:`silcrow.store._pending`), whatever the write policy, so it is
applied only when approved, through the normal write path. A finding already pending is
not proposed twice, and a finding the user rejected is not proposed again while its
entries stay as they were (:func:`finding_key`; the decisions are kept in the ledger).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from silcrow.store import _judge

if TYPE_CHECKING:  # numpy is imported where it is used: `memory show` must not pay for it
    import numpy as np

UNUSED_DAYS = 180

Embed = Callable[[Sequence[str]], "np.ndarray"]
Merge = Callable[[str, str], str | None]
Decide = Callable[[str, str], str | None]
#: Pairs of one file a model is asked to judge at most, per review.
MAX_MODEL_PAIRS = 40

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
    about: list[str] = field(default_factory=list)  # the entries it judges (its key)

    @property
    def key(self) -> str:
        return finding_key(self.kind, self.target, self.about or self.remove)

    def operations(self) -> list[dict[str, Any]]:
        # The removal first: a merge that takes the newer's wording must not meet it twice.
        ops: list[dict[str, Any]] = [{"action": "remove", "old_text": entry} for entry in self.remove]
        if self.replace is not None:
            ops.append({"action": "replace", "old_text": self.replace[0], "content": self.replace[1]})
        return ops

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "target": self.target, "reason": self.reason,
                               "remove": list(self.remove)}
        if self.replace is not None:
            out["replace"] = {"old_text": self.replace[0], "content": self.replace[1]}
        return out


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


@functools.lru_cache(maxsize=4096)
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


def finding_key(kind: str, target: str, entries: Sequence[str]) -> str:
    """What a finding is about, as a stable key: its kind, file and the exact texts of its
    entries. A rejected finding is remembered by it, and proposed again only once one of its
    entries changes (another text, another key)."""
    blob = "\x1f".join([kind, target, *sorted(entries)])
    return hashlib.sha256(blob.encode("utf-8", "surrogateescape")).hexdigest()[:32]


#: Rejected findings remembered at most (the oldest decisions go first).
MAX_DECLINED = 1000


def note_declined(state: dict[str, Any], proposal: Any) -> None:
    """Remember in the ledger ``state`` that the user rejected the finding ``proposal`` stands
    for, so it is not proposed again while its entries stay as they are."""
    declined = state.get("declined")
    if not isinstance(declined, dict):
        declined = state["declined"] = {}
    declined.pop(proposal.finding, None)  # re-inserted last: the newest decisions are kept
    declined[proposal.finding] = {"rejected": proposal.decided, "reason": proposal.reason,
                                  "target": proposal.target, "why": _short(str(proposal.why or ""), 200)}
    for key in list(declined)[: max(0, len(declined) - MAX_DECLINED)]:
        del declined[key]


def declined(state: dict[str, Any], decided: Sequence[Any] = ()) -> dict[str, dict[str, Any]]:
    """The rejected findings by key: those the ledger ``state`` remembers, and the rejected
    proposals still among the ``decided`` ones (a decision whose note in the ledger failed)."""
    found: dict[str, dict[str, Any]] = {}
    for proposal in decided:
        if getattr(proposal, "status", None) == "rejected" and getattr(proposal, "finding", None):
            found[proposal.finding] = {"rejected": proposal.decided, "reason": proposal.reason,
                                       "target": proposal.target}
    kept = state.get("declined")
    if isinstance(kept, dict):
        found.update({k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, dict)})
    return found


def _merged(older: str, newer: str, merge: Merge | None) -> str | None:
    """The wording a merged entry takes: the model's when it holds every value of both, else
    the one of the two that does (the fuller; the newer on a tie); None when neither does."""
    if merge is not None:
        worded = merge(older, newer)
        if worded and worded.strip() and _judge.holds_all(worded.strip(), [older, newer]):
            return worded.strip()
    fits = [text for text in (newer, older) if _judge.holds_all(text, [older, newer])]
    if not fits:
        return None
    return max(fits, key=lambda text: len(_judge.content(text)))


def find(target: str, entries: Sequence[str], *, details: Sequence[dict[str, Any]] = (),
         embed: Embed | None = None, merge: Merge | None = None, unused_days: int = UNUSED_DAYS,
         today: datetime | None = None, decide: Decide | None = None) -> list[Finding]:
    """What :func:`review` would propose for one file's ``entries`` (``details``: their
    ledger metadata, same order).

    ``decide(older, newer)``: a model's judgement of a pair ("update", "same" or
    "independent"; None when it has none), asked instead of the rules for the pairs close
    in meaning or that the rules do not call independent, at most :data:`MAX_MODEL_PAIRS` per
    file. Its answer is held to what the rules' is: an update archives only the older, a
    merge needs a wording that states every value of both."""
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
                    remove=[entries[i]], about=[entries[i], entries[j]]))
                gone.add(i)

    # Every other pair, judged older against newer: an update archives the older; the same
    # fact twice is merged into the older's place, in a wording that holds every value of both.
    vectors = embed(entries) if embed is not None and len(entries) > 1 else None
    judged: list[tuple[int, int, _judge.Judgement]] = []
    ask: list[tuple[float, int, int]] = []
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            if i in gone or j in gone:
                continue
            older, newer = _newer(i, j, when)
            cosine = float(vectors[older] @ vectors[newer]) if vectors is not None else None
            verdict = _judge.judge(entries[older], entries[newer], cosine)
            if verdict.verdict == _judge.INDEPENDENT:
                verdict = _slot_update(entries[older], entries[newer]) or verdict
            flagged = verdict.verdict != _judge.INDEPENDENT
            if decide is not None and (flagged or (cosine or 0.0) >= _judge.RELATED):
                # The model is asked about the pairs the rules flag and those close in meaning,
                # closest first (see below).
                ask.append((1.0 if flagged else cosine or 0.0, older, newer))
            if verdict.verdict != _judge.INDEPENDENT:
                judged.append((older, newer, verdict))
    if decide is not None and ask:
        models: dict[tuple[int, int], _judge.Judgement] = {}
        for _, older, newer in sorted(ask, reverse=True)[:MAX_MODEL_PAIRS]:
            answer = decide(entries[older], entries[newer])
            if answer in (_judge.UPDATE, _judge.SAME, _judge.INDEPENDENT):
                why = ("the same fact (the model judged so)" if answer == _judge.SAME
                       else "the model judged so")
                models[(older, newer)] = _judge.Judgement(answer, why)
        judged = [(o, n, v) for o, n, v in judged if (o, n) not in models]
        judged += [(o, n, v) for (o, n), v in models.items() if v.verdict != _judge.INDEPENDENT]
    for older, newer, verdict in sorted(judged, key=lambda item: item[2].verdict != _judge.UPDATE):
        if older in gone or newer in gone:
            continue
        pair = [entries[older], entries[newer]]
        if verdict.verdict == _judge.UPDATE:
            findings.append(Finding("contradicted", target, (
                f"{_short(entries[older])!r} is contradicted by the newer {_short(entries[newer])!r} "
                f"({verdict.why}): archive the older one"), remove=[entries[older]], about=pair))
            gone.add(older)
            continue
        merged = _merged(entries[older], entries[newer], merge)
        if merged is None:
            continue
        reason = (f"{_short(entries[older])!r} and {_short(entries[newer])!r} say {verdict.why}: "
                  "merge them into one")
        if merged == entries[older]:
            findings.append(Finding("duplicate", target, reason, remove=[entries[newer]], about=pair))
        else:
            findings.append(Finding("duplicate", target, reason, remove=[entries[newer]],
                                    replace=(entries[older], merged), about=pair))
        gone.update((older, newer))

    # Unused: nothing surfaced or changed it for a long time.
    cutoff = ((today or datetime.now(UTC)) - timedelta(days=unused_days)).isoformat()[:19]
    for i, entry in enumerate(entries):
        if i in gone:
            continue
        last_used = max(str(info[i].get("last_surfaced") or ""), when[i])
        if last_used and last_used[:19] < cutoff:
            findings.append(Finding("unused", target, (
                f"{_short(entry)!r} was last written or surfaced {last_used[:10]}, over {unused_days} days "
                "ago: archive it if it no longer matters"), remove=[entry], about=[entry]))
    return findings


def _slot_update(older: str, newer: str) -> _judge.Judgement | None:
    """The rule of one kind of fact: same subject, same kind of fact, another value."""
    a, b = _slot(older), _slot(newer)
    if a is None or b is None or a[0] != b[0] or a[1] != b[1] or a[2] == b[2] or a[2] in b[2] or b[2] in a[2]:
        return None
    return _judge.Judgement(_judge.UPDATE, f"{a[0]}: {a[2]!r} vs {b[2]!r}")


def supersedes(older: str, newer: str, cosine: float | None = None) -> str | None:
    """Why ``newer`` updates ``older`` (a contradiction the newer resolves), else None: the
    review's judgement of a pair, for whatever else must tell an earlier statement from a
    later one (recall ranks the newer first and shows the older as of its date)."""
    found = _judge.judge(older, newer, cosine)
    if found.verdict == _judge.INDEPENDENT:
        found = _slot_update(older, newer) or found
    return found.why if found.verdict == _judge.UPDATE else None
