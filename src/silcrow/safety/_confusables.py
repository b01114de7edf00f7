"""How a reader sees a character: the look-alike and invisible-character tables
shared by the fence and the threat scanner.

Both modules import this one and never each other. Nothing here is built at
import time: :func:`fold` builds its per-character table on first use and
only for the characters it meets (``import silcrow`` stays cheap).

:func:`fold` maps a text to a *reading* of exactly the same length, so a match
found in the reading is a span of the original text:

* a character that looks like a Latin letter or digit (UTS #39 confusables,
  compatibility forms such as full width or mathematical letters, accented
  letters) becomes that ASCII character, lower case;
* anything that looks like ``<``, ``>`` or ``/`` (``‹ 〈 ⟨ ˂ ᐸ ＜``, ``[``,
  a backslash) becomes ``<``, ``>`` or ``/``;
* a line break becomes ``"\\n"``, other whitespace ``" "``; dashes, underscores, dots and other connector
  punctuation become ``"-"``;
* invisible characters (format characters, controls, combining marks,
  variation selectors) become ``SKIP``;
* HTML entities and percent-encodings of the brackets and the slash
  (``&lt;``, ``&#x3c;``, ``%3C``, ``&amp;lt;``, ``\\u003c``) become the
  character they encode followed by ``SKIP`` padding.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from silcrow.safety import _bounded as bounded

#: The reading of an invisible character (and the padding after a decoded entity).
SKIP = "\x00"

# --- invisible characters -------------------------------------------------------

# (pattern_id, description, character class). Variation selectors are left
# out on purpose: emoji such as "❤️" carry U+FE0F.
INVISIBLE_CLASSES: tuple[tuple[str, str, str], ...] = (
    ("invisible.zero_width", "zero-width character",
     "\u200b\u200c\u200d\u180e\u00ad\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"),
    ("invisible.bidi_control", "bidirectional text control",
     "\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069"),
    ("invisible.word_joiner", "word joiner or invisible operator", "\u2060-\u2064\u206a-\u206f"),
    ("invisible.bom", "byte-order mark (zero-width no-break space)", "\ufeff"),
    ("invisible.tag_char", "Unicode tag character (invisible ASCII copy)", "\U000e0000-\U000e007f"),
    ("invisible.control_char", "control character", "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"),
)
#: A regex character class matching every invisible or control character above.
INVISIBLE_CLASS = "[" + "".join(cls for _, _, cls in INVISIBLE_CLASSES) + "]"
ANY_INVISIBLE = re.compile(INVISIBLE_CLASS)

ZWJ, ZWNJ = "\u200d", "\u200c"


def is_emoji(ch: str) -> bool:
    cp = ord(ch)
    return cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or cp == 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF


# --- look-alike folding -------------------------------------------------------

# Lower-case: the text is case-folded before this table is applied (capitals
# have their own table, CAPITAL_LOOKALIKES, applied before case folding).
LOOKALIKES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g", "ь": "b",
    "п": "n", "г": "r", "ո": "n", "ս": "u", "օ": "o",  # last three Armenian
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j", "ζ": "z",
    "μ": "u", "ω": "w",
}
CONFUSABLES = str.maketrans(LOOKALIKES)

# Capitals are folded to Latin capitals *before* case folding: lowered first,
# Greek "Ν" (Nu) would become "ν" and read as "v", "Η" (Eta) as "n", "Υ" as "u".
CAPITAL_LOOKALIKES: dict[str, str] = {
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "Ѐ": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "Ѕ": "S",
    "І": "I", "Ї": "I", "Ј": "J", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "I",
    # Armenian
    "Օ": "O", "Ս": "U",
}
CAPITAL_CONFUSABLES = str.maketrans(CAPITAL_LOOKALIKES)



# --- the per-character reading ---------------------------------------------------

_OPENERS = "<‹〈⟨˂ᐸ＜﹤❮❬⧼〔《«⦉⦑⦓⟪[［"
_CLOSERS = ">›〉⟩˃ᐳ＞﹥❯❭⧽〕》»⦊⦒⦔⟫]］"
_SLASHES = "/\\／＼⁄∕⧸⧹╱╲"
_CONNECTORS = "-_.·‧・･‐‑‒–—―−﹣－＿．。‿⁀⁃"

# Mathematical and other letter-like symbols NFKC does not fold.
_EXTRA = {"ı": "i", "ȷ": "j", "ℓ": "l", "℮": "e", "∊": "e", "∈": "e", "ϵ": "e", "ɑ": "a", "ɡ": "g",
          "ɩ": "i", "ʋ": "u", "ɴ": "n", "ʀ": "r", "ᴍ": "m", "ᴇ": "e", "ᴏ": "o", "ᴛ": "t", "ʏ": "y",
          "ᴄ": "c", "ᴋ": "k", "ᴡ": "w", "ᴜ": "u", "ᴠ": "v", "ᴢ": "z", "ᴀ": "a", "ʙ": "b", "ᴅ": "d",
          "ғ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ʟ": "l", "ᴘ": "p", "ǫ": "q", "ꜱ": "s",
          "ˣ": "x"}


@cache
def uts39_prototypes() -> dict[str, str]:
    """Every character that UTS #39 lists as confusable with one ASCII character, mapped to it.

    The data is ``confusables.json`` of the confusable-homoglyphs package (Unicode's
    confusables.txt), reduced to single ASCII targets and shipped as package data.
    """
    import json  # here, not at import: importlib.resources alone costs ~20 ms to import
    from importlib import resources

    data = resources.files("silcrow.safety").joinpath("data/confusables_ascii.json")
    raw = data.read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(raw)
    return table


def _letterlike(ch: str) -> str:
    """The ASCII character ``ch`` reads as, lower case, or ``ch`` lower-cased."""
    protos = uts39_prototypes()
    for _ in range(3):  # a look-alike of an accented look-alike ("ѐ" is Cyrillic "е" + grave)
        ch = _EXTRA.get(ch) or LOOKALIKES.get(ch) or CAPITAL_LOOKALIKES.get(ch) or protos.get(ch) or ch
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        base = base.casefold()[:1]
        if base == ch or not base:
            break
        ch = base
    return ch or SKIP


def _read_char(ch: str, lower_first: bool) -> str:
    if ch in _OPENERS:
        return "<"
    if ch in _CLOSERS:
        return ">"
    if ch in _SLASHES:
        return "/"
    if ch in "\n\r":
        return "\n"  # kept, so that a reading still has lines
    if ch.isspace():
        return " "
    if ch in _CONNECTORS:
        return "-"
    cat = unicodedata.category(ch)
    if cat in ("Cf", "Cc", "Mn", "Me", "Co", "Cn") or ANY_INVISIBLE.match(ch):
        return SKIP
    if cat.startswith("Z"):
        return " "
    if cat in ("Pd", "Pc"):
        return "-"
    return _letterlike(ch.lower() if lower_first else ch)


class _Reading(dict[int, str]):
    """A ``str.translate`` table that computes each character's reading on first sight."""

    def __init__(self, lower_first: bool) -> None:
        super().__init__()
        self.lower_first = lower_first

    def __missing__(self, cp: int) -> str:
        out = self[cp] = _read_char(chr(cp), self.lower_first)
        return out


# Two readings: a capital look-alike read as itself (Greek capital Eta as "h") and
# lower-cased first (Eta as its small form, which reads "n"). A span either finds counts.
_READINGS = (_Reading(lower_first=False), _Reading(lower_first=True))

# Encodings of the three structural characters, matched on a reading (so already lower
# case, entities of entities folded by the SKIP allowed after "&" and "%").
_AMP = re.compile(r"&\x00*+(?:amp;?|#0*+38;?|#x0*+26;?)|%\x00*+25")
_ENCODED = re.compile(
    r"&\x00*+(?P<lt>lt;?|#0*+60;?|#x0*+3c;?|lsaquo;|lang;|langle;|lsqb;|lbrack;)"
    r"|&\x00*+(?P<gt>gt;?|#0*+62;?|#x0*+3e;?|rsaquo;|rang;|rangle;|rsqb;|rbrack;)"
    r"|&\x00*+(?P<sl>sol;|#0*+47;?|#x0*+2f;?|bsol;)"
    r"|%\x00*+(?:(?P<plt>3c)|(?P<pgt>3e)|(?P<psl>2f|5c))"
    r"|/\x00*+(?:(?P<ult>u003c|x3c)|(?P<ugt>u003e|x3e))"
)
_DECODED = {"lt": "<", "gt": ">", "sl": "/", "plt": "<", "pgt": ">", "psl": "/", "ult": "<", "ugt": ">"}


def _decode(m: re.Match[str]) -> str:
    name = m.lastgroup
    ch = _DECODED[name] if name else "&"
    return ch + SKIP * (len(m.group()) - 1)


def _amp(m: re.Match[str]) -> str:
    return m.group()[0] + SKIP * (len(m.group()) - 1)


def fold(text: str, lower_first: bool = False) -> str:
    """The reading of ``text`` (see the module doc): same length, one character per character."""
    table = _READINGS[lower_first]
    out = bounded.each_piece(lambda piece: piece.translate(table), text)
    if "&" in out or "%" in out or "/" in out:
        out = bounded.sub(_AMP, _amp, out)
        out = bounded.sub(_ENCODED, _decode, out)
    return out


def readings(text: str) -> tuple[str, str]:
    """Both readings of ``text`` (capitals as themselves, capitals lower-cased first)."""
    return fold(text), fold(text, lower_first=True)
