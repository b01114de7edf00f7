"""How the local models cut a batch into runs (``models/_runs.py``): every text in exactly one
run, little padding without tiny runs, and the real models giving each text what it gets alone."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow.models import get_embedder
from silcrow.models._runs import RUN_COST, WIDTH_COST, pad, runs
from silcrow.recall.local import CrossEncoderReranker, get_reranker


def _cost(lengths: list[int], groups: list[list[int]]) -> float:
    total = 0.0
    for group in groups:
        w = max(lengths[i] for i in group)
        total += RUN_COST + len(group) * w * (1 + WIDTH_COST * w)
    return total


def _every_32(lengths: list[int]) -> list[list[int]]:
    """The cut the embedder made before: sorted by length, 32 texts a run."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    return [order[i : i + 32] for i in range(0, len(order), 32)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=256), max_size=150),
       st.integers(min_value=1, max_value=40))
def test_every_text_is_in_one_run_of_at_most_max_rows(lengths: list[int], max_rows: int) -> None:
    groups = runs(lengths, max_rows)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    assert all(1 <= len(g) <= max_rows for g in groups)
    # Runs are stretches of the sorted texts: no run's shortest is shorter than the last's longest.
    for before, after in zip(groups, groups[1:], strict=False):
        assert max(lengths[i] for i in before) <= min(lengths[i] for i in after)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=256), min_size=1, max_size=150))
def test_the_cut_costs_no_more_than_runs_of_32(lengths: list[int]) -> None:
    assert _cost(lengths, runs(lengths, 32)) <= _cost(lengths, _every_32(lengths)) + 1e-6


def test_texts_of_one_length_take_the_fewest_runs() -> None:
    assert len(runs([20] * 100, 32)) == 4  # no padding to save: a fifth run is pure cost
    assert len(runs([20] * 64, 32)) == 2


def test_a_few_long_texts_get_a_run_of_their_own() -> None:
    # An import's windows: mostly 15-40 tokens, a few of code-heavy text near 110.
    rng = random.Random(3)
    lengths = [rng.randint(15, 40) for _ in range(190)] + [rng.randint(90, 110) for _ in range(9)]
    groups = runs(lengths, 32)
    padded = sum(len(g) * max(lengths[i] for i in g) for g in groups)
    before = sum(len(g) * max(lengths[i] for i in g) for g in _every_32(lengths))
    assert padded < 0.92 * before
    assert all(max(lengths[i] for i in g) < 90 or min(lengths[i] for i in g) >= 90 for g in groups)


def test_no_texts_no_runs_and_a_bad_cap_is_refused() -> None:
    assert runs([], 32) == []
    with pytest.raises(ValueError, match="max_rows"):
        runs([3], 0)


def test_pad_fills_with_zero_and_masks_only_the_tokens() -> None:
    ids, mask = pad([[101, 7, 102], [101, 102]])
    assert ids.tolist() == [[101, 7, 102], [101, 102, 0]]
    assert mask.tolist() == [[1, 1, 1], [1, 1, 0]]
    assert ids.dtype == np.int64 and mask.dtype == np.int64


def _mixed_texts() -> list[str]:
    rng = random.Random(5)
    words = ("the garden shed roof leaked again so we moved the seedlings into the kitchen "
             "while the contractor argued about shingles and the price of copper flashing").split()
    return [" ".join(rng.choice(words) for _ in range(rng.choice((3, 8, 20, 60, 150)))) + f" #{n}"
            for n in range(70)]


@pytest.mark.parametrize("name", ["bge", "onnx"])
def test_each_text_gets_the_vector_it_gets_alone(name: str) -> None:
    embedder = get_embedder(name)
    texts = _mixed_texts()
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    # int8 dynamic quantisation scales each run by its own values, hence not exact.
    assert float(np.min(np.sum(together * alone, axis=1))) > 0.99


def test_the_reranker_scores_each_pair_as_it_does_alone() -> None:
    reranker = get_reranker("ms-marco")
    assert isinstance(reranker, CrossEncoderReranker)
    passages = _mixed_texts()[:40]
    together = reranker.scores("Who argued about the shingles?", passages)
    alone = np.array([reranker.scores("Who argued about the shingles?", [p])[0] for p in passages])
    # int8 dynamic quantisation again: a pair's logit moves by up to ~0.9 with its run (as much
    # as in one run of all 40); a run that let the padding be read moved them by 1.8.
    np.testing.assert_allclose(together, alone, atol=1.0)
    assert np.corrcoef(together, alone)[0, 1] > 0.99
    # The short answer among long passages is still found first.
    long = [p for p in passages if len(p.split()) > 50][:6]
    answer = "Melanie: the contractor argued with Dave about the shingles for an hour."
    scores = reranker.scores("Who argued about the shingles?", [*long[:3], answer, *long[3:]])
    assert int(np.argmax(scores)) == 3
