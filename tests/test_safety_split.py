"""The threat scanner's training, calibration and evaluation texts stay apart: a near-twin of a
text in another split (the same note with a word or a number changed) fails the check."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import safety_split  # noqa: E402  (scripts/ is not a package)


def test_no_split_has_a_near_twin_in_another() -> None:
    sets = safety_split.splits()
    assert len(sets["calibrate"]) >= 250 and len(sets["eval"]) >= 1_000 and len(sets["train"]) >= 5_000
    found = safety_split.cross_split(sets)
    shown = {pair: [(score, a[1][:60], b[1][:60]) for score, a, b in twins[:3]]
             for pair, twins in found.items() if twins}
    assert not shown, shown


def test_a_planted_near_twin_fails_the_check() -> None:
    sets = safety_split.splits()
    planted = ("planted", sets["train"][17][1].replace("the", "a", 1) + " 2026")
    sets["eval"] = [*sets["eval"], planted]
    found = safety_split.cross_split(sets)
    assert any(b == planted for _, _, b in found["train~eval"])
    assert not found["calibrate~eval"]


def test_near_twins_are_scored_by_normalised_words() -> None:
    left = [("a", "Rotate the npm token every 90 days"), ("a", "The kettle boils fast and looks great")]
    right = [("b", "rotate the NPM token every 30 days."), ("b", "Deploys need a manual approval step")]
    found = safety_split.near_twins(left, right)
    assert [(a[1], b[1]) for _, a, b in found] == [(left[0][1], right[0][1])]
    assert found[0][0] == 1.0  # case, punctuation and the number are normalised away
    # Too short to say anything about leakage: never paired.
    assert not safety_split.near_twins([("a", "Prefers tabs")], [("b", "prefers tabs")])


def test_the_training_conversation_is_kept_apart_from_the_calibration_one() -> None:
    import safety_sets

    train, calibrate = safety_sets.conversation(split="train"), safety_sets.conversation()
    assert len(train) >= 800 + safety_sets.TRAIN_COMPOSED_TURNS
    assert not set(train) & set(calibrate)
    # Its lines are in the training split, so the near-twin check compares them with
    # calibration and evaluation.
    sources = {src for src, _ in safety_split.splits()["train"]}
    assert {"conversation_train_own.txt", "dev_notes_train_own.txt"} <= sources
