"""Text spelled in signs instead of letters -- Morse code, Braille, the NATO spelling alphabet,
letters set apart by spaces or dots, character codes, letters buried under combining marks --
read back as words (see :mod:`silcrow.safety._decode`, which calls :func:`spelled`).

Each reader looks for a run long enough to carry a sentence (a handful of signs says nothing)
and returns what it reads only when that is prose (:func:`silcrow.safety._english.is_prose`).
A run whose words are not marked apart (Morse with one space everywhere, "HotelEchoLima") is
split into its likeliest English words (:func:`silcrow.safety._english.segment`).

Every pattern here is linear: each repeated part is possessive and ends where the next begins.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from silcrow.safety._english import WORD, is_prose, known, segment

# The tables below are written from the standards, not copied: ITU-R M.1677-1 for Morse,
# Unified English Braille (grade 1) for Braille, the ICAO/NATO radiotelephony spelling alphabet.
MORSE: dict[str, str] = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h",
    "..": "i", ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p",
    "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x",
    "-.--": "y", "--..": "z", "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4",
    ".....": "5", "-....": "6", "--...": "7", "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",",
    "..--..": "?", ".----.": "'", "-.-.--": "!", "-..-.": "/", "-.--.": "(", "-.--.-": ")", ".-...": "&",
    "---...": ":", "-.-.-.": ";", "-...-": "=", ".-.-.": "+", "-....-": "-", "..--.-": "_", ".-..-.": '"',
    ".--.-.": "@",
}
# Dots 1-6 of a cell are bits 0-5 of its offset from U+2800.
_BRAILLE_DOTS: dict[str, tuple[int, ...]] = {
    "a": (1,), "b": (1, 2), "c": (1, 4), "d": (1, 4, 5), "e": (1, 5), "f": (1, 2, 4), "g": (1, 2, 4, 5),
    "h": (1, 2, 5), "i": (2, 4), "j": (2, 4, 5), "k": (1, 3), "l": (1, 2, 3), "m": (1, 3, 4),
    "n": (1, 3, 4, 5), "o": (1, 3, 5), "p": (1, 2, 3, 4), "q": (1, 2, 3, 4, 5), "r": (1, 2, 3, 5),
    "s": (2, 3, 4), "t": (2, 3, 4, 5), "u": (1, 3, 6), "v": (1, 2, 3, 6), "w": (2, 4, 5, 6),
    "x": (1, 3, 4, 6), "y": (1, 3, 4, 5, 6), "z": (1, 3, 5, 6),
    ",": (2,), ".": (2, 5, 6), "?": (2, 3, 6), "!": (2, 3, 5), "'": (3,), "-": (3, 6), " ": (),
}
BRAILLE: dict[str, str] = {chr(0x2800 + sum(1 << (d - 1) for d in dots)): ch
                           for ch, dots in _BRAILLE_DOTS.items()}
_BRAILLE_CAPITAL = "\u2820"  # dot 6: the next letter is a capital
_BRAILLE_NUMBER = "\u283c"  # dots 3456: the letters a-j that follow are the digits 1-9, 0
NATO: dict[str, str] = {
    "alfa": "a", "alpha": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e", "foxtrot": "f",
    "golf": "g", "hotel": "h", "india": "i", "juliett": "j", "juliet": "j", "kilo": "k", "lima": "l",
    "mike": "m", "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r", "sierra": "s",
    "tango": "t", "uniform": "u", "victor": "v", "whiskey": "w", "whisky": "w", "xray": "x", "x-ray": "x",
    "yankee": "y", "zulu": "z",
}

#: The fewest signs a run needs to be read: shorter runs cannot carry a sentence.
MIN_SIGNS = 8
#: At most this many runs of each kind are read per text (each is cheap; a text of thousands
#: of them is no note).
_MAX_RUNS = 8
#: The longest run of letters read out (longer text is judged by its first part).
_MAX_LETTERS = 600

_DOT, _DASH = "·•∙⋅", "−–—‒_"
_TO_MORSE = str.maketrans(_DOT + _DASH, "." * len(_DOT) + "-" * len(_DASH))
_MORE = MIN_SIGNS - 1  # signs after the first
# Each look-behind comes after the first sign of a run (it asks the same: nothing of the run's
# kind before it) so that the regex engine can skip to the next sign: several times faster on
# prose than a look-behind in front.
_MORSE = re.compile(rf"[.\-](?<![\w.\-][.\-])[.\-]{{0,6}}+(?:[ \t/|]++[.\-]{{1,7}}+){{{_MORE},}}+")
_BRAILLE = re.compile(r"[\u2800-\u28ff][\u2800-\u28ff \t]*+")
_NATO_WORD = "|".join(sorted((re.escape(w) for w in NATO), key=len, reverse=True))
_NATO = re.compile(rf"(?i)\b(?:{_NATO_WORD})\b(?:[ \t,;/|.\-]{{1,5}}+(?:{_NATO_WORD})\b){{{_MORE},}}+")
# One letter, then others each after one to four separators: "i g n o r e", "i.g.n.o.r.e", "i, g, n".
_SPACED = re.compile(rf"[A-Za-z](?<![A-Za-z][A-Za-z])(?:[ .,\-_*|/]{{1,4}}+[A-Za-z](?![A-Za-z]))"
                     rf"{{{_MORE},}}+")
#: How a spelled-out text may mark a space: "S, E, N, D, (space), T, H, E".
_SPACE_WORD = re.compile(r"(?i)[ ,]{0,3}+[(\[<{]space[)\]>}][ ,]{0,3}+")
_DECIMAL = re.compile(rf"\d(?<![\d.,]\d)\d{{1,2}}+(?:[ ,;]{{1,2}}+\d{{2,3}}+){{{_MORE},}}+")
_BINARY = re.compile(rf"[01](?<![01][01])[01]{{6,7}}+(?:[ ,]{{0,2}}+[01]{{7,8}}+){{{_MORE},}}+")
_MARKS = re.compile("[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_SEPARATOR = re.compile(r"[^A-Za-z0-9]+")


def _words(pieces: list[str], breaks: list[bool]) -> str:
    """Letters read one by one (``pieces``), with ``breaks[i]`` when a word ends before piece i
    -- or, when no break was marked at all, split into likely English words."""
    if any(breaks):
        out = "".join((" " if brk else "") + piece for piece, brk in zip(pieces, breaks, strict=True))
        return out.strip()
    letters = "".join(pieces)[:_MAX_LETTERS]
    # Each run of letters is split into words; signs read as punctuation stay where they are.
    return re.sub(r"[a-z]{2,}", lambda m: segment(m.group()) or m.group(), letters)


def _is_break(separator: str) -> bool:
    """Whether a separator between two signs ends a word: a slash or bar, or a wide gap."""
    return "/" in separator or "|" in separator or "  " in separator or "\t" in separator


def _morse(text: str) -> Iterator[str]:
    signs = text.translate(_TO_MORSE) if any(ch in text for ch in _DOT + _DASH) else text
    if signs.count(".") + signs.count("-") < MIN_SIGNS:
        return
    for m in list(_MORSE.finditer(signs))[:_MAX_RUNS]:
        parts = re.split(r"([ \t/|]+)", m.group())
        codes, seps = parts[0::2], [""] + parts[1::2]
        if any(code not in MORSE for code in codes):
            continue
        yield _words([MORSE[c] for c in codes], [_is_break(s) for s in seps])


def _braille(text: str) -> Iterator[str]:
    for m in list(_BRAILLE.finditer(text))[:_MAX_RUNS]:
        out: list[str] = []
        digits = False
        for cell in m.group():
            if cell == _BRAILLE_NUMBER:
                digits = True
                continue
            if cell == _BRAILLE_CAPITAL:
                continue
            ch = BRAILLE.get(cell, " " if cell in " \t" else "")
            if digits and "a" <= ch <= "j":
                ch = "1234567890"["abcdefghij".index(ch)]
            else:
                digits = False
            out.append(ch)
        yield " ".join("".join(out).split())


def _nato(text: str, words: list[str]) -> Iterator[str]:
    if sum(w in NATO for w in words) < MIN_SIGNS:
        return
    for m in list(_NATO.finditer(text))[:_MAX_RUNS]:
        # "x-ray" is one sign: its hyphen is no separator.
        parts = re.split(r"([ \t,;/|.\-]+)", re.sub(r"(?i)x-ray", "xray", m.group()))
        joined, seps = parts[0::2], [""] + parts[1::2]
        letters = [NATO.get(w.lower(), "") for w in joined]
        yield _words(letters, [_is_break(s) for s in seps])


def _spaced(text: str) -> Iterator[str]:
    if "space" in text.lower():
        text = _SPACE_WORD.sub(" / ", text)
    for m in list(_SPACED.finditer(text))[:_MAX_RUNS]:
        run = m.group()
        pieces = re.findall(r"[A-Za-z]", run)
        seps = [""] + _SEPARATOR.findall(run)
        # The separator between letters is the commonest one; a different one ends a word.
        usual = max(set(seps[1:]), key=seps[1:].count)
        yield _words([p.lower() for p in pieces], [bool(s) and s != usual for s in seps])


def _codes(text: str) -> Iterator[str]:
    if sum(map(text.count, "0123456789")) < 2 * MIN_SIGNS:
        return
    for rx, base in ((_DECIMAL, 10), (_BINARY, 2)):
        for m in list(rx.finditer(text))[:_MAX_RUNS]:
            values = [int(v, base) for v in re.findall(r"\d+", m.group())]
            if all(32 <= v < 127 or v in (9, 10, 13) for v in values):
                yield "".join(map(chr, values))


# Leetspeak: the digits and signs that stand for letters. "1" is "i" or "l", whichever makes a word.
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_LEET_TOKEN = re.compile(r"[A-Za-z0-9@$]+")
_LETTER = re.compile(r"[A-Za-z]")
_STANDS_IN = re.compile(r"[0-9@$]")
#: The fewest words written in leetspeak that make a text leetspeak ("n00b" alone is slang).
MIN_LEET_WORDS = 3


def _leet(text: str) -> str | None:
    """``text`` with its leetspeak words written in letters, when it has ``MIN_LEET_WORDS`` of
    them that are English words (version strings, hashes and part numbers are not)."""
    read: dict[str, str] = {}
    for token in set(_LEET_TOKEN.findall(text)):
        if not 3 <= len(token) <= 24 or not _LETTER.search(token) or not _STANDS_IN.search(token):
            continue
        for one in ("i", "l"):
            word = token.translate(_LEET).replace("1", one)
            if word.isalpha() and len(word) >= 3 and known(word.lower()):
                read[token] = word
                break
    if len(read) < MIN_LEET_WORDS:
        return None
    return _LEET_TOKEN.sub(lambda m: read.get(m.group(0), m.group(0)), text)


def spelled(text: str, words: list[str]) -> Iterator[tuple[str, str, bool]]:
    """``(encoding, text, prose)`` for each run of ``text`` spelled in signs that reads as
    English: prose (:func:`silcrow.safety._english.is_prose`), or -- for Morse code, Braille,
    the NATO alphabet and character codes -- two English words or more.

    ``words``: the words of ``text``, lower case (:data:`WORD`), found once by the caller."""
    readers: tuple[tuple[str, Iterator[str], bool], ...] = (
        ("Morse code", _morse(text), True),
        ("Braille", _braille(text), True),
        ("the NATO spelling alphabet", _nato(text, words), True),
        ("spaced-out letters", _spaced(text), False),
        ("character codes", _codes(text), True),
    )
    for encoding, reads, sure in readers:
        for plain in reads:
            english = {w for w in WORD.findall(plain.lower()) if len(w) >= 3 and known(w)}
            # A run of eight or more Morse, Braille, NATO or code signs is no accident: two
            # English words in it ("send keys") are hidden text enough.
            if is_prose(plain, text) or sure and len(english) >= 2:
                yield encoding, plain, True
    leet = _leet(text)
    if leet is not None:
        # Leetspeak is a register, not a cipher (gamers write it): it counts only if it carries
        # an attack.
        yield "leetspeak", leet, False
    if len(_MARKS.findall(text)) >= MIN_SIGNS:
        plain = _MARKS.sub("", text)
        if is_prose(plain, text):
            yield "combining marks", plain, True


__all__ = ["BRAILLE", "MORSE", "NATO", "WORD", "spelled"]
