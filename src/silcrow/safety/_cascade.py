"""The stages after the patterns, cheapest first, each consulted only when the ones before it
are unsure (see :func:`silcrow.safety._threats.scan` with ``learned=True``):

1. encodings: text hidden in an encoding (base64, hex, ROT13, Morse code... the list is in
   :mod:`silcrow.safety._decode`) is decoded and its readable form scanned; an attack there is
   held, and so is any English prose hidden that way;
2. the n-gram model (:mod:`silcrow.safety._learned`, a few milliseconds per window of about 480
   characters; a short note is one window): a score at its refuse threshold in any window holds
   the note at once; a score under the gate in every window accepts it (the gate ships with the
   meaning stage's weights and is set with its thresholds on the calibration set; ``GATE`` for
   weights without one);
3. the meaning stage (:mod:`silcrow.safety._meaning`, bge-small, ~10-25 ms a window): it reads
   the window of the note the n-gram model doubts most (in a note of several windows, the
   ``PIECE_CHARS`` of it the n-gram model doubts most) and holds
   the note when what one asks for is an attack, whatever framing carries it. When the n-gram model
   alone would hold a note and the meaning stage reads it as plainly benign (under the head's
   ``release_at``), the note is kept: the n-gram model's false alarms are notes that use an
   attack's words for an ordinary purpose ("User's system prompt style: concise"). The meaning
   stage reads English only (bge-small-en): a note in another language is left to the n-gram
   model, as before.

:func:`evidence` reads a note and :func:`decide` applies the thresholds to that reading, so that
calibration (``scripts/cascade_calibration.py``) tries every setting on one reading of each note.

Every stage here only ever holds a note for a person; refusing is left to the patterns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from silcrow.errors import EmbedderUnavailableError
from silcrow.safety._decode import COMMON, WORD, decoded
from silcrow.safety._meaning import GATE

if TYPE_CHECKING:
    from silcrow.safety._learned import Judgement
    from silcrow.safety._meaning import Head

#: At most this many windows of a note are read for meaning (the ones the n-gram model doubts
#: most); a doubted window past them is held on the n-gram model's word. One: a second
#: embedding doubles the stage's cost on a long note and changed no verdict on the benchmark.
MAX_READ = 1
#: In a note of several windows, the meaning stage reads the part of about this many
#: characters of its doubted window that the n-gram model doubts most.
PIECE_CHARS = 240

#: A text with fewer common English words than this share is not read by the meaning stage.
ENGLISH_SHARE = 0.15

#: One finding: pattern id, description (what a reviewer is shown).
Finding = tuple[str, str]


def deeper(text: str, inner_scan: Callable[[str], str] | None) -> list[Finding]:
    """What the stages after the patterns find in ``text`` (all of it to be held, or nothing).

    ``inner_scan`` scans a decoded text with every stage but decoding, and describes its hits
    ("" when clean); None: ``text`` is itself decoded, and is not decoded again."""
    for found in decoded(text) if inner_scan else ():
        described = inner_scan(found.text) if inner_scan else ""
        shown = " ".join(found.text.split())[:80]
        pid = found.pattern_id
        if described:
            return [(pid, f"text hidden in {found.encoding} reads, decoded, as {shown!r}: {described}")]
        if found.prose:
            # Prose hidden in an encoding has no ordinary use in a note; a person reads it.
            return [(pid, f"text hidden in {found.encoding} reads, decoded, as {shown!r}; a note "
                          "that hides what it says is held for a person to read")]

    return decide(evidence(text), Thresholds.shipped())


@dataclass(frozen=True)
class Thresholds:
    """Where the meaning stage comes in and what its score does (shipped with its weights)."""

    gate: float
    hold_at: float
    release_at: float
    strong_release_at: float

    @staticmethod
    def shipped() -> Thresholds:
        from silcrow.safety._meaning import shared

        try:
            head = shared()
            return Thresholds(head.gate, head.hold_at, head.release_at, head.strong_release_at)
        except EmbedderUnavailableError:
            # Without the embedding model (a broken install) the n-gram model decides alone.
            return Thresholds(GATE, 1.0, 1.0, 0.0)


@dataclass(frozen=True)
class Evidence:
    """What the n-gram model and the meaning stage say of a note, before any threshold of the
    meaning stage is applied: :func:`decide` turns it into findings, so that calibration can try
    many thresholds on one reading of each note."""

    #: The n-gram model's judgement of each window, with the window.
    judged: tuple[tuple[Judgement, str], ...]
    english: bool
    #: The part of the most doubted window the meaning stage reads, whether it carries that
    #: window's doubt, and its score (None: not read, under ``read_from``, or no embedder).
    piece: str = ""
    carries: bool = True
    score: float | None = None


def evidence(text: str, read_from: float | None = None, by_part: bool | None = None) -> Evidence:
    """The n-gram model's reading of ``text`` window by window and, when the most doubted window
    scores at least ``read_from`` (default: the shipped gate), the meaning stage's score of it.

    ``by_part`` (default: as the shipped weights say): an English note of several windows is
    judged part by part instead, each part of about ``PIECE_CHARS`` characters like a short
    note, and the most doubted part is read for meaning."""
    from silcrow.safety._learned import classify
    from silcrow.safety._meaning import MAX_WINDOWS, WINDOW_CHARS, shared, windows

    shipped = shared()
    head: Head | None = shipped
    try:
        floor = shipped.gate if read_from is None else read_from
        by_part = shipped.by_part if by_part is None else by_part
    except EmbedderUnavailableError:
        head, floor, by_part = None, GATE, False
    # A long note is judged window by window, each like a short note: the n-gram model's score
    # of a whole 2,200-character note grows with its length, and a note of ordinary lines
    # would read as one long instruction.
    parts = windows(text)
    is_english = english(text)
    if by_part and is_english and len(parts) > 1:
        # Smaller still: several unrelated lines in one window read, together, as an
        # instruction none of them is; what a note asks for sits in a sentence or two.
        parts = windows(text, PIECE_CHARS, MAX_WINDOWS * WINDOW_CHARS // PIECE_CHARS)
        judged = tuple((classify(part), part) for part in parts)
        cut = False
    else:
        judged = tuple((classify(part if len(parts) > 1 else text), part) for part in parts)
        cut = len(parts) > 1
    if not is_english:
        return Evidence(judged, False)
    top = max(judged, key=lambda vp: vp[0].score)
    if head is None or top[0].score < floor:
        return Evidence(judged, True)
    piece, carries = top[1], True
    if cut:
        # In a long note, the part of the doubted window the n-gram model doubts most is read:
        # what the window asks for sits in a sentence or two, and the embedding's cost grows
        # with its tokens (about 50 here instead of 100).
        verdict, piece = max(((classify(p), p) for p in windows(top[1], PIECE_CHARS)),
                             key=lambda vp: vp[0].score)
        # A hold the n-gram model gives no part alone (an attack across the cut) is not released.
        carries = verdict.severity is not None
    try:
        score = head.score_each([piece])[0]
    except EmbedderUnavailableError:
        return Evidence(judged, True)
    return Evidence(judged, True, piece, carries, score)


def decide(ev: Evidence, at: Thresholds) -> list[Finding]:
    """The findings (all to be held, or none) that ``ev`` gives at the thresholds ``at``."""
    judged = ev.judged
    strong = [v for v, _ in judged if v.severity == "refuse"]
    # At its refuse threshold the n-gram model holds a note at once, unless the head carries a
    # ``strong_release_at``: then the meaning stage's reading decides.
    if strong and not at.strong_release_at:
        return [("learned.refuse", strong[0].reason)]
    doubted = [v for v, _ in judged if v.severity is not None]
    learned = [(f"learned.{doubted[0].severity}", doubted[0].reason)] if doubted else []
    if not ev.english:
        # bge-small reads English only: elsewhere the n-gram model (28 languages) decides alone.
        return learned
    # The window the n-gram model doubts most is read for meaning (``MAX_READ``): the cost of
    # this stage stays bounded whatever the note's length.
    ranked = sorted(judged, key=lambda vp: -vp[0].score)
    top = ranked[0][0]
    if top.score < at.gate:
        return []
    if ev.score is None:
        return learned
    if top.severity is not None:
        release = at.release_at if top.severity == "hold" else at.strong_release_at
        if ev.score >= release or not ev.carries:
            # Both doubt it (or the meaning stage is unsure): the n-gram model's cues say why.
            return [(f"learned.{top.severity}", top.reason)]
    if ev.score >= at.hold_at:
        from silcrow.safety._meaning import Head

        return [("meaning.intent", Head.reason(ev.score))]
    for verdict, _ in ranked[MAX_READ:]:
        if verdict.severity is not None:
            return [(f"learned.{verdict.severity}", verdict.reason)]
    return []


def english(text: str) -> bool:
    """Whether at least ``ENGLISH_SHARE`` of the words of ``text`` are common English words."""
    words = [w.lower() for w in WORD.findall(text)]
    return bool(words) and sum(w in COMMON for w in words) >= ENGLISH_SHARE * len(words)
