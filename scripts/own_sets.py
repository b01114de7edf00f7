"""The sets written for silcrow in the shape of ``scripts/data/*_{train,calibration}.jsonl``: one
JSON object per line with ``text``, ``label`` (``attack`` or ``benign``), ``family``, ``group``
(a persona, template or scenario) and ``split``; every text of a group is in one split, and
``scripts/safety_split.py`` checks that no split has a near-twin in another. Their evaluation
thirds are ``bench/data/safety_*.jsonl`` files, read by ``bench/safety.py`` only."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "data"
#: Jailbreak prompts (personas, modes, simulations, authority claims, fiction), prompt
#: injections (goal hijacking, leaks, instructions inside documents and tool output,
#: exfiltration, encodings), benign notes in the same surface forms, latent injections (instructions
#: to the AI hidden in documents, tool output and web pages an agent reads) with their look-alikes,
#: and instruction-type attacks in fiction, hypothetical, game, simulation, translation and
#: completion framings with benign requests in the same framings.
NAMES = ("persona_attacks", "injection_attacks", "benign_notes2", "latent_attacks", "framing_attacks")
TRAIN = tuple(f"{name}_train.jsonl" for name in NAMES)
CALIBRATION = tuple(f"{name}_calibration.jsonl" for name in NAMES)


def rows(files: tuple[str, ...]) -> list[dict[str, str]]:
    """The rows of those of ``files`` (names in ``scripts/data``) that exist."""
    out: list[dict[str, str]] = []
    for name in files:
        path = DATA / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            out += [json.loads(line) for line in lines if line.strip()]
    return out
