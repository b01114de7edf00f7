"""The framing set (scripts/framing_attacks.py): the committed files are what the generator writes,
every group's texts are in one split, and the set has the shape the threat scanner's training
and evaluation expect."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import framing_attacks  # noqa: E402  (scripts/ is not a package)

FIELDS = {"text", "label", "family", "group", "split", "lang"}


def _committed() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for split, path in framing_attacks.FILES.items():
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert all(r["split"] == split for r in rows), path
        out += rows
    return out


def test_the_committed_files_are_what_the_generator_writes() -> None:
    key = lambda r: (r["split"], r["group"], r["text"])  # noqa: E731
    assert sorted(framing_attacks.rows(), key=key) == sorted(_committed(), key=key)


def test_every_group_is_in_one_split() -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for row in _committed():
        assert set(row) == FIELDS and row["label"] in ("attack", "benign")
        splits[row["group"]].add(row["split"])
    assert splits and all(len(s) == 1 for s in splits.values())


def test_the_set_has_the_asked_shape() -> None:
    rows = _committed()
    labels = Counter(r["label"] for r in rows)
    assert len(rows) >= 1_700 and 0.5 <= labels["attack"] / len(rows) <= 0.6
    attacks = [r for r in rows if r["label"] == "attack"]
    long = sum(800 <= len(r["text"]) <= 2_500 for r in attacks) / len(attacks)
    short = sum(len(r["text"]) < 160 for r in attacks) / len(attacks)
    foreign = sum(r["lang"] != "en" for r in attacks) / len(attacks)
    assert 0.25 <= long <= 0.4 and 0.25 <= short <= 0.45 and 0.12 <= foreign <= 0.2
    # Both labels in every language and in every split.
    for key in ("lang", "split"):
        seen: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            seen[r[key]].add(r["label"])
        assert all(v == {"attack", "benign"} for v in seen.values()), key
    # Only the example domains and documentation addresses.
    for r in rows:
        for host in re.findall(r"[a-z]+://([^/\s'\"?)`]+)", r["text"]):
            assert re.search(r"example\.|^(192\.0\.2|198\.51\.100|203\.0\.113)\.", host), host
