"""The decoding stage as it was before it read more encodings and used a larger word list: the
baseline of bench/decode.py, measured in the same run (kept verbatim; not part of the product).

Readable forms of text hidden by a simple encoding -- base64, hex, ROT13, reversed -- so the
scanner can judge what it says, not what it looks like.

Nothing is decoded on a guess: a base64 or hex run counts only when its bytes are UTF-8 text
with words in it, and a text is read as ROT13 or reversed only when at least
``MIN_DECODED_WORDS`` of its words that are not common English words, and ``MIN_SHARE`` of
them, turn into common English words that way. Ordinary text has almost none ("gur", "naq"
and "lbh" are not words; "eht", "dna" and "uoy" neither), so a note pays a set lookup per
word and nothing more.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from typing import NamedTuple

#: Common English words: the ones an encoded instruction is made of.
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
MIN_DECODED_WORDS = 3
#: ... and at least this share of its other words: English has a few words that read as others
#: backwards ("saw", "won", "ten"), never a quarter of a text's less common words.
MIN_SHARE = 0.25
WORD = re.compile(r"[A-Za-z]{2,}")
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}+={0,2}+(?![A-Za-z0-9+/=])")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}[ :]?+){12,}+(?![0-9A-Fa-f])")
_MAX_RUNS = 8


class Decoded(NamedTuple):
    #: "base64", "hex", "ROT13" or "reversed".
    encoding: str
    text: str


def _wordy(raw: bytes) -> str | None:
    """``raw`` as text when it is UTF-8 prose (printable, with at least two words)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    if printable < 0.95 * len(text) or len(WORD.findall(text)) < 2 or " " not in text:
        return None
    return text


def _runs(text: str) -> list[Decoded]:
    out: list[Decoded] = []
    for m in list(_BASE64.finditer(text))[:_MAX_RUNS]:
        run = m.group()
        try:
            raw = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        if (plain := _wordy(raw)) is not None:
            out.append(Decoded("base64", plain))
    for m in list(_HEX.finditer(text))[:_MAX_RUNS]:
        try:
            raw = bytes.fromhex(re.sub(r"[ :]", "", m.group()))
        except ValueError:
            continue
        if (plain := _wordy(raw)) is not None:
            out.append(Decoded("hex", plain))
    return out


def _turned(turn: dict[str, str]) -> int:
    """How many distinct words ``turn`` makes common English words of ("bar, bar, bar" is one)."""
    return sum(1 for w, into in turn.items() if w not in COMMON and into in COMMON)


def decoded(text: str) -> list[Decoded]:
    """Every readable form of ``text`` hidden by base64, hex, ROT13 or reversal (usually none)."""
    found = _runs(text)
    words = [w.lower() for w in WORD.findall(text)]
    if len(words) >= MIN_DECODED_WORDS:
        least = max(MIN_DECODED_WORDS, MIN_SHARE * len({w for w in words if w not in COMMON}))
        rot = {w: codecs.encode(w, "rot13") for w in words}
        if _turned(rot) >= least:
            found.append(Decoded("ROT13", codecs.encode(text, "rot13")))
        back = {w: w[::-1] for w in words}
        if _turned(back) >= least:
            found.append(Decoded("reversed", text[::-1]))
    return found
