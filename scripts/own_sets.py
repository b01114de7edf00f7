"""The sets written for silcrow in the shape of ``scripts/data/*_{train,calibration}.jsonl``: one
JSON object per line with ``text``, ``label`` (``attack`` or ``benign``), ``family``, ``group``
(a persona, template or scenario) and ``split``; every text of a group is in one split, and
``scripts/safety_split.py`` checks that no split has a near-twin in another. Their evaluation
thirds are ``bench/data/safety_*.jsonl`` files, read by ``bench/safety.py`` only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

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


# -- what the generators of the sets share ------------------------------------------------------

SPLITS = ("train", "calibrate", "eval")
T = TypeVar("T")


def third(i: int, n: int) -> str:
    """The split of the ``i``-th of ``n`` items: the first half train, the next fifth calibrate,
    the rest eval."""
    f = (i + 0.5) / n
    return "train" if f < 0.5 else "calibrate" if f < 0.7 else "eval"


def pools(items: Sequence[T]) -> dict[str, list[T]]:
    """``items`` cut by position into the three splits (:func:`third`)."""
    out: dict[str, list[T]] = {s: [] for s in SPLITS}
    for i, item in enumerate(items):
        out[third(i, len(items))].append(item)
    return out


def tenths(items: Sequence[T], split: str) -> list[T]:
    """The part of ``items`` that belongs to ``split``: positions 0-4 of every ten to train, 5-6
    to calibrate, 7-9 to eval."""
    cut = {"train": range(0, 5), "calibrate": range(5, 7), "eval": range(7, 10)}[split]
    return [x for i, x in enumerate(items) if i % 10 in cut]


def make_row(text: str, label: str, family: str, group: str, split: str, lang: str | None = None,
             ) -> dict[str, str]:
    """One row of a set, its fields in the order every set writes them (``lang`` for the sets
    that name each text's language)."""
    out = {"text": text, "label": label, "family": family, "group": group, "split": split}
    return out if lang is None else {**out, "lang": lang}


def jsonl_line(item: dict[str, str]) -> str:
    """One JSON line; the characters ``str.splitlines`` breaks on that JSON leaves raw are escaped,
    so every reader that splits the file into lines gets whole rows."""
    text = json.dumps(item, ensure_ascii=False)
    for char in ("\u2028", "\u2029", "\x85"):
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text + "\n"


def write(path: Path, items: list[dict[str, str]]) -> None:
    """Write ``items`` to ``path``, a JSON line each."""
    path.write_text("".join(jsonl_line(item) for item in items), encoding="utf-8")
