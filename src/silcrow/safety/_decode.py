"""Readable forms of text hidden by an encoding, so the scanner can judge what it says, not
what it looks like (see :func:`decoded`).

Read back:

* byte encodings -- base64 (standard and URL-safe), base32, ascii85 and base85, hex (``6967``,
  ``69 67``, ``\\x69\\x67``, ``0x69 0x67``), quoted-printable, uuencode, MIME encoded-words
  (``=?utf-8?b?...?=``), percent-encoding, HTML character references (``&#105;``) and
  ``\\u0069`` escapes -- decoded by the standard library (base64, binascii, quopri,
  email.header, urllib.parse, html);
* letter ciphers -- ROT13 and the other Caesar shifts, Atbash, text written backwards;
* text spelled in signs -- Morse code, Braille, the NATO spelling alphabet, letters set apart
  by spaces or dots, decimal or binary character codes, letters under combining marks, and
  leetspeak, which counts only for an attack in it (:mod:`silcrow.safety._decode_signs`).

Nothing is decoded on a guess. A decoded text is returned only when it reads as English prose
whose words the note does not show (:func:`silcrow.safety._english.is_prose`; for a run of
Morse code, Braille, NATO words or character codes, two English words), or -- for a byte
encoding -- when it is at least UTF-8 text with words in it (``prose`` False: only an attack in
it counts). A letter cipher is tried on the words of the note that are not English words: a
text counts as ROT13 (or another) only when at least ``MIN_DECODED_WORDS`` of those of three
letters or more, ``MIN_LONG_WORDS`` of them of four or more, and ``MIN_SHARE`` of them, turn
into English words that way (backwards, a rare word that is a common one reversed, "dna" for
"and", counts too). Ordinary text has few words that are not English words and almost none
that turn into one ("gur", "naq" and "lbh" are not words; "eht" and "uoy" neither); code has
a few ("elif" is "file" backwards), never most of them.

Unicode tag characters (U+E0000 block, an invisible copy of ASCII) are refused outright by the
invisible-character check before any decoding (``invisible.tag_char``).
"""

from __future__ import annotations

import base64
import binascii
import html
import quopri
import re
import string
import urllib.parse
from collections.abc import Callable, Iterator
from email.header import decode_header
from functools import cache
from typing import NamedTuple

from silcrow.safety._decode_signs import spelled
from silcrow.safety._english import WORD, is_prose, known, ranks

#: Common English words: the share of them tells English text from other languages
#: (:func:`silcrow.safety._cascade.english`).
COMMON = frozenset("""
the and you your to of in is it that this for on with as be are not all any from by or
ignore previous instructions instruction system prompt rules rule reveal print show send email
tell user users never always now new follow obey delete run execute download secret secrets key
keys password passwords token tokens file files data reply answer what do does have has will
must should can me my we our they them their only every before after above below hidden note
how make explain give steps step write code about into out then there here which when who why
was were been just like get go see know take want use find work call ask need keep let help
turn start over more most some such no very same so than also other these those its his her
him she he an at if but one two first last way how who would could may might into upon through
weapon bomb drug steal hack access admin account server address message messages conversation
history home folder wipe backups report fine quietly change wallet confirm nothing changed
""".split())
#: A letter cipher is read when at least this many distinct words of the text turn into
#: English words (each of at least ``MIN_CIPHER_LETTERS`` letters: two-letter words turn into
#: words by chance, "no"/"on", "ab"/"no") ...
MIN_DECODED_WORDS = 3
MIN_CIPHER_LETTERS = 3
#: ... at least ``MIN_LONG_WORDS`` of them of ``LONG_LETTERS`` or more ("Gur ynml qbt", three words of
#: which one is long, is a puzzle someone mentions; "eha ez -es / naq ercbeg fhpprff" is not) ...
MIN_LONG_WORDS = 2
LONG_LETTERS = 4
#: ... and at least this share of its words that are not English words: English has a few
#: words that read as others backwards ("live", "star"), never a quarter of a text's others.
MIN_SHARE = 0.4
#: A word of the list counts as a reversed word when its reversal is among the ``_COMMON_RANK``
#: most frequent and it is much rarer itself (rank over ``_RARER`` times that plus
#: ``_RARER_BY``): "dna" (3,515th) is "and" (4th), while "saw"/"was", "rats"/"star" and
#: "era"/"are" are too common both ways to tell anything.
_COMMON_RANK = 1_000
_RARER = 10
_RARER_BY = 2_000
_MAX_RUNS = 8
#: At most this many decoded texts are returned for one note.
_MAX_DECODED = 8

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}+={0,2}+(?![A-Za-z0-9+/=_-])")
_BASE32 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{16,}+={0,6}+(?![A-Za-z0-9+/=])")
_ASCII85 = re.compile(r"<~[!-u\sz]{10,}+~>|(?<![!-u])[!-u]{20,}+(?![!-u])")
_BASE85 = re.compile(r"(?<![0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~])[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}+")
_HEX = re.compile(r"(?<![0-9A-Za-z\\])(?:(?:\\x|0x)?+[0-9A-Fa-f]{2}[ :,]?+){12,}+(?![0-9A-Fa-f])")
_HEX_NOISE = re.compile(r"\\x|0x|[ :,]")
_QP = re.compile(r"=[0-9A-F]{2}")  # upper case, as RFC 2045 writes them
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_MIME = re.compile(r"=\?[\w.\-]{1,40}+\?[BbQq]\?[^?\s]{1,4000}+\?=")
_ENTITY = re.compile(r"&#(?:[0-9]{2,4}+|[xX][0-9A-Fa-f]{2,4}+);")
_UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})")
_UU_LINE = re.compile(r"[!-M][ -`]{4,60}+")
#: The fewest escapes (``=69``, ``%69``, ``&#105;``, ``\\u0069``) that make a text worth reading
#: decoded, and the least share of its characters they must make up: a URL, a formula or a
#: ``key=value`` list has a few, among much else.
_MIN_ESCAPES = 8
_MIN_ESCAPED_SHARE = 0.1

_LOWER = string.ascii_lowercase
_ATBASH = str.maketrans(_LOWER + _LOWER.upper(), _LOWER[::-1] + _LOWER[::-1].upper())


def _shift(k: int) -> dict[int, int]:
    """The table that moves every letter ``k`` places on (a Caesar shift; 13 is ROT13)."""
    return str.maketrans(_LOWER + _LOWER.upper(), _LOWER[k:] + _LOWER[:k] + (_LOWER[k:] + _LOWER[:k]).upper())


_SHIFTS = tuple(_shift(k) for k in range(26))
#: Per letter, the shift that takes it to "a": a word shifted so is its shape under every shift.
_TO_A = {ch: _SHIFTS[(26 - i) % 26] for i, ch in enumerate(_LOWER)}


class Decoded(NamedTuple):
    #: How it was hidden, as a reviewer reads it: "base64", "ROT13", "Morse code", ...
    encoding: str
    text: str
    #: Whether it reads as English prose the note does not show (else: text with words in it,
    #: from a byte encoding, that only counts if it carries an attack).
    prose: bool = True

    @property
    def pattern_id(self) -> str:
        """``decoded.base64``, ``decoded.rot13``, ``decoded.morse_code``, ``decoded.caesar_shift_of_3``,
        ``decoded.nato_spelling_alphabet``..."""
        words = [w for w in re.findall(r"[a-z0-9]+", self.encoding.lower()) if w not in ("a", "the")]
        return "decoded." + "_".join(words)


def _wordy(raw: bytes) -> str | None:
    """``raw`` as text when it is UTF-8 with words in it (printable, at least two words)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    if printable < 0.95 * len(text) or len(WORD.findall(text)) < 2 or " " not in text:
        return None
    return text


def _b64(run: str) -> bytes:
    padded = run + "=" * (-len(run) % 4)
    if "-" in run or "_" in run:
        return base64.urlsafe_b64decode(padded.encode("ascii"))
    return base64.b64decode(padded, validate=True)


def _b32(run: str) -> bytes:
    return base64.b32decode(run + "=" * (-len(run) % 8))


def _a85(run: str) -> bytes:
    return base64.a85decode(run, adobe=run.startswith("<~"))


def _hex(run: str) -> bytes:
    return bytes.fromhex(_HEX_NOISE.sub("", run))


_RUNS: tuple[tuple[str, re.Pattern[str], Callable[[str], bytes]], ...] = (
    ("base64", _BASE64, _b64),
    ("base32", _BASE32, _b32),
    ("ascii85", _ASCII85, _a85),
    ("base85", _BASE85, base64.b85decode),
    ("hex", _HEX, _hex),
)


def _uu(text: str) -> Iterator[bytes]:
    """The bytes of each uuencoded block of ``text`` (lines whose length matches their count)."""
    block: list[bytes] = []
    for line in text.splitlines() + [""]:
        if _UU_LINE.fullmatch(line) and len(line) == 1 + 4 * -(-(ord(line[0]) - 32) // 3):
            try:
                block.append(binascii.a2b_uu(line))
                continue
            except binascii.Error:
                pass
        if block:
            yield b"".join(block)
            block = []


def _dense(rx: re.Pattern[str], text: str) -> bool:
    """Whether ``text`` is written in the escapes ``rx`` matches (enough of them, and of it)."""
    found = [len(m.group()) for m in rx.finditer(text)]
    return len(found) >= _MIN_ESCAPES and sum(found) >= _MIN_ESCAPED_SHARE * len(text)


def _escaped(text: str) -> Iterator[tuple[str, str]]:
    """``(encoding, text)`` for the escape codes a text is written in, decoded."""
    if "=" in text:
        if "=?" in text:
            for m in list(_MIME.finditer(text))[:_MAX_RUNS]:
                try:
                    parts = decode_header(m.group())
                    yield "a MIME encoded-word", "".join(
                        raw.decode(charset or "ascii", "replace") if isinstance(raw, bytes) else raw
                        for raw, charset in parts)
                except (LookupError, ValueError):
                    continue
        if _dense(_QP, text):
            yield "quoted-printable", quopri.decodestring(text.encode("utf-8")).decode("utf-8", "replace")
    if "%" in text and _dense(_PERCENT, text):
        yield "percent-encoding", urllib.parse.unquote(text)
    if "&#" in text and _dense(_ENTITY, text):
        yield "HTML character references", html.unescape(text)
    if "\\u" in text and _dense(_UNICODE_ESCAPE, text):
        yield "Unicode escapes", _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


def _runs(text: str) -> list[Decoded]:
    out: list[Decoded] = []
    # A base64, base32 or base85 run has no spaces in it: only the long words of a text can
    # be one, and most notes have none. Hex may be spaced ("69 67 6e"), ascii85 may be
    # wrapped inside its <~ ~> marks: those are looked for in the whole text.
    long = " ".join(tok for tok in text.split() if len(tok) >= 16)
    for name, rx, decode in _RUNS:
        where = text if name == "hex" or (name == "ascii85" and "<~" in text) else long
        for m in list(rx.finditer(where))[:_MAX_RUNS] if where else ():
            try:
                raw = decode(m.group())
            except (binascii.Error, ValueError):
                continue
            if (plain := _wordy(raw)) is not None:
                out.append(Decoded(name, plain, is_prose(plain, text)))
    if "\n" in text:
        for raw in _uu(text):
            if (plain := _wordy(raw)) is not None:
                out.append(Decoded("uuencode", plain, is_prose(plain, text)))
    for name, plain in _escaped(text):
        # Percent-encoding and quoted-printable leave letters as they are: what they show is
        # judged as written, and only an attack or words they hide count.
        if plain != text and len(WORD.findall(plain)) >= 2:
            out.append(Decoded(name, plain, is_prose(plain, text)))
    return out


def _turned_lines(text: str, turn: Callable[[str], str]) -> str:
    """The lines of ``text`` that have more English words turned than as written, turned."""
    def english(line: str) -> int:
        return sum(known(w.lower()) for w in WORD.findall(line))

    lines = [turn(line) for line in text.splitlines() if english(turn(line)) > english(line)]
    return "\n".join(lines) if lines else turn(text)


@cache
def _shapes() -> dict[str, str]:
    """Every English word of ``MIN_CIPHER_LETTERS`` letters or more shifted to start with "a"
    -> the letters the words of that shape start with: one look-up finds every Caesar shift
    that makes a word of another (built on first use, ~40 ms)."""
    out: dict[str, str] = {}
    for word in ranks():
        if len(word) >= MIN_CIPHER_LETTERS:
            shape = word.translate(_TO_A[word[0]])
            out[shape] = out.get(shape, "") + word[0]
    return out


def _rare_backwards(words: list[str]) -> list[str]:
    """The rare words of ``words`` that are common words backwards ("dna", "nur", "tub"): a list
    of 21,700 words has many short names and abbreviations, and "dna" in a reversed text is
    "and", which ordinary text would say another way."""
    out: list[str] = []
    vocab = ranks()
    for w in set(words):
        if len(w) >= MIN_CIPHER_LETTERS and (mine := vocab.get(w)) is not None:
            turned = vocab.get(w[::-1])
            if turned is not None and turned < _COMMON_RANK and mine > _RARER * turned + _RARER_BY:
                out.append(w)
    return out


def _ciphers(words: list[str]) -> Iterator[tuple[str, Callable[[str], str]]]:
    """Each letter cipher the words of a text are written in (usually none)."""
    others = {w for w in set(words) if not known(w)}
    least = max(MIN_DECODED_WORDS, MIN_SHARE * len(others))
    longer = [w for w in others if len(w) >= MIN_CIPHER_LETTERS]
    if len(longer) < least or sum(len(w) >= LONG_LETTERS for w in longer) < MIN_LONG_WORDS:
        return

    def enough(turned: list[str], rare: tuple[str, ...] = ()) -> bool:
        # (the long words must be words of no English: a rare word read backwards only adds)
        long = sum(len(w) >= LONG_LETTERS for w in turned)
        return len(turned) + len(rare) >= least and long >= MIN_LONG_WORDS

    backwards = [w for w in longer if known(w[::-1])]
    if sum(len(w) >= LONG_LETTERS for w in backwards) >= MIN_LONG_WORDS and enough(
            backwards, tuple(_rare_backwards(words))):
        yield "reversed", lambda s: s[::-1]
    if enough([w for w in longer if known(w.translate(_ATBASH))]):
        yield "Atbash", lambda s: s.translate(_ATBASH)
    shapes = _shapes()
    turned: list[list[str]] = [[] for _ in range(26)]
    for w in longer:
        for first in shapes.get(w.translate(_TO_A[w[0]]), ""):
            turned[(ord(first) - ord(w[0])) % 26].append(w)
    for k in sorted(range(1, 26), key=lambda k: (k != 13, k)):
        if enough(turned[k]):
            name = "ROT13" if k == 13 else f"a Caesar shift of {26 - k}"
            yield name, lambda s, table=_SHIFTS[k]: s.translate(table)  # type: ignore[misc]


def decoded(text: str) -> list[Decoded]:
    """Every readable form of ``text`` hidden by an encoding the module reads (usually none)."""
    found = _runs(text)
    words = [w.lower() for w in WORD.findall(text)]
    for name, turn in _ciphers(words):
        found.append(Decoded(name, _turned_lines(text, turn)))
    found.extend(Decoded(*read) for read in spelled(text, words))
    # Each decoded text is scanned again by every other stage: a note of many encoded runs is
    # judged by its first few, prose first (what is held without an attack in it).
    return sorted(found, key=lambda d: not d.prose)[:_MAX_DECODED]
