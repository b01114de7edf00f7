"""The latent-injection set (scripts/latent_attacks.py): the committed files are what the generator
writes, every carrier's texts are in one split, and the set has the shape the threat scanner's
training and evaluation expect."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import latent_attacks  # noqa: E402  (scripts/ is not a package)


def _committed() -> dict[str, list[dict[str, str]]]:
    return {split: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip()]
            for split, path in latent_attacks.OUT.items()}


def test_the_committed_files_are_what_the_generator_writes() -> None:
    assert latent_attacks.rows() == _committed()


def test_every_group_is_in_one_split_and_rows_are_in_their_files_split() -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for split, rows in _committed().items():
        for row in rows:
            assert row["split"] == split
            assert set(row) == {"text", "label", "family", "group", "split"}
            splits[row["group"]].add(split)
    assert all(len(s) == 1 for s in splits.values())
    # Every carrier has attacks and benign look-alikes, in its one split.
    labels: dict[str, set[str]] = defaultdict(set)
    for rows in _committed().values():
        for row in rows:
            labels[row["group"]].add(row["label"])
    carriers = [g for g in labels if not g.startswith("latent-doc-")]
    assert carriers and all(labels[g] == {"attack", "benign"} for g in carriers)


def test_the_set_has_the_asked_shape() -> None:
    rows = [r for split in _committed().values() for r in split]
    labels = Counter(r["label"] for r in rows)
    assert 1_700 <= len(rows) and 0.5 <= labels["attack"] / len(rows) <= 0.6
    attacks = [len(r["text"]) for r in rows if r["label"] == "attack"]
    short = sum(n < 300 for n in attacks) / len(attacks)
    long = sum(800 <= n <= 2_500 for n in attacks) / len(attacks)
    assert 0.2 <= short <= 0.4 and 0.25 <= long <= 0.4
    sizes = Counter(r["split"] for r in rows)
    assert sizes["train"] > sizes["eval"] > sizes["calibrate"]
    # Only the example domains, documentation addresses and the local host.
    for r in rows:
        for host in re.findall(r"[a-z]+://([^/\s'\"?)]+)", r["text"]):
            assert re.search(r"example\.|^(192\.0\.2|198\.51\.100|203\.0\.113)\.|^localhost", host), host
