"""Set the meaning stage's gate and thresholds on the calibration set alone, by a written rule.

Read by ``scripts/train_intent_head.py`` (after fitting a head, and with ``--recalibrate`` on
the shipped one). Every calibration text is scanned once, as ``MemoryStore.add`` scans it, with
the meaning stage reading every English note however little the n-gram model doubts it; what
the patterns and the decoding stage decide is kept as it is, and for the rest the evidence
(:class:`silcrow.safety._cascade.Evidence`) is decided again at each setting of the grid
(:func:`silcrow.safety._cascade.decide`), so the grid costs no second scan.

The calibration texts (none of them trained on; ``scripts/safety_split.py`` keeps them apart
from training and evaluation texts):

* ``scripts/data/safety_calibration.jsonl`` (``scripts/safety_sets.py``): attacks, developer
  notes (``dev_note``) and developer notes run together (``dev_note_long``);
* the ``*_calibration.jsonl`` sets written for silcrow (``own_sets.CALIBRATION``): attacks in the
  framings of jailbreak prompts, prompt injections, instructions hidden in documents and tool
  output, stories, games and simulations; the benign notes of ``benign_notes2`` (``own_benign``;
  a note over 600 characters counts as ``dev_note_long``); and the benign texts each attack set
  writes on its own carriers and framings (``lookalike``: a persona prompt for a concierge bot,
  an email telling its reader to ignore the previous one, a postmortem quoting jailbreaks);
* the precision budget's texts (``precision``): the n-gram model's calibration conversation
  (chatterbot-corpus) and agent instructions, and the conversation written for silcrow.

The rule:

1. Keep the settings within the precision budget: at most 0.25% of each calibration
   conversation held, at most one in 40 agent instructions, at most 2% of the short benign
   notes (``dev_note`` and ``own_benign``) not saved, and at most 12% of the look-alikes held
   (the twins of attacks, written to be as hard as can be: the models shipped before these
   sets held 11.6% of them, and no worse is the bar).
2. Security first: of those, the settings that refuse or hold the most calibration attacks, or
   within one percentage point of the most (the set's resolution).
3. Of them, the one that holds the fewest benign texts, short, run together and look-alikes, then catches
   the most attacks, then judges long notes window by window rather than part by part
   (``by_part``, the cheaper), then reads the fewest notes for meaning (the highest gate), then
   has the highest ``hold_at``.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
from own_sets import CALIBRATION
from own_sets import rows as own_rows

ROOT = Path(__file__).resolve().parent.parent
GATES = (0.0, 0.03, 0.06, 0.10)
HOLDS = tuple(round(float(h), 2) for h in np.arange(0.5, 0.99, 0.05))
RELEASES = tuple(round(float(r), 2) for r in np.arange(0.1, 0.95, 0.1))
STRONG = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
BUDGET = {"conversation": 0.0025, "conversation_own": 0.0025, "agent_instruction": 0.025,
          "short_benign": 0.02, "lookalike": 0.12}
#: The set of benign notes an agent's memory holds; the other sets' benign texts are look-alikes
#: (``lookalike``).
NOTES = "benign_notes2"
LONG_CHARS = 600


def calibration_rows() -> list[dict[str, str]]:
    """Every calibration row: text, label, and ``family`` (``attack``, ``dev_note``,
    ``dev_note_long`` or ``own_benign``)."""
    rows = [json.loads(line) for line in (ROOT / "scripts/data/safety_calibration.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    out = [{"text": r["text"], "label": r["label"],
            "family": "attack" if r["label"] == "attack" else r["family"]} for r in rows]
    for name in CALIBRATION:
        notes = name.startswith(NOTES)
        for r in own_rows((name,)):
            family = ("attack" if r["label"] == "attack" else "lookalike" if not notes
                      else "dev_note_long" if len(r["text"]) > LONG_CHARS else "own_benign")
            out.append({"text": r["text"], "label": r["label"], "family": family})
    return out


def read(head: Any, texts: list[str], embed: Callable[[list[str]], np.ndarray], by_part: bool) -> list[Any]:
    """Per text: its fixed verdict (``"accept"``, ``"hold"``, ``"refuse"``) when the patterns or
    the decoding stage decide it, else its :class:`Evidence` with the meaning stage's score."""
    from silcrow.safety import _cascade, _meaning
    from silcrow.safety import _threats as threats

    pieces: list[str] = []

    def record(parts: list[str]) -> list[float]:
        pieces.extend(parts)
        return [math.nan] * len(parts)

    captured: list[Any] = []
    real_evidence = _cascade.evidence

    def capture(text: str, read_from: float | None = None) -> Any:
        found = real_evidence(text, read_from=0.0, by_part=by_part)
        captured.append(found)
        return found

    saved = _meaning._SHARED
    real_score = head.score_each
    head.score_each = record
    _meaning._SHARED = head
    _cascade.evidence = capture  # type: ignore[assignment]
    out: list[Any] = []
    try:
        for index, text in enumerate(texts):
            captured.clear()
            hits = threats._scan(text, False, True)
            models_only = all(h.pattern_id.startswith(("learned.", "meaning.")) for h in hits)
            out.append(captured[-1] if captured and models_only else threats.verdict(hits))
            if index % 500 == 0:
                print(f"calibration: read {index}/{len(texts)}", file=sys.stderr)
    finally:
        _cascade.evidence = real_evidence  # type: ignore[assignment]
        _meaning._SHARED = saved
        head.score_each = real_score
        threats._CACHE.clear()
    read_pieces = sorted(set(pieces))
    scores = {}
    if read_pieces:
        scores = dict(zip(read_pieces, head.score_vectors(embed(read_pieces)), strict=True))
    return [replace(o, score=scores[o.piece]) if not isinstance(o, str) and o.score is not None else o
            for o in out]


def choose(head: Any, floor: float, precision: list[tuple[str, int, str]],
           embed: Callable[[list[str]], np.ndarray]) -> dict[str, object]:
    """The gate and thresholds the rule (module doc) picks for ``head``, with what each setting
    flags on the calibration set."""
    from silcrow.safety._cascade import Thresholds, decide

    rows = calibration_rows()
    groups = [r["family"] for r in rows] + [g for _, _, g in precision if g in BUDGET]
    texts = [r["text"] for r in rows] + [t for t, _, g in precision if g in BUDGET]
    readings = {by_part: read(head, texts, embed, by_part) for by_part in (False, True)}
    short = {"dev_note", "own_benign"}
    counts: dict[str, int] = {}
    for g in groups:
        key = "short_benign" if g in short else g
        counts[key] = counts.get(key, 0) + 1
    results = []
    holds = [h for h in HOLDS if h >= floor - 1e-9]
    for by_part, gate, hold_at, release_at, strong in product((False, True), GATES, holds, RELEASES, STRONG):
        at = Thresholds(gate, hold_at, release_at, strong)
        flagged = dict.fromkeys(counts, 0)
        for group, found in zip(groups, readings[by_part], strict=True):
            key = "short_benign" if group in short else group
            flagged[key] += found != "accept" if isinstance(found, str) else bool(decide(found, at))
        results.append((by_part, at, flagged))
    # What the budget on short benign notes costs: the most attacks caught at each count of them
    # held, the other budgets kept (printed, not used by the rule).
    within = {g for g in BUDGET if counts.get(g) and g != "short_benign"}
    others = [r for r in results if all(r[2][g] <= BUDGET[g] * counts[g] for g in within)]
    frontier: dict[int, int] = {}
    for r in others:
        frontier[r[2]["short_benign"]] = max(frontier.get(r[2]["short_benign"], 0), r[2]["attack"])
    print(json.dumps({"frontier": dict(sorted(frontier.items())[:40])}), file=sys.stderr)
    precise = [r for r in results if all(r[2][g] <= BUDGET[g] * counts[g] for g in BUDGET if counts.get(g))]
    pool = precise or results
    # Within one percentage point of the most attacks caught counts as the most (the
    # calibration set's resolution); of those, the fewest benign notes held, short and run
    # together, then the cheaper reading (whole windows, a higher gate).
    most = max(r[2]["attack"] for r in pool) - math.ceil(0.01 * counts["attack"])
    by_part, at, flagged = min((r for r in pool if r[2]["attack"] >= most), key=lambda r: (
        r[2]["short_benign"] + r[2].get("dev_note_long", 0) + r[2].get("lookalike", 0), -r[2]["attack"], r[0],
        -r[1].gate,
        -r[1].hold_at, r[1].release_at, r[1].strong_release_at))
    return {"by_part": by_part, "gate": at.gate, "hold_at": at.hold_at, "release_at": at.release_at,
            "strong_release_at": at.strong_release_at, "within_budget": bool(precise),
            "calibration_flagged": flagged, "calibration_counts": counts}
