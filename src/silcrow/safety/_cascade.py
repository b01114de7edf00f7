"""The stages after the patterns, cheapest first, each consulted only when the ones before it
are unsure (see :func:`silcrow.safety._threats.scan` with ``learned=True``):

1. encodings: text hidden in base64, hex, ROT13 or reversed is decoded
   (:mod:`silcrow.safety._decode`) and its readable form scanned; an attack there is held, and
   so is any prose kept in ROT13 or backwards, or base64/hex prose the n-gram model doubts;
2. the n-gram model (:mod:`silcrow.safety._learned`, a few milliseconds): a score at its refuse
   threshold or above holds the note at once; a score under ``GATE`` in every window of the
   note (and for the whole note) accepts it -- most notes stop here;
3. the meaning stage (:mod:`silcrow.safety._meaning`, bge-small, ~10-25 ms a window): it reads
   the window of the note the n-gram model doubts most (when it doubts it at all) and holds the
   note when what it asks for is an attack, whatever framing carries it. When the n-gram model
   alone would hold a note and the meaning stage reads it as plainly benign (under
   ``RELEASE``), the note is kept: the n-gram model's false alarms are notes that use an
   attack's words for an ordinary purpose ("User's system prompt style: concise"). The meaning
   stage reads English only (bge-small-en): a note in another language is left to the n-gram
   model, as before.

Every stage here only ever holds a note for a person; refusing is left to the patterns.
"""

from __future__ import annotations

from collections.abc import Callable

from silcrow.errors import EmbedderUnavailableError
from silcrow.safety._decode import COMMON, WORD, decoded

#: An n-gram score under this in every window sends a note no further. On the calibration
#: split it lets ~95% of conversation turns stop at the n-gram model.
GATE = 0.10
#: Under this meaning-stage score, a note the n-gram model alone would hold is kept.
RELEASE = 0.15

#: A text with fewer common English words than this share is not read by the meaning stage.
ENGLISH_SHARE = 0.15

#: One finding: pattern id, description (what a reviewer is shown).
Finding = tuple[str, str]


def deeper(text: str, inner_scan: Callable[[str], str] | None) -> list[Finding]:
    """What the stages after the patterns find in ``text`` (all of it to be held, or nothing).

    ``inner_scan`` scans a decoded text with every stage but decoding, and describes its hits
    ("" when clean); None: ``text`` is itself decoded, and is not decoded again."""
    from silcrow.safety._learned import classify

    for found in decoded(text) if inner_scan else ():
        described = inner_scan(found.text) if inner_scan else ""
        shown = " ".join(found.text.split())[:80]
        pid = f"decoded.{found.encoding.lower()}"
        if described:
            return [(pid, f"text hidden in {found.encoding} reads, decoded, as {shown!r}: {described}")]
        if found.encoding in ("ROT13", "reversed") or classify(found.text).score >= GATE:
            # Prose kept in ROT13 or backwards has no ordinary use in a note; a person reads it.
            return [(pid, f"text hidden in {found.encoding} reads, decoded, as {shown!r}; a note "
                          "that hides what it says is held for a person to read")]

    judged = classify(text)
    if judged.severity == "refuse":
        return [("learned.refuse", judged.reason)]
    from silcrow.safety._meaning import shared, windows

    if not english(text):
        # bge-small reads English only: elsewhere the n-gram model (28 languages) decides alone.
        return [(f"learned.{judged.severity}", judged.reason)] if judged.severity else []
    parts = windows(text)
    if len(parts) == 1:
        suspicious = parts if judged.score >= GATE else []
    else:
        # One window is read, the one the n-gram model doubts most: the cost of this stage
        # stays one embedding whatever the length of the note.
        score, top = max((classify(part).score, part) for part in parts)
        suspicious = [top] if score >= GATE or judged.severity is not None else []
    if not suspicious:
        return []
    try:
        meaning = shared().judge(text, suspicious)
    except EmbedderUnavailableError:
        # Without the embedding model (a broken install) the n-gram model decides alone.
        return [(f"learned.{judged.severity}", judged.reason)] if judged.severity else []
    if judged.severity == "hold" and meaning.score >= RELEASE:
        # Both doubt it (or the meaning stage is unsure): the n-gram model's cues say why.
        return [("learned.hold", judged.reason)]
    if meaning.hold:
        return [("meaning.intent", meaning.reason)]
    return []


def english(text: str) -> bool:
    """Whether at least ``ENGLISH_SHARE`` of the words of ``text`` are common English words."""
    words = [w.lower() for w in WORD.findall(text)]
    return bool(words) and sum(w in COMMON for w in words) >= ENGLISH_SHARE * len(words)
