"""The learned second stage of the threat scanner: a logistic model over hashed character
and word n-grams, trained offline by ``scripts/train_injection_classifier.py``.

What it is trained to follow is intent, not form: its benign data is mostly instructions and
preferences addressed to the agent ("Always use pnpm", "Don't use emojis in your answers",
"You should remind me to drink water") and ordinary conversation, and its attacks are requests
to override the system or developer instructions, reveal the prompt or secrets, send data
somewhere, fetch and run a payload, hide things from the user, or change who the agent is or
whom it obeys -- phrased with the same openers as the benign notes.

Why this shape: character n-grams read every script the patterns cover (Latin, Cyrillic,
Arabic, Devanagari, Chinese and Japanese) without a tokenizer or a model download, a score
costs a few milliseconds on CPU, and the weights (``data/injection_model.npz``, 128 KiB) ship
as package data pinned by ``MODEL_SHA256``: a changed file is an error, not a silent
different model.

The score is calibrated (Platt scaling fitted on out-of-fold predictions of the training
data), so ``score`` reads as a probability that the text is an instruction-type attack. The
thresholds are stored with the weights and were chosen on a calibration split kept apart from
both the training data and the benchmark's sets (the training script documents the split):
``hold_at`` and above is reported as ``hold``, ``refuse_at`` and above as ``refuse``. The
scanner holds both for a person: the model alone never refuses a write. The reason names the
content words that pushed the score up most; function words ("you", "the", "and") are never
shown as a cue, since they say nothing about what a note asks for.
"""

from __future__ import annotations

import hashlib
import re
import threading
import zlib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from silcrow.errors import SafetyModelError

MODEL_FILE = "data/injection_model.npz"
MODEL_SHA256 = "94be869c648b92085a7bc08bf9a04168d494951cd266386471621e811ea72061"
DIM = 1 << 16
#: Past this many characters a note is scored on its start: the cost stays bounded, and an
#: attack hidden only in the tail of a 2,200-character note is what the patterns are for.
MAX_CHARS = 4_000
#: The model abstains on a text with fewer distinct n-grams, or fewer letters (a Han, kana or
#: Hangul character counts three), than these: a few n-grams give it too little to go on
#: ("second entry" would score like an attack), and texts that short are for the patterns.
MIN_GRAMS = 16
MIN_LETTERS = 24
_SPACE = re.compile(r"\s+")
#: Words never named as the deciding cue: pronouns, articles, auxiliaries and connectives.
FUNCTION_WORDS = frozenset("""
a an the and or but if then so of to in on at by for with from as into onto about over under
is are was were be been being am do does did done have has had will would shall should can could
may might must i me my mine we us our you your yours he him his she her it its they them their
this that these those there here what which who whom whose when where why how not no yes all any
some each every very just also too than more most such only own same other again now up down out
off ll re ve d s t m don didn isn aren wasn weren won wouldn shouldn couldn can't let let's
du und der die das den dem ein eine einen ich sie er es ist sind nicht mit zu von auf für dass wir ihr
tu et le la les un une de des du je vous il elle est pas que qui en au aux ce cette nous ne
y el los las una que en por para tú yo usted es con lo se no o e um uma não você os as do da
il lo gli che non per con di da una è sei
""".split())
_WORD = re.compile(r"\w+")


def grams(normal: str) -> list[str]:
    """The n-grams of a normalised text: character 4-grams (any script), words and word pairs.

    Shorter character grams were left out: they learn which language and register a text is
    in (English prose read as attack-like, since most public attacks are English) rather than
    what it asks for."""
    text = _SPACE.sub(" ", normal[:MAX_CHARS]).strip()
    padded = f" {text} "
    out = {"c" + padded[i:i + 4] for i in range(len(padded) - 3)}
    words = _WORD.findall(text)
    out.update("w" + w for w in words)
    out.update(f"b{a} {b}" for a, b in zip(words, words[1:], strict=False))
    return sorted(out)


def bucket(gram: str) -> int:
    """The hashed feature index of one n-gram (crc32: stable across processes, unlike hash())."""
    return zlib.crc32(gram.encode("utf-8")) & (DIM - 1)


def vectorize(normal: str) -> tuple[list[int], list[str]]:
    """Distinct feature indices of a normalised text, with the n-grams they came from."""
    gs = grams(normal)
    crc32, mask = zlib.crc32, DIM - 1  # bucket(), inlined: a note has hundreds of n-grams
    return [crc32(g.encode("utf-8")) & mask for g in gs], gs


# Han, kana, Hangul and the rest from CJK Radicals on: a character there says as much as a word.
_WIDE = re.compile("[\u2e80-\U0010ffff]")


def letters(text: str) -> int:
    """How much text there is to judge: characters other than spaces, a wide one counting three."""
    solid = _SPACE.sub("", text)
    return len(solid) + 2 * len(_WIDE.findall(solid))


@dataclass(frozen=True)
class Judgement:
    """A calibrated attack probability, what it means for a write, and why."""

    score: float
    severity: Literal["refuse", "hold"] | None
    reason: str


def _telling(gram: str) -> bool:
    """Whether a word or word pair can name what a note asks for (not only function words)."""
    return not all(word in FUNCTION_WORDS or word.isdigit() for word in gram.split())


class Classifier:
    """The trained model; loads and checks its weights on first use."""

    def __init__(self, blob: bytes | None = None, sha256: str | None = MODEL_SHA256) -> None:
        self._blob = blob
        self._sha256 = sha256
        self._lock = threading.Lock()
        self._model: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        with self._lock:
            if self._model is None:
                import io

                import numpy as np

                blob = self._blob
                if blob is None:
                    blob = resources.files("silcrow.safety").joinpath(MODEL_FILE).read_bytes()
                digest = hashlib.sha256(blob).hexdigest()
                if self._sha256 is not None and digest != self._sha256:
                    raise SafetyModelError(
                        f"silcrow/safety/{MODEL_FILE} has sha256 {digest}, expected {self._sha256}: "
                        "the classifier weights were changed or damaged. Reinstall silcrow, or retrain "
                        "with scripts/train_injection_classifier.py and update MODEL_SHA256.")
                with np.load(io.BytesIO(blob)) as npz:
                    self._model = {k: npz[k] for k in npz.files}
                self._model["w"] = self._model["w"].astype(np.float32)
            return self._model

    def score(self, text: str) -> tuple[float, list[str]]:
        """Calibrated probability of an attack, and the word n-grams that pushed it up most."""
        import numpy as np

        from silcrow.safety._threats import normalize

        model = self._load()
        if letters(text) < MIN_LETTERS:  # checked first: a short note abstains without vectorizing
            return 0.0, []
        idx, gs = vectorize(normalize(text))
        if len(idx) < MIN_GRAMS:
            return 0.0, []
        weights = model["w"][np.asarray(idx)]
        raw = float(weights.sum() / np.sqrt(len(idx)) + model["b"])
        a, c = float(model["platt"][0]), float(model["platt"][1])
        prob = 1.0 / (1.0 + float(np.exp(-(a * raw + c))))
        cues = [(float(w), g[1:]) for w, g in zip(weights, gs, strict=True)
                if g[0] in "wb" and w > 0 and _telling(g[1:])]
        cues.sort(reverse=True)
        return prob, [g for _, g in cues[:3]]

    def judge(self, text: str) -> Judgement:
        model = self._load()
        prob, cues = self.score(text)
        severity: Literal["refuse", "hold"] | None = None
        if prob >= float(model["refuse_at"]):
            severity = "refuse"
        elif prob >= float(model["hold_at"]):
            severity = "hold"
        shown = ", ".join(f'"{c}"' for c in cues) or "its character patterns"
        reason = (f"the learned classifier scores it {prob:.2f} as a request to override, exfiltrate, "
                  f"hide or obey someone else (deciding cues: {shown})")
        return Judgement(round(prob, 4), severity, reason)


_SHARED: Classifier | None = None
_SHARED_LOCK = threading.Lock()


def classify(text: str) -> Judgement:
    """The shipped model's judgement of ``text`` (weights loaded and checked on first call)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Classifier()
    return _SHARED.judge(text)
