"""English words, for the decoding stage to tell a decoded text that reads as prose from noise.

The list (``data/english_words.txt``, about 21,700 words, most frequent first) is the whole-word
part of bge-small's WordPiece vocabulary; ``scripts/build_english_words.py`` rebuilds it and
names its source. It is read on first use: a note with nothing that looks encoded never loads it.
"""

from __future__ import annotations

import math
import re
from functools import cache

#: Letters of a word as the decoders count them (two or more: "a" and "I" prove nothing).
WORD = re.compile(r"[A-Za-z]{2,}")
#: A decoded text is prose when at least this many distinct words of three or more letters
#: of it are English words the text it came from does not show ...
MIN_PROSE_WORDS = 3
#: ... at least this share of its words are English words ...
MIN_KNOWN_SHARE = 0.6
#: ... at least this share of its characters are letters, digits or spaces (a JSON object or a
#: ``key=value`` list of English words is not prose: quotes, braces and signs dilute it) ...
MIN_LETTER_SHARE = 0.8
#: ... and it has this many English words in a row, apart by spaces (a sentence; a path or an
#: identifier has none).
MIN_RUN = 3
_PUNCTUATION = "\"'.,;:!?()[]{}<>*_`"
#: The longest word :func:`segment` tries.
_LONGEST = 18


@cache
def ranks() -> dict[str, int]:
    """Every word of the list with its rank (0 = most frequent)."""
    from importlib import resources

    raw = resources.files("silcrow.safety").joinpath("data/english_words.txt").read_text(encoding="utf-8")
    words = [line for line in raw.splitlines() if line and not line.startswith("#")]
    return {w: i for i, w in reversed(list(enumerate(words)))}


#: Endings a word of the list may take (WordPiece keeps "password" and leaves "passwords" to
#: "##s"), with what the stem may have lost: "saved" is "save" + "d", "running" "run" + "ning".
_ENDINGS = (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"), ("ly", ""), ("er", ""),
            ("ers", ""), ("ies", "y"), ("ied", "y"))
_LAST = frozenset(ending[-1] for ending, _ in _ENDINGS)
#: What an inflected word costs over its stem in :func:`segment` (in ranks).
_INFLECTED = 2_000


def rank(word: str) -> int | None:
    """The rank of ``word`` (lower case) in the list, or of its stem for an inflected form of a
    word of the list (``_INFLECTED`` further down); None for a word that is neither."""
    vocab = ranks()
    found = vocab.get(word)
    if found is not None or len(word) < 4 or word[-1] not in _LAST:
        return found
    for ending, lost in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = vocab.get(word[:-len(ending)] + lost)
            if stem is not None:
                return stem + _INFLECTED
    # "running", "stopped": a doubled last consonant before the ending.
    for ending in ("ing", "ed"):
        if not word.endswith(ending) or len(word) <= len(ending) + 3:
            continue
        if word[-len(ending) - 1] == word[-len(ending) - 2]:
            stem = vocab.get(word[:-len(ending) - 1])
            if stem is not None:
                return stem + _INFLECTED
    return None


def known(word: str) -> bool:
    """Whether ``word`` (lower case) is an English word of the list, or a form of one."""
    return rank(word) is not None


def is_prose(text: str, source: str = "") -> bool:
    """Whether ``text`` reads as English sentences whose words ``source`` does not show."""
    words = [w.lower() for w in WORD.findall(text)]
    if len(words) < MIN_PROSE_WORDS:
        return False
    english = [w for w in words if known(w)]
    if len(english) < MIN_KNOWN_SHARE * len(words):
        return False
    if sum(ch.isalnum() or ch == " " for ch in text) < MIN_LETTER_SHARE * len(text):
        return False
    run = longest = 0
    for token in text.split():
        word = token.strip(_PUNCTUATION).lower().removesuffix("'s").removesuffix("\u2019s")
        run = run + 1 if known(word) else 0
        longest = max(longest, run)
    if longest < MIN_RUN:
        return False
    shown = {w.lower() for w in WORD.findall(source)}
    return len({w for w in english if len(w) >= 3 and w not in shown}) >= MIN_PROSE_WORDS


def segment(letters: str) -> str | None:
    """``letters`` (a-z, no spaces) split into its likeliest English words, or None when it
    cannot be split into words of the list. "ignoreallpreviousinstructions" reads "ignore all
    previous instructions": each word costs the log of its rank, so frequent words win."""
    n = len(letters)
    best: list[tuple[float, int]] = [(0.0, 0)] + [(math.inf, 0)] * n
    for end in range(1, n + 1):
        for start in range(max(0, end - _LONGEST), end):
            cost = best[start][0]
            if cost == math.inf:
                continue
            found = rank(letters[start:end])
            if found is not None:
                # A word of one letter ("a", "i") costs as much as a rare word: otherwise a
                # run would split into letters wherever a longer word is rare.
                here = cost + math.log(found + 2) + (8.0 if end - start == 1 else 0.0)
                if here < best[end][0]:
                    best[end] = (here, start)
    if best[n][0] == math.inf:
        return None
    words: list[str] = []
    end = n
    while end:
        start = best[end][1]
        words.append(letters[start:end])
        end = start
    return " ".join(reversed(words))
