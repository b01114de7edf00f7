"""Benchmark of the international attack patterns (silcrow.safety._patterns_intl): what they
refuse by mistake, what they catch, and what they add to a scan, against the same scan without
them in the same run.

    .venv/bin/python bench/intl_patterns.py [--rounds 5]

Prints one JSON object on stdout (progress goes to stderr):

* ``benign``: every conversation line of ``chatterbot-corpus`` in its 27 languages other than
  English, and every benign row of scripts/data/*.jsonl with a language other than English:
  how many the patterns stage (``scan`` without the learned stages) refuses or holds, and how
  many of those are the international patterns' doing (``intl_refused``, ``intl_held``, with
  the texts).
* ``attacks``: the attack rows of scripts/data/*_calibration.jsonl in a language other than
  English: refused / held / accepted by the patterns stage.
* ``ms_per_2200_char_note``: p50/p95 ms of the patterns stage on 2,200-character notes of
  chatterbot-corpus lines (eight per language, English too), with and without the
  international table, interleaved on each note, over each note's fastest round (less of the
  shared machine's noise); ``extra_ms`` is what the international patterns cost.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console

from silcrow.safety import _threats as threats
from silcrow.safety._prefilter import GateIndex

err = Console(stderr=True)
ROOT = Path(__file__).resolve().parent.parent
NOTE_CHARS = 2_200


def _chatterbot() -> dict[str, list[str]]:
    data = importlib.resources.files("chatterbot_corpus") / "data"
    out: dict[str, list[str]] = {}
    for lang in sorted(data.iterdir(), key=lambda p: p.name):
        lines: list[str] = []
        for path in sorted(lang.iterdir(), key=lambda p: p.name):
            try:
                loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
            except yaml.YAMLError:
                continue  # one file of the corpus is not valid YAML
            for conversation in (loaded or {}).get("conversations") or []:
                out_lines = [t for t in conversation if isinstance(t, str) and t.strip()]
                lines.extend(out_lines)
        out[lang.name] = lines
    return out


def _rows(pattern: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted((ROOT / "scripts" / "data").glob(pattern)):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r.get("lang") not in (None, "en")]


def _notes(corpus: dict[str, list[str]]) -> list[str]:
    rng = random.Random(7)
    notes: list[str] = []
    for lines in corpus.values():
        for k in range(8):
            picked = rng.sample(lines, len(lines))
            text = ""
            for line in picked * 20:
                if len(text) >= NOTE_CHARS:
                    break
                text += line + " "
            notes.append(f"{text[:NOTE_CHARS - 3]} {k}")
    return notes


def _q(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds per note")
    args = parser.parse_args()

    corpus = _chatterbot()
    benign = [(f"chatterbot:{lang}", line) for lang, lines in corpus.items() if lang != "english"
              for line in lines]
    benign += [(f"scripts:{r['lang']}", r["text"]) for r in _rows("*.jsonl") if r["label"] == "benign"]
    err.print(f"[dim]{len(benign)} benign texts in other languages[/]")
    found: Counter[str] = Counter({"refuse": 0, "hold": 0, "intl_refused": 0, "intl_held": 0})
    flagged: list[dict[str, str]] = []
    for source, text in benign:
        hits = threats.scan(text)
        verdict = threats.verdict(hits)
        found[verdict] += 1
        intl = [h for h in hits if h.pattern_id.startswith("intl.")]
        if intl:
            severity = "refused" if any(h.severity == "refuse" for h in intl) else "held"
            found[f"intl_{severity}"] += 1
            ids = ",".join(h.pattern_id for h in intl)
            flagged.append({"source": source, "text": text[:200], "ids": ids})

    attacks: Counter[str] = Counter()
    for row in _rows("*_calibration.jsonl"):
        if row["label"] == "attack":
            attacks[threats.verdict(threats.scan(row["text"]))] += 1

    notes = _notes(corpus)
    tables = threats.compiled()
    without = tables._replace(intl=(), intl_gates=(), intl_literals=(), intl_gate_index=GateIndex(()))
    with_ms: list[float] = []
    without_ms: list[float] = []
    real = threats.compiled
    err.print(f"[dim]timing {len(notes)} notes x {args.rounds} rounds[/]")
    try:
        for note in notes:
            best_with = best_without = float("inf")
            for _ in range(args.rounds):
                threats.compiled = real
                start = time.perf_counter()
                threats._scan(note, False, False)
                best_with = min(best_with, (time.perf_counter() - start) * 1000)
                threats.compiled = lambda: without  # type: ignore[assignment]
                start = time.perf_counter()
                threats._scan(note, False, False)
                best_without = min(best_without, (time.perf_counter() - start) * 1000)
            with_ms.append(best_with)
            without_ms.append(best_without)
    finally:
        threats.compiled = real

    print(json.dumps({
        "benign": {"texts": len(benign), **dict(found), "flagged": flagged},
        "attacks": {"texts": sum(attacks.values()), **dict(attacks)},
        "ms_per_2200_char_note": {
            "notes": len(notes),
            "p50": _q(with_ms, 0.5), "p95": _q(with_ms, 0.95),
            "baseline_p50": _q(without_ms, 0.5), "baseline_p95": _q(without_ms, 0.95),
            "extra_ms_p50": _q([a - b for a, b in zip(with_ms, without_ms, strict=True)], 0.5),
            "extra_ms_p95": _q([a - b for a, b in zip(with_ms, without_ms, strict=True)], 0.95),
        },
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
