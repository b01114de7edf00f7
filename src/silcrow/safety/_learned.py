"""The learned second stage of the threat scanner: a logistic model over hashed character
and word n-grams, trained offline by ``scripts/train_injection_classifier.py``.

Why this shape: character n-grams read every script the patterns cover (Latin, Cyrillic,
Arabic, Devanagari, Chinese and Japanese) without a tokenizer or a model download, a score
costs a few milliseconds on CPU, and the weights (``data/injection_model.npz``, 128 KiB) ship
as package data pinned by ``MODEL_SHA256``: a changed file is an error, not a silent
different model.

The score is calibrated (Platt scaling fitted on out-of-fold predictions of the training
data), so ``score`` reads as a probability that the text is an instruction-type attack. The
thresholds are stored with the weights and were chosen on the training data only:
``hold_at`` and above is reported as ``hold``, ``refuse_at`` and above as ``refuse``. The
scanner holds both for a person: the model alone never refuses a write.
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
MODEL_SHA256 = "e5b763f54a18565934e47e18d67596f3ad36239a89b169716eec7b3e7f613184"
DIM = 1 << 16
#: Past this many characters a note is scored on its start: the cost stays bounded, and an
#: attack hidden only in the tail of a 2,200-character note is what the patterns are for.
MAX_CHARS = 4_000
#: The model abstains on a text with fewer distinct n-grams, or fewer letters (a Han, kana or
#: Hangul character counts three), than these: a few n-grams give it too little to go on
#: ("second entry" would score like an attack), and texts that short are for the patterns.
MIN_GRAMS = 36
MIN_LETTERS = 24
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w+")


def grams(normal: str) -> list[str]:
    """The n-grams of a normalised text: characters 2-4 (any script), words and word pairs."""
    text = _SPACE.sub(" ", normal[:MAX_CHARS]).strip()
    padded = f" {text} "
    out = {"c" + padded[i:i + n] for n in (2, 3, 4) for i in range(len(padded) - n + 1)}
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
        cues = [(float(w), g[1:]) for w, g in zip(weights, gs, strict=True) if g[0] in "wb" and w > 0]
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
        shown = ", ".join(f'"{c}"' for c in cues) or "character patterns"
        reason = (f"the learned classifier scores it {prob:.2f} as an instruction aimed at the agent "
                  f"(strongest cues: {shown})")
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
