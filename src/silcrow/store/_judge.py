"""Judge two entries of one file: does the newer *update* the older, say the *same* thing, or
is it *independent* of it?

The review pass (:mod:`silcrow.store._review`) asks this for every pair of entries. The
judgement is offline and explainable: rules over the words of the pair, with the cosine of
their embeddings (the configured embedder, bge-small by default) deciding whether two entries
are about the same thing at all. It works without an embedder too, by wording alone.

* **update** (a contradiction the newer resolves): the pair is about one subject and the
  newer changes its value: a cue of change ("now", "switched", "moved to", "renamed", "got
  married", "just turned", "no longer"...) with a value the older does not hold; or both
  say the same sentence with one value swapped after an "is" or ":" or in a number
  ("Preferred answer language: French" / "...: German"); or a statement and its negation.
* **same**: the same fact in other words: close by meaning or wording, with no value
  (number, name, path, host...) that one holds and the other lacks, and no cue of change.
* **independent**: anything else. Two facts on one topic that can both be true ("allergic to
  peanuts" / "allergic to cats", "has a dog named Rex" / "has a cat named Luna") are
  independent: they differ in more than one place, or in a place that adds rather than
  replaces.

What a judgement may lead to is the review's concern: an update archives the *older* entry
only, and a merge keeps the wording that holds every value of both, so a wrong judgement can
never lose the newer fact.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

UPDATE = "update"
SAME = "same"
INDEPENDENT = "independent"

# Cosines (bge-small, normalised) measured on bench/data/review_pairs.jsonl: two notes on one
# subject score above RELATED; a paraphrase of one fact above SAME_MEANING; unrelated notes of
# one person rarely pass 0.75.
RELATED = 0.62
CLOSE = 0.75
SAME_MEANING = 0.82
SAME_WORDING = 0.85

# Words that say the newer entry replaces what was true before.
_CUES = re.compile(
    r"\b(?:now|no longer|anymore|any more|switched|switch(?:ed)? to|moved|moving|relocated|renamed|"
    r"changed|change[ds]? to|instead|new|newly|just|recently|since|became|become|turned|got|"
    r"quit|stopped|gave up|left|sold|started|joined|graduated|upgraded|downgraded|raised|lowered|"
    r"scaled|rewritten|rewrote|replaced|adopted|broke up|divorced|married|engaged|retired|"
    r"promoted|cancelled|canceled|dropped|down to|up to|again|these days|from now on|was raised|"
    r"went|is down|is up|reorg)\b",
    re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|never|none|nor|neither|without|cannot|can't|won't|doesn't|don't|"
                       r"isn't|aren't|didn't|dislikes?|avoids?|stopped|quit|gave up|no longer)\b|n't\b",
                       re.IGNORECASE)
_STOP = frozenset("""a an the and or of to in on at for with by from as is are was were be been being
has have had do does did it its this that these those there their they them he him his she her
user user's users i me my we our us you your at about into over than then so also just very
really which who whom what when where while will would should can could may might must s t
""".split())
_NUMBER_WORDS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                 "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
                 "twelve": "12", "once": "1", "twice": "2"}
# A slot whose value one replaced span can change: after a copula or a colon, or a number.
_COPULA = frozenset("is are was were : = called named in as".split())
# Words that only place a statement in time: left out when two wordings are compared.
_TIME_WORDS = frozenset("now currently just recently again anymore these days from on".split())
# A cue that, on its own, says the older value ended (not merely that something is new).
_ENDING = re.compile(r"\b(?:switched|moved|relocated|renamed|no longer|quit|stopped|gave up|sold|left|"
                     r"cancell?ed|broke up|divorced|retired|replaced|dropped|rewritten|instead)\b",
                     re.IGNORECASE)
# States of which a person is in one at a time: a newer one ends the older.
_EXCLUSIVE = (frozenset("single married engaged divorced widowed dating girlfriend boyfriend".split()),
              frozenset("unemployed employed student retired job".split()),
              frozenset("vegetarian vegan meat".split()))
_GENERIC = frozenset("prefer like love use work want need run write".split())
_TOKEN = re.compile(r"[\w@#~./+-]+(?::[\w/][\w@#~./+:-]*)*|:")


@dataclass(frozen=True)
class Judgement:
    verdict: str  # update | same | independent
    why: str


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@functools.lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """Words of ``text``, lower case, trailing punctuation cut, number words as digits."""
    out: list[str] = []
    for raw in _TOKEN.findall(text):
        word = raw if raw == ":" else raw.strip(".:,;-").casefold()
        if word.endswith("'s"):
            word = word[:-2]
        if word:
            out.append(_NUMBER_WORDS.get(word, word))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def content(text: str) -> frozenset[str]:
    """The content words of ``text``, stemmed: what a fact is made of."""
    return frozenset(_stem(w) for w in tokens(text) if w not in _STOP and w not in _TIME_WORDS and w != ":")


@functools.lru_cache(maxsize=4096)
def values(text: str) -> frozenset[str]:
    """The values ``text`` states: numbers, names (capitalised past the first word), and
    identifiers (paths, hosts, handles, versions)."""
    found: set[str] = set()
    words = _TOKEN.findall(text)
    for index, raw in enumerate(words):
        word = raw.strip(".:,;-")
        if not word:
            continue
        low = word.casefold()
        if low in _NUMBER_WORDS:
            found.add(_NUMBER_WORDS[low])
        elif any(ch.isdigit() for ch in word) or any(ch in word for ch in "/@#~_") or (
                "." in word and not word.endswith(".")):
            found.add(low)
        elif index and word[:1].isupper() and low not in ("user", "i"):
            found.add(low)
    return frozenset(found)


def _kind(value: str) -> str:
    return "number" if value[:1].isdigit() else "name" if value.isalpha() else "identifier"


def _before(text: str, wanted: AbstractSet[str]) -> set[tuple[str, str]]:
    """(kind of value, the word before it) for each of ``wanted`` in ``text``: where a value
    sits in its sentence ("at Acme" / "at Globex")."""
    words = tokens(text)
    return {(_kind(v), words[i - 1] if i else "") for v in wanted for i, w in enumerate(words)
            if w == v or _stem(w) == v}


def negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def _frame_swap(older: str, newer: str) -> str | None:
    """The one value swapped between two otherwise equal sentences ("X is A" / "X is B"),
    when it sits in a slot that holds one value (after "is", ":", "called"...) or is a
    number; "" when the swapped words end both sentences elsewhere (the same verb with
    another object); None otherwise."""
    a = [w for w in tokens(older) if w not in _TIME_WORDS]
    b = [w for w in tokens(newer) if w not in _TIME_WORDS]
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    shared = len(a) - (i2 - i1)
    if shared < 2 or shared < (i2 - i1) or i2 - i1 > 3 or j2 - j1 > 4:
        return None
    before = a[i1 - 1] if i1 else ""
    old_part, new_part = a[i1:i2], b[j1:j2]
    # A count changed: the number differs and what is counted does not ("2 kids" / "3 kids").
    numbers = (any(w[:1].isdigit() for w in old_part) and any(w[:1].isdigit() for w in new_part)
               and {_stem(w) for w in old_part if not w[:1].isdigit()}
               == {_stem(w) for w in new_part if not w[:1].isdigit()})
    if before in _COPULA or numbers:
        return f"{' '.join(old_part)!r} became {' '.join(new_part)!r}"
    if i2 == len(a) and j2 == len(b):
        return ""  # another object of the same verb: both can be true ("allergic to peanuts / cats")
    return None


def _unmatched(mine: AbstractSet[str], theirs: AbstractSet[str]) -> set[str]:
    """Values of ``mine`` that ``theirs`` does not state, a shortened name counting as the
    same ("Postgres" / "PostgreSQL")."""
    return {v for v in mine - theirs
            if not any(len(o) >= 4 and len(v) >= 4 and (v.startswith(o) or o.startswith(v)) for o in theirs)}


def _without_negation(text: str) -> str:
    return " ".join(w for w in tokens(_NEGATION.sub(" ", text)) if w not in _STOP and w not in _TIME_WORDS)


def judge(older: str, newer: str, cosine: float | None = None) -> Judgement:
    """How ``newer`` relates to ``older`` (see the module doc); ``cosine``: of their
    embeddings, None without an embedder."""
    words_a, words_b = content(older), content(newer)
    shared = words_a & words_b
    # Without an embedder, content words in common (beyond the verbs every preference
    # shares; a third of the shorter's at least) are what say two entries are about one thing.
    meaning = cosine if cosine is not None else RELATED if shared - _GENERIC and len(shared) >= 0.3 * min(
        len(words_a), len(words_b)) else 0.0
    overlap = len(shared) / max(1, min(len(words_a), len(words_b)))
    # Most pairs of a file are about different things: the cosine (or, without an embedder,
    # a bound of the wording's likeness) decides those before the wording is compared.
    if meaning < RELATED and overlap < 0.5 and (cosine is not None or difflib.SequenceMatcher(
            None, " ".join(tokens(older)), " ".join(tokens(newer)), autojunk=False).quick_ratio() < 0.6):
        return Judgement(INDEPENDENT, "about different things")
    wording = difflib.SequenceMatcher(None, " ".join(tokens(older)), " ".join(tokens(newer)),
                                      autojunk=False).ratio()
    if not (meaning >= RELATED or overlap >= 0.5 or wording >= 0.6):
        return Judgement(INDEPENDENT, "about different things")
    vals_a, vals_b = values(older), values(newer)
    gained, lost = _unmatched(vals_b, vals_a), _unmatched(vals_a, vals_b)
    only_a, only_b = words_a - words_b, words_b - words_a
    # One subject: a content word in common beyond the verbs every preference shares, or
    # close in meaning.
    subject = bool(shared - _GENERIC) or meaning >= CLOSE

    swap = _frame_swap(older, newer)
    if swap:
        return Judgement(UPDATE, swap)
    if swap == "" and not _CUES.search(newer):
        return Judgement(INDEPENDENT, "the same kind of fact about another thing")
    if negated(older) != negated(newer):
        plain = difflib.SequenceMatcher(None, _without_negation(older), _without_negation(newer),
                                        autojunk=False).ratio()
        if plain >= 0.8:
            return Judgement(UPDATE, "the newer says the opposite")
        ending = _ENDING.search(newer)
        if ending and negated(newer) and subject and meaning >= RELATED:
            return Judgement(UPDATE, f"the newer says {ending.group(0)!r}")
        return Judgement(INDEPENDENT, "one says not")
    for states in _EXCLUSIVE:
        stems = {_stem(w) for w in states}
        was, now = words_a & stems, words_b & stems
        if was and now and was != now and meaning >= RELATED:
            return Judgement(UPDATE, f"{'/'.join(sorted(was))} became {'/'.join(sorted(now))}")
    cue = _CUES.search(newer)
    if cue is not None and (gained or only_b):
        ending = _ENDING.search(newer)
        # Without a subject in common, a value replaced in the same place of the sentence
        # ("at Acme" -> "at Globex") still says the same thing changed.
        replaced = bool(gained and lost and meaning >= RELATED
                        and _before(older, lost) & _before(newer, gained))
        moved = bool(ending and gained and lost and meaning >= 0.7
                     and {_kind(v) for v in gained} & {_kind(v) for v in lost})
        if (lost or only_a or ending) and (subject and meaning >= RELATED or replaced or moved):
            said = (ending or cue).group(0)
            return Judgement(UPDATE, f"the newer says {said!r}"
                             + (f" with {', '.join(sorted(gained))}" if gained else ""))
    if gained and lost:
        return Judgement(INDEPENDENT, "each holds a value the other lacks")
    if len(only_a) >= 2 and len(only_b) >= 2 and meaning < 0.9 and wording < SAME_WORDING:
        return Judgement(INDEPENDENT, "related, each says something the other does not")
    if (meaning >= SAME_MEANING and (overlap >= 0.5 or meaning >= 0.9)) or wording >= SAME_WORDING:
        how = (f"the same meaning (similarity {meaning:.2f})" if meaning >= SAME_MEANING
               else f"nearly the same words ({wording:.0%} alike)")
        return Judgement(SAME, how)
    return Judgement(INDEPENDENT, "related, not the same fact")


def holds_all(text: str, others: Sequence[str]) -> bool:
    """Whether ``text`` states every value of ``others`` (a merged wording must)."""
    mine = values(text) | content(text)
    return all(not _unmatched(values(other), mine) for other in others)

