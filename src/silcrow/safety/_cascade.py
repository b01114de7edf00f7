"""The stages after the patterns, cheapest first, each consulted only when the ones before it
are unsure (see :func:`silcrow.safety._threats.scan` with ``learned=True``):

1. encodings: text hidden in base64, hex, ROT13 or reversed is decoded
   (:mod:`silcrow.safety._decode`) and its readable form scanned; an attack there is held, and
   so is any prose kept in ROT13 or backwards, or base64/hex prose the n-gram model doubts;
2. the n-gram model (:mod:`silcrow.safety._learned`, a few milliseconds per window of about 480
   characters; a short note is one window): a score at its refuse threshold in any window holds
   the note at once; a score under ``GATE`` in every window accepts it -- most notes stop here;
3. the meaning stage (:mod:`silcrow.safety._meaning`, bge-small, ~10-25 ms a window): it reads
   the window of the note the n-gram model doubts most (in a note of several windows, the
   ``PIECE_CHARS`` of it the n-gram model doubts most) and holds
   the note when what one asks for is an attack, whatever framing carries it. When the n-gram model
   alone would hold a note and the meaning stage reads it as plainly benign (under the head's
   ``release_at``), the note is kept: the n-gram model's false alarms are notes that use an
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
#: At most this many windows of a note are read for meaning (the ones the n-gram model doubts
#: most); a doubted window past them is held on the n-gram model's word. One: a second
#: embedding doubles the stage's cost on a long note and changed no verdict on the benchmark.
MAX_READ = 1
#: In a note of several windows, the meaning stage reads the part of about this many
#: characters of its doubted window that the n-gram model doubts most.
PIECE_CHARS = 240

#: In a note of several windows, when the part read does not carry the n-gram model's doubt of
#: its window (no part of the window alone is held), whether the whole window is read as well.
#: Off: on the calibration set it kept a few more run-together developer notes (8 of 30 held
#: instead of 10), but the second embedding took the scan of a 2,200-character note from about
#: 75 to 109 ms at p95 under the same load, past the 50 ms budget on an idle machine.
READ_WINDOW_WHEN_CUT = False

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

    from silcrow.safety._meaning import shared, windows

    # A long note is judged window by window, each like a short note: the n-gram model's score
    # of a whole 2,200-character note grows with its length, and a note of ordinary lines
    # would read as one long instruction.
    parts = windows(text)
    judged = [(classify(part if len(parts) > 1 else text), part) for part in parts]
    strong = [v for v, _ in judged if v.severity == "refuse"]
    # At its refuse threshold the n-gram model holds a note at once, unless the head carries a
    # ``strong_release_at``: then the meaning stage reads the window first.
    strong_release_at = _strong_release() if strong else 0.0
    if strong and not strong_release_at:
        return [("learned.refuse", strong[0].reason)]
    doubted = [(v, part) for v, part in judged if v.severity is not None]
    if not english(text):
        # bge-small reads English only: elsewhere the n-gram model (28 languages) decides alone.
        return [(f"learned.{doubted[0][0].severity}", doubted[0][0].reason)] if doubted else []
    # The windows the n-gram model doubts most, at most ``MAX_READ`` of them, are read for
    # meaning (in one batch): the cost of this stage stays bounded whatever the note's length.
    suspicious = sorted(((v, part) for v, part in judged if v.score >= GATE), key=lambda vp: -vp[0].score)
    read, unread = suspicious[:MAX_READ], suspicious[MAX_READ:]
    if not read:
        return []
    pieces = [part for _, part in read]
    # Whether the part read carries what the n-gram model doubted in its window: only then may
    # the meaning stage's reading of that part release a window the n-gram model holds.
    carries = [True] * len(read)
    if len(parts) > 1:
        # In a long note, the half of the doubted window the n-gram model doubts more is read:
        # what the window asks for sits in a sentence or two, and the embedding's cost grows
        # with its tokens (about 50 here instead of 100).
        best = [max(((classify(p), p) for p in windows(part, PIECE_CHARS)), key=lambda vp: vp[0].score)
                for part in pieces]
        pieces = [piece for _, piece in best]
        # A hold the n-gram model gives no part alone (an attack across the cut) is not released.
        carries = [v.severity is not None for v, _ in best]
    try:
        head = shared()
        scores = head.score_each(pieces)
        hold_at, release_at = head.hold_at, head.release_at
    except EmbedderUnavailableError:
        # Without the embedding model (a broken install) the n-gram model decides alone.
        return [(f"learned.{doubted[0][0].severity}", doubted[0][0].reason)] if doubted else []
    for index, ((verdict, window), score, whole) in enumerate(zip(read, scores, carries, strict=True)):
        if verdict.severity is None:
            continue
        if not whole and READ_WINDOW_WHEN_CUT:
            # The part read does not carry the n-gram model's doubt: the whole window is read
            # too (about 100 tokens), and decides whether that doubt is released.
            score = head.score_each([window])[0]
            scores[index] = max(scores[index], score)
            whole = True
        release = release_at if verdict.severity == "hold" else strong_release_at
        if score >= release or not whole:
            # Both doubt it (or the meaning stage is unsure): the n-gram model's cues say why.
            return [(f"learned.{verdict.severity}", verdict.reason)]
    if max(scores) >= hold_at:
        return [("meaning.intent", head.reason(max(scores)))]
    for verdict, _ in unread:
        if verdict.severity is not None:
            return [(f"learned.{verdict.severity}", verdict.reason)]
    return []


def _strong_release() -> float:
    from silcrow.safety._meaning import shared

    try:
        return shared().strong_release_at
    except EmbedderUnavailableError:
        return 0.0


def english(text: str) -> bool:
    """Whether at least ``ENGLISH_SHARE`` of the words of ``text`` are common English words."""
    words = [w.lower() for w in WORD.findall(text)]
    return bool(words) and sum(w in COMMON for w in words) >= ENGLISH_SHARE * len(words)
