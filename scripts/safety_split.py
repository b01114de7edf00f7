"""Keep the threat scanner's training, calibration and evaluation texts apart: no text of one
split may have a near-twin in another.

    PYTHONPATH=src:scripts .venv/bin/python scripts/safety_split.py [--cosine 0.93] [--drop]

Two texts are near-twins when the Jaccard similarity of their normalised word sets (lower case,
every digit run read as ``0``) is at least ``THRESHOLD``: the same note with a word or a
number changed, or a template filled with another subject. ``--cosine C`` also pairs texts
whose bge-small embeddings (the meaning stage's, cached as ``scripts/train_intent_head.py``
caches them) have a cosine of at least C: the same note in other words. Prints each cross-split pair found
and exits 1 when there is one; ``tests/test_safety_split.py`` runs the same check.

The splits, by file (what reads each one is named in ``scripts/train_intent_head.py``,
``scripts/train_injection_classifier.py`` and ``bench/safety.py``):

* ``train``: the notes, attacks and conversation written for silcrow that the models train on
  (``scripts/data/benign_notes_own.txt``, ``agent_rules_own.txt``, ``dev_notes_train_own.txt``,
  ``conversation_train_own.txt``, ``injection_train_own.jsonl``, ``injection_attacks_train.jsonl``,
  ``agent_notes_cc0.jsonl``, ``benign_notes2_train.jsonl``, ``persona_attacks_train.jsonl``,
  ``latent_attacks_train.jsonl``, ``framing_attacks_train.jsonl``,
  ``safety/data/semantic_examples.jsonl``, the notes ``scripts/dev_notes.py`` and
  ``scripts/injection_notes.py`` compose, the ``train`` half of ``scripts/framed_attacks.py``,
  the ``train`` role switches of ``scripts/safety_sets.py``), and bastioncorpus's training four
  fifths when it is installed;
* ``calibrate``: ``scripts/data/safety_calibration.jsonl``, ``benign_notes2_calibration.jsonl``,
  ``injection_attacks_calibration.jsonl`` (``scripts/injection_attacks.py`` writes it and its train
  and eval halves), ``persona_attacks_calibration.jsonl`` (``scripts/persona_attacks.py`` writes
  it and its train and eval parts), ``latent_attacks_calibration.jsonl`` (``scripts/latent_attacks.py``
  writes it and its train and eval parts), ``framing_attacks_calibration.jsonl``
  (``scripts/framing_attacks.py`` writes it and its train and eval parts) and the conversation
  written for silcrow,
  ``scripts/data/conversation_calibration.txt`` (thresholds are set on them, nothing trains on them);
* ``eval``: every ``bench/data/safety_*.jsonl`` set ``bench/safety.py`` measures on (the
  agent-instruction rows marked ``test``).

Public ordinary conversation (chatterbot-corpus, LoCoMo) is left out: short turns ("Thanks!") repeat
across any two conversations and say nothing about what a note asks for.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THRESHOLD = 0.5
#: Texts with fewer distinct words than this are not compared: "Prefers tabs" has a twin in
#: any set of preferences, and such a pair tells nothing about leakage.
MIN_WORDS = 4
_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d+")
_ENCODED = re.compile(r"[A-Za-z0-9+/=]{24,}")

Text = tuple[str, str]  # (source, text)


def words(text: str) -> frozenset[str]:
    """The normalised word set of ``text``."""
    return frozenset(_DIGITS.sub("0", w) for w in _WORD.findall(text.lower()))


def _jsonl(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def train_texts() -> list[Text]:
    """What the models train on, of the texts written for silcrow (and bastioncorpus's part)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from dev_notes import notes
    from framed_attacks import attacks
    from injection_notes import compose, compose_families, compose_long
    from safety_sets import rows

    data = ROOT / "scripts" / "data"
    out: list[Text] = [("benign_notes_own.txt", t) for t in _lines(data / "benign_notes_own.txt")]
    out += [("agent_rules_own.txt", t) for t in _lines(data / "agent_rules_own.txt")]
    out += [("dev_notes_train_own.txt", t) for t in _lines(data / "dev_notes_train_own.txt")]
    out += [("conversation_train_own.txt", t) for t in _lines(data / "conversation_train_own.txt")]
    for name in ("injection_train_own.jsonl", "agent_notes_cc0.jsonl", "benign_notes2_train.jsonl",
                 "injection_attacks_train.jsonl", "persona_attacks_train.jsonl",
                 "latent_attacks_train.jsonl", "framing_attacks_train.jsonl"):
        out += [(name, r["text"]) for r in _jsonl(data / name)]
    out += [("semantic_examples.jsonl", r["text"])
            for r in _jsonl(ROOT / "src/silcrow/safety/data/semantic_examples.jsonl")]
    out += [("dev_notes.py", t) for t in notes()]
    out += [("injection_notes.py", t) for t, _ in compose() + compose_long() + compose_families()]
    out += [("framed_attacks.py[train]", r["text"]) for r in attacks("train", 2_000)]
    out += [("safety_sets.py[train]", r["text"]) for r in rows("train")]
    try:
        from importlib import resources

        from train_injection_classifier import _part

        raw = resources.files("bastioncorpus").joinpath("corpus/injections.jsonl").read_text(encoding="utf-8")
        rows = [json.loads(line) for line in raw.splitlines() if line.strip()]
        out += [("bastioncorpus[train]", r["text"]) for r in rows if _part(r["text"], 5) != 0]
    except ImportError:
        pass
    return out


def calibration_texts() -> list[Text]:
    path = ROOT / "scripts" / "data" / "safety_calibration.jsonl"
    out = [("safety_calibration.jsonl", r["text"]) for r in _jsonl(path)]
    out += [("injection_attacks_calibration.jsonl", r["text"])
            for r in _jsonl(ROOT / "scripts" / "data" / "injection_attacks_calibration.jsonl")]
    out += [("persona_attacks_calibration.jsonl", r["text"])
            for r in _jsonl(ROOT / "scripts" / "data" / "persona_attacks_calibration.jsonl")]
    out += [("conversation_calibration.txt", t)
            for t in _lines(ROOT / "scripts" / "data" / "conversation_calibration.txt")]
    out += [("benign_notes2_calibration.jsonl", r["text"])
            for r in _jsonl(ROOT / "scripts" / "data" / "benign_notes2_calibration.jsonl")]
    out += [("latent_attacks_calibration.jsonl", r["text"])
            for r in _jsonl(ROOT / "scripts" / "data" / "latent_attacks_calibration.jsonl")]
    out += [("framing_attacks_calibration.jsonl", r["text"])
            for r in _jsonl(ROOT / "scripts" / "data" / "framing_attacks_calibration.jsonl")]
    return out + [("safety_agent_notes.jsonl[calibrate]", r["text"])
                  for r in _jsonl(ROOT / "bench/data/safety_agent_notes.jsonl") if r["split"] == "calibrate"]


def eval_texts() -> list[Text]:
    out: list[Text] = []
    for path in sorted((ROOT / "bench" / "data").glob("safety_*.jsonl")):
        out += [(path.name, r["text"]) for r in _jsonl(path) if r.get("split", "test") in ("test", "eval")]
    return out


def splits() -> dict[str, list[Text]]:
    return {"train": train_texts(), "calibrate": calibration_texts(), "eval": eval_texts()}


def near_twins(left: Iterable[Text], right: Iterable[Text], threshold: float = THRESHOLD,
               ) -> list[tuple[float, Text, Text]]:
    """Every pair (one text of each side) whose word sets have a Jaccard similarity of at least
    ``threshold``, most alike first. An inverted index over the rarer words finds the candidates:
    two sets that alike share at least one of the rarest ``(1 - threshold)`` share of words plus
    one of either (the prefix filter of similarity joins)."""
    lefts = [(src, text, words(text)) for src, text in left]
    rights = [(src, text, words(text)) for src, text in right]
    lefts = [x for x in lefts if len(x[2]) >= MIN_WORDS]
    rights = [x for x in rights if len(x[2]) >= MIN_WORDS]
    frequency: dict[str, int] = defaultdict(int)
    for _, _, ws in lefts + rights:
        for w in ws:
            frequency[w] += 1

    def prefix(ws: frozenset[str]) -> list[str]:
        ordered = sorted(ws, key=lambda w: (frequency[w], w))
        return ordered[: len(ws) - int(threshold * len(ws)) + 1]

    index: dict[str, list[int]] = defaultdict(list)
    for i, (_, _, ws) in enumerate(rights):
        for w in prefix(ws):
            index[w].append(i)
    found: list[tuple[float, Text, Text]] = []
    for src, text, ws in lefts:
        seen: set[int] = set()
        for w in prefix(ws):
            for j in index.get(w, ()):
                if j in seen:
                    continue
                seen.add(j)
                other = rights[j][2]
                score = len(ws & other) / len(ws | other)
                if score >= threshold:
                    found.append((round(score, 3), (src, text), (rights[j][0], rights[j][1])))
    return sorted(found, key=lambda f: -f[0])


def cross_split(sets: dict[str, list[Text]], threshold: float = THRESHOLD,
                ) -> dict[str, list[tuple[float, Text, Text]]]:
    """Near-twins between every two splits of ``sets``."""
    names = list(sets)
    return {f"{a}~{b}": near_twins(sets[a], sets[b], threshold)
            for i, a in enumerate(names) for b in names[i + 1:]}


def cosine_twins(left: list[Text], right: list[Text], threshold: float) -> list[tuple[float, Text, Text]]:
    """Pairs whose bge-small vectors (first window, as the meaning stage embeds) have a cosine
    of at least ``threshold``."""
    import numpy as np
    from train_intent_head import embed

    from silcrow.safety._cascade import english

    # bge-small-en places every text it cannot read (another language, base64, hex) close to
    # every other such text: only English prose is compared by meaning.
    def readable(text: str) -> bool:
        return english(text) and not _ENCODED.search(text)

    left = [t for t in left if readable(t[1])]
    right = [t for t in right if readable(t[1])]
    a = embed([t for _, t in left])
    b = embed([t for _, t in right])
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    found: list[tuple[float, Text, Text]] = []
    for start in range(0, len(a), 2_048):
        sims = a[start:start + 2_048] @ b.T
        for i, j in zip(*np.nonzero(sims >= threshold), strict=True):
            found.append((round(float(sims[i, j]), 3), left[start + i], right[j]))
    return sorted(found, key=lambda f: -f[0])


def drop(found: dict[str, list[tuple[float, Text, Text]]]) -> int:
    """Rewrite the calibration and evaluation files without the later text of each pair in
    ``found``; the number of rows removed."""
    doomed: dict[str, set[str]] = defaultdict(set)
    for twins in found.values():
        for _, _, (src, text) in twins:
            doomed[src.split("[")[0]].add(text)
    removed = 0
    for name, texts in doomed.items():
        path = next(p for p in (ROOT / "bench" / "data" / name, ROOT / "scripts" / "data" / name)
                    if p.is_file())
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [line for line in lines if not line.strip() or json.loads(line)["text"] not in texts]
        removed += len(lines) - len(kept)
        path.write_text("".join(kept), encoding="utf-8")
    return removed


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--show", type=int, default=20, help="pairs shown per pair of splits")
    parser.add_argument("--cosine", type=float, default=None,
                        help="also pair texts whose embeddings have at least this cosine (embeds every text)")
    parser.add_argument("--drop", action="store_true",
                        help="remove from the calibration and evaluation files every row with a near-twin "
                             "in an earlier split (train, then calibrate)")
    args = parser.parse_args()
    sets = splits()
    if args.drop:
        print(f"dropped {drop(cross_split(sets, args.threshold))} rows", file=sys.stderr)
        sets = splits()
    print(json.dumps({name: len(texts) for name, texts in sets.items()}), file=sys.stderr)
    bad = 0
    found = cross_split(sets, args.threshold)
    if args.cosine:
        names = list(sets)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                found[f"{a}~{b} (cosine)"] = cosine_twins(sets[a], sets[b], args.cosine)
        if args.drop:
            print(f"dropped {drop(found)} rows", file=sys.stderr)
    for pair, twins in found.items():
        bad += len(twins)
        print(f"{pair}: {len(twins)} near-twins")
        for score, (src_a, a), (src_b, b) in twins[: args.show]:
            print(f"  {score:.2f}  [{src_a}] {a[:90]!r}\n        [{src_b}] {b[:90]!r}")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
