"""VectorIndex against a brute-force numpy reference, in exact and IVF modes."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from silcrow.errors import RecallError
from silcrow.recall.local._vectors import VectorIndex


def _unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _clustered(rng: np.random.Generator, n: int, dim: int, centres: int = 40) -> np.ndarray:
    """Unit vectors around a few centres, the shape real sentence embeddings have."""
    base = _unit(rng, centres, dim)
    noise = rng.standard_normal((n, dim)).astype(np.float32) / np.sqrt(dim)
    m = base[rng.integers(0, centres, n)] + 0.35 * noise
    return (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)


def _reference(ids: np.ndarray, mat: np.ndarray, q: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Float64 brute force over un-normalised rows: cosine computed from scratch."""
    m = mat.astype(np.float64)
    qq = q.astype(np.float64)
    cos = (m @ qq) / (np.linalg.norm(m, axis=1) * np.linalg.norm(qq))
    order = sorted(range(len(ids)), key=lambda i: (-cos[i], ids[i]))[:k]
    return [(int(ids[i]), float(cos[i])) for i in order]


def _assert_same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [i for i, _ in got] == [i for i, _ in want]
    np.testing.assert_allclose([s for _, s in got], [s for _, s in want], atol=1e-5)


def test_exact_search_equals_brute_force() -> None:
    rng = np.random.default_rng(1)
    ids = rng.permutation(10_000)[:3000].astype(np.int64) * 7 + 3  # sparse, unordered ids
    mat = rng.standard_normal((3000, 48)).astype(np.float32) * 5  # not normalised on purpose
    index = VectorIndex(48)
    index.add(ids, mat)
    assert len(index) == 3000 and index.is_exact
    for k in (1, 5, 37):
        for _ in range(5):
            q = rng.standard_normal(48).astype(np.float32)
            _assert_same(index.search(q, k), _reference(ids, mat, q, k))


def test_k_larger_than_n_and_degenerate_inputs() -> None:
    rng = np.random.default_rng(2)
    mat = _unit(rng, 5, 8)
    index = VectorIndex(8)
    assert index.search(mat[0], 3) == []
    index.add(np.arange(5), mat)
    hits = index.search(mat[2], 50)
    assert len(hits) == 5 and hits[0][0] == 2 and hits[0][1] == pytest.approx(1.0, abs=1e-6)
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert index.search(mat[2], 0) == []
    assert index.search(mat[2], 3, allowed=np.array([], dtype=np.int64)) == []


def test_ties_are_broken_by_lower_id() -> None:
    v = np.ones((6, 4), dtype=np.float32)
    index = VectorIndex(4)
    index.add(np.array([9, 3, 7, 1, 5, 2]), v)
    assert [i for i, _ in index.search(v[0], 3)] == [1, 2, 3]


def test_remove_and_replace() -> None:
    rng = np.random.default_rng(3)
    mat = _unit(rng, 200, 16)
    ids = np.arange(1000, 1200, dtype=np.int64)
    index = VectorIndex(16)
    index.add(ids, mat)
    gone = [1000, 1050, 1199, 424242]
    assert index.remove(gone) == 3 and len(index) == 197
    assert 1050 not in index and 1051 in index
    keep = ~np.isin(ids, gone)
    for q in mat[[0, 50, 199, 7]]:
        _assert_same(index.search(q, 10), _reference(ids[keep], mat[keep], q, 10))
    # Adding an id that exists replaces its vector instead of storing a second row.
    index.add(np.array([1007]), mat[[123]])
    assert len(index) == 197
    one = pytest.approx(1.0, abs=1e-6)
    assert index.search(mat[123], 2) == [(1007, one), (1123, one)]


def test_allowed_filter_equals_brute_force_on_the_subset() -> None:
    rng = np.random.default_rng(4)
    mat = _unit(rng, 2000, 24)
    ids = np.arange(2000, dtype=np.int64)
    index = VectorIndex(24)
    index.add(ids, mat)
    q = rng.standard_normal(24).astype(np.float32)
    for size in (150, 1200):  # gathered rows (small set) and a masked full scan (large set)
        allowed = rng.choice(2000, size, replace=False).astype(np.int64)
        allowed_plus_unknown = np.concatenate([allowed, [99_999, -5], allowed[:3]])
        want = _reference(allowed, mat[allowed], q, 10)
        _assert_same(index.search(q, 10, allowed=allowed_plus_unknown), want)
    index.remove(range(0, 2000, 2))  # rows moved by removal are still found through the id map
    odd = np.arange(1, 2000, 2, dtype=np.int64)
    few = odd[::9]
    _assert_same(index.search(q, 10, allowed=few), _reference(few, mat[few], q, 10))


def test_growth_by_single_rows() -> None:
    rng = np.random.default_rng(5)
    mat = _unit(rng, 700, 12)
    index = VectorIndex(12)
    for i in range(700):
        index.add(np.array([i]), mat[i : i + 1])
    q = mat[321]
    _assert_same(index.search(q, 8), _reference(np.arange(700), mat, q, 8))


def test_bad_input_is_refused_with_a_reason() -> None:
    index = VectorIndex(4)
    with pytest.raises(RecallError, match=r"shape \(2, 4\)"):
        index.add(np.array([1, 2]), np.ones((2, 3), dtype=np.float32))
    with pytest.raises(RecallError, match="distinct"):
        index.add(np.array([1, 1]), np.ones((2, 4), dtype=np.float32))
    with pytest.raises(RecallError, match="NaN"):
        index.add(np.array([1]), np.full((1, 4), np.nan, dtype=np.float32))
    with pytest.raises(RecallError, match=r"query must have shape \(4,\)"):
        index.search(np.ones(5, dtype=np.float32), 1)


def test_ivf_mode_recall_and_exactness_at_full_probe() -> None:
    rng = np.random.default_rng(6)
    n, dim = 6500, 32
    mat = _clustered(rng, n, dim)
    ids = np.arange(n, dtype=np.int64) * 2
    index = VectorIndex(dim, exact_limit=1000, probe=0.1)
    for start in range(0, n, 500):
        index.add(ids[start : start + 500], mat[start : start + 500])
        if start + 500 == 1000:
            assert index.is_exact
        if start + 500 == 1500:  # first training once past exact_limit: sqrt(n) buckets
            assert not index.is_exact and index.nlist == 38
    assert len(index) == n
    assert index.nlist == int(np.sqrt(6500))  # re-trained once grown past 4x the first training size
    queries = _clustered(rng, 40, dim)
    found = 0
    for q in queries:
        want = {i for i, _ in _reference(ids, mat, q, 10)}
        got = index.search(q, 10)
        assert len(got) == 10
        found += len(want & {i for i, _ in got})
    assert found / (10 * len(queries)) >= 0.9
    full = VectorIndex(dim, exact_limit=1000, probe=1.0)
    full.add(ids, mat)
    for q in queries[:5]:
        _assert_same(full.search(q, 10), _reference(ids, mat, q, 10))


def test_ivf_mode_allowed_remove_and_replace() -> None:
    rng = np.random.default_rng(7)
    n, dim = 5000, 16
    mat = _clustered(rng, n, dim)
    ids = np.arange(n, dtype=np.int64)
    index = VectorIndex(dim, exact_limit=1000, probe=0.05)
    index.add(ids, mat)
    q = _clustered(rng, 1, dim)[0]
    small = rng.choice(n, 200, replace=False).astype(np.int64)  # < 1/8 of the rows: gathered, exact
    _assert_same(index.search(q, 10, allowed=small), _reference(small, mat[small], q, 10))
    large = np.arange(0, n, 3, dtype=np.int64)  # probed, filtered, widened until k are found
    got = index.search(q, 25, allowed=large)
    assert len(got) == 25 and all(i % 3 == 0 for i, _ in got)
    top = index.search(q, 5)
    removed = [i for i, _ in top]
    assert index.remove(removed) == 5 and len(index) == n - 5
    assert not set(removed) & {i for i, _ in index.search(q, 50)}
    index.add(np.array([removed[0]]), q[None, :])  # back in, and now a perfect match
    assert index.search(q, 1)[0][0] == removed[0]


@settings(max_examples=40, deadline=None)
@given(
    ops=st.lists(
        st.tuples(st.sampled_from(["add", "remove", "search"]), st.integers(0, 60), st.integers(1, 12)),
        min_size=1,
        max_size=25,
    ),
    exact_limit=st.sampled_from([10_000, 40]),
)
def test_random_operation_sequences_match_a_dict_model(
    ops: list[tuple[str, int, int]], exact_limit: int
) -> None:
    rng = np.random.default_rng(len(ops))
    # probe=1.0 keeps IVF mode exact, so results must equal the model exactly in both modes.
    index = VectorIndex(6, exact_limit=exact_limit, probe=1.0)
    model: dict[int, np.ndarray] = {}
    for op, start, count in ops:
        if op == "add":
            new_ids = np.arange(start, start + count, dtype=np.int64)
            vecs = rng.standard_normal((count, 6)).astype(np.float32)
            index.add(new_ids, vecs)
            model.update(zip(new_ids.tolist(), vecs, strict=True))
        elif op == "remove":
            gone = list(range(start, start + count))
            assert index.remove(gone) == len(set(gone) & model.keys())
            for i in gone:
                model.pop(i, None)
        else:
            q = rng.standard_normal(6).astype(np.float32)
            keys = np.array(sorted(model), dtype=np.int64)
            want = _reference(keys, np.array([model[i] for i in keys]), q, count) if model else []
            _assert_same(index.search(q, count), want)
            some = keys[:: max(1, start % 11)]  # a tenant's share of the ids, from a few to all
            want = _reference(some, np.array([model[i] for i in some]), q, count) if len(some) else []
            _assert_same(index.search(q, count, allowed=np.append(some, 10_000)), want)
        assert len(index) == len(model)


def test_concurrent_adds_and_searches() -> None:
    rng = np.random.default_rng(8)
    mat = _unit(rng, 4000, 16)
    index = VectorIndex(16, exact_limit=1500)
    errors: list[BaseException] = []

    def writer(part: int) -> None:
        try:
            for start in range(part * 1000, part * 1000 + 1000, 100):
                index.add(np.arange(start, start + 100), mat[start : start + 100])
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    def reader() -> None:
        try:
            for i in range(200):
                hits = index.search(mat[i], 5)
                assert len(hits) <= 5
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(p,)) for p in range(4)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and len(index) == 4000
    assert index.search(mat[3999], 1)[0][0] == 3999
