"""The second, meaning-based stage of the threat scanner: nearest neighbours among
labelled examples, in the space of the offline MiniLM embedder silcrow already ships.

The examples (``data/semantic_examples.jsonl``: attacks phrased many ways and ordinary
notes; none from the held-out set the benchmark reports on) are embedded once, on
first use; the model itself loads lazily too, so nothing here costs anything until a
caller asks for a semantic judgement (``scan(text, semantic=True)``).

A text is judged an attack when the mean similarity of its three nearest attack
examples reaches ``THRESHOLD`` and beats that of its three nearest ordinary notes by
``MARGIN``. Both were chosen by leave-one-out on the examples alone (0.50 / 0.10: 29 of
70 attacks caught, 1 of 65 notes flagged).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any

THRESHOLD = 0.50
MARGIN = 0.10
_K = 3


@dataclass(frozen=True)
class Judgement:
    attack: bool
    family: str
    nearest: str
    similarity: float


class SemanticJudge:
    """k-nearest-neighbour judge over the shipped labelled examples."""

    def __init__(self, embedder: Any = None) -> None:
        self._embedder = embedder
        self._lock = threading.Lock()
        self._vectors: Any = None
        self._rows: list[dict[str, str]] = []

    def _load(self) -> None:
        with self._lock:
            if self._vectors is not None:
                return
            import numpy as np

            if self._embedder is None:
                from silcrow.models import OnnxMiniLMEmbedder

                self._embedder = OnnxMiniLMEmbedder()
            raw = resources.files("silcrow.safety").joinpath("data/semantic_examples.jsonl")
            rows = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines() if line.strip()]
            vectors = self._embedder.embed([r["text"] for r in rows])
            self._attack = np.array([r["label"] == "attack" for r in rows])
            self._rows = rows
            self._vectors = vectors

    def judge(self, text: str) -> Judgement:
        import numpy as np

        self._load()
        sims = self._vectors @ self._embedder.embed([text])[0]
        attack_sims, benign_sims = sims[self._attack], sims[~self._attack]
        top_attack = float(np.sort(attack_sims)[-_K:].mean())
        top_benign = float(np.sort(benign_sims)[-_K:].mean())
        nearest = int(np.flatnonzero(self._attack)[int(np.argmax(attack_sims))])
        row = self._rows[nearest]
        is_attack = top_attack >= THRESHOLD and top_attack - top_benign >= MARGIN
        return Judgement(is_attack, row["family"], row["text"], round(top_attack, 3))


_JUDGE: SemanticJudge | None = None
_JUDGE_LOCK = threading.Lock()


def judge(text: str) -> Judgement:
    """The shared judge's verdict on ``text`` (loads the model and examples on first call)."""
    global _JUDGE
    with _JUDGE_LOCK:
        if _JUDGE is None:
            _JUDGE = SemanticJudge()
    return _JUDGE.judge(text)
