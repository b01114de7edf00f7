"""In-memory vector index: exact search while small, an inverted-file index beyond.

Vectors are stored L2-normalised, so cosine similarity is one float32 dot
product. The rows live in *buckets*, each a contiguous float32 matrix with
amortised growth and an aligned int64 id array:

- Up to ``exact_limit`` rows (100k by default) there is one bucket and every
  search is exact: one mat-vec over all rows, then ``argpartition``.
- Past that, a float32 mat-vec over every row is memory-bound (1.5 GB at 1M
  rows of 384 dims), so the index trains spherical k-means centroids (about
  ``sqrt(n)`` of them) and files each row in the bucket of its nearest
  centroid (an IVF index). A search scores the centroids, scans the ``probe``
  fraction of buckets closest to the query exactly, and merges. New rows go
  straight into their nearest bucket; when the index has grown
  ``retrain_growth`` times since training, it re-trains so buckets stay near
  ``sqrt(n)`` rows.
- ``allowed`` (a tenant's ids, say) that is small is searched exactly over just
  those rows, because probing a few buckets could miss all of them; a large
  ``allowed`` set filters the probed candidates and widens the probe until
  ``k`` results are found.

Measured on 2 cores with MiniLM-derived vectors (bench/recall_scale.py and its
notes): exact search takes ~9 ms at 100k rows and ~100 ms at 1M; IVF at 1M
takes ~5 ms (recall@10 0.97 against exact) with probe 0.05 and ~13 ms (0.99)
with 0.12. The default probe, 0.1, sits between.

Pure numpy, no extra dependency; the SQL that stores the vectors stays the
source of truth and this index is rebuilt from it on open.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable

import numpy as np

from silcrow.errors import RecallError

__all__ = ["VectorIndex"]


class _Bucket:
    """A growable contiguous ``(capacity, dim)`` float32 matrix with aligned ids."""

    __slots__ = ("ids", "mat", "n")

    def __init__(self, dim: int, capacity: int = 16) -> None:
        self.mat = np.empty((capacity, dim), dtype=np.float32)
        self.ids = np.empty(capacity, dtype=np.int64)
        self.n = 0

    def append(self, ids: np.ndarray, vecs: np.ndarray) -> int:
        """Append rows; returns the slot of the first one."""
        start = self.n
        need = self.n + len(ids)
        if need > len(self.ids):
            # Growth by 1.5x keeps appends amortised O(1) with modest slack at 1M rows.
            cap = max(16, need, int(len(self.ids) * 1.5))
            mat = np.empty((cap, self.mat.shape[1]), dtype=np.float32)
            mat[: self.n] = self.mat[: self.n]
            new_ids = np.empty(cap, dtype=np.int64)
            new_ids[: self.n] = self.ids[: self.n]
            self.mat, self.ids = mat, new_ids
        self.mat[self.n : need] = vecs
        self.ids[self.n : need] = ids
        self.n = need
        return start

    def remove(self, slots: list[int]) -> list[tuple[int, int]]:
        """Delete rows by slot; the last row moves into each hole so rows stay contiguous.

        Returns ``(id, new_slot)`` for every row that moved. Going from the
        highest slot down means the row moved in is never one still to delete.
        """
        moved = []
        for slot in sorted(slots, reverse=True):
            last = self.n - 1
            if slot != last:
                self.mat[slot] = self.mat[last]
                self.ids[slot] = self.ids[last]
                moved.append((int(self.ids[slot]), slot))
            self.n = last
        return moved

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        return self.ids[: self.n], self.mat[: self.n]


def _matvec(mat: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``mat @ q`` on one thread.

    A mat-vec is memory-bound, so BLAS threads add little; and when the cores
    are busy (the embedding model, other processes) OpenBLAS's threads wait on
    each other: measured at 10k x 384 on two busy cores, 24 ms through 2-thread
    BLAS against 0.7 ms through einsum's single-threaded SIMD loop.
    """
    return np.einsum("ij,j->i", mat, q)


def _normalise(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=-1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    return np.ascontiguousarray(vecs / norms, dtype=np.float32)


class VectorIndex:
    """Cosine-similarity search over int64 ids; thread-safe.

    ``exact_limit``: rows searched exactly before the IVF index is trained.
    ``probe``: fraction of buckets scanned per IVF search (at least 8 buckets).
    ``gather_fraction``: an ``allowed`` set smaller than this fraction of the rows is
    searched exactly by gathering just its rows; a larger one filters a normal search.
    """

    def __init__(
        self,
        dim: int,
        *,
        exact_limit: int = 100_000,
        probe: float = 0.1,
        retrain_growth: float = 4.0,
        gather_fraction: float = 0.125,
        seed: int = 0,
    ) -> None:
        if dim < 0:
            raise RecallError(f"dim must be >= 0, got {dim}")
        if not 0.0 < probe <= 1.0 or retrain_growth <= 1.0 or exact_limit < 1:
            raise RecallError("need 0 < probe <= 1, retrain_growth > 1 and exact_limit >= 1")
        self.dim = dim
        self.exact_limit = exact_limit
        self.probe = probe
        self.retrain_growth = retrain_growth
        self.gather_fraction = gather_fraction
        self._rng = np.random.default_rng(seed)
        self._lock = threading.RLock()
        self._buckets: list[_Bucket] = [_Bucket(dim)]
        self._centroids: np.ndarray | None = None  # (nlist, dim) once trained
        self._trained_at = 0
        # id -> bucket << 32 | slot. One packed int per row keeps this map near 60 bytes a row.
        self._loc: dict[int, int] = {}

    # -- properties --------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._loc)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, int | np.integer) and int(item) in self._loc

    @property
    def is_exact(self) -> bool:
        """True while every search scans every row (no IVF index trained yet)."""
        return self._centroids is None

    @property
    def nlist(self) -> int:
        return len(self._buckets)

    # -- mutation ----------------------------------------------------------------------

    def add(self, ids: np.ndarray | Iterable[int], vectors: np.ndarray) -> None:
        """Add rows; an id already present has its vector replaced."""
        id_arr = np.asarray(list(ids) if not isinstance(ids, np.ndarray) else ids, dtype=np.int64).ravel()
        vecs = np.asarray(vectors, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape != (len(id_arr), self.dim):
            raise RecallError(f"vectors must have shape ({len(id_arr)}, {self.dim}), got {vecs.shape}")
        if len(np.unique(id_arr)) != len(id_arr):
            raise RecallError("ids passed to add() must be distinct")
        if not np.isfinite(vecs).all():
            raise RecallError("vectors contain NaN or infinity; re-embed those texts")
        if len(id_arr) == 0:
            return
        vecs = _normalise(vecs)
        with self._lock:
            present = [i for i in id_arr.tolist() if i in self._loc]
            if present:
                self._remove_locked(present)
            self._insert_locked(id_arr, vecs)
            n = len(self._loc)
            if self._centroids is None and n > self.exact_limit:
                self._train_locked()
            elif self._centroids is not None and n > self._trained_at * self.retrain_growth:
                self._train_locked()

    def remove(self, ids: Iterable[int]) -> int:
        """Remove rows by id (unknown ids are ignored); returns how many were removed."""
        with self._lock:
            return self._remove_locked([int(i) for i in ids])

    def _put(self, b: int, ids: np.ndarray, vecs: np.ndarray) -> None:
        start = self._buckets[b].append(ids, vecs)
        packed = (b << 32) + np.arange(start, start + len(ids), dtype=np.int64)
        self._loc.update(zip(ids.tolist(), packed.tolist(), strict=True))

    def _insert_locked(self, ids: np.ndarray, vecs: np.ndarray) -> None:
        if self._centroids is None:
            self._put(0, ids, vecs)
            return
        assign = self._assign(vecs)
        order = np.argsort(assign, kind="stable")
        cuts = np.flatnonzero(np.diff(assign[order])) + 1
        for group in np.split(order, cuts):
            self._put(int(assign[group[0]]), ids[group], vecs[group])

    def _remove_locked(self, ids: list[int]) -> int:
        by_bucket: dict[int, list[int]] = {}
        for i in ids:
            packed = self._loc.pop(i, None)
            if packed is not None:
                by_bucket.setdefault(packed >> 32, []).append(packed & 0xFFFFFFFF)
        for b, slots in by_bucket.items():
            for moved_id, slot in self._buckets[b].remove(slots):
                self._loc[moved_id] = (b << 32) | slot
        return sum(len(g) for g in by_bucket.values())

    # -- IVF training ------------------------------------------------------------------

    def _assign(self, vecs: np.ndarray, centroids: np.ndarray | None = None) -> np.ndarray:
        cents = self._centroids if centroids is None else centroids
        assert cents is not None
        out = np.empty(len(vecs), dtype=np.int64)
        for start in range(0, len(vecs), 16_384):  # bounds the (chunk, nlist) score matrix
            out[start : start + 16_384] = np.argmax(vecs[start : start + 16_384] @ cents.T, axis=1)
        return out

    def _train_locked(self) -> None:
        ids = np.concatenate([b.view()[0] for b in self._buckets])
        mat = np.concatenate([b.view()[1] for b in self._buckets])
        n = len(ids)
        nlist = max(16, int(math.sqrt(n)))
        sample = mat[self._rng.choice(n, size=min(n, nlist * 64), replace=False)]
        cents = sample[self._rng.choice(len(sample), size=nlist, replace=False)].copy()
        for _ in range(8):  # spherical k-means: assign by dot product, re-centre, re-normalise
            assign = self._assign(sample, cents)
            sums = np.zeros_like(cents)
            np.add.at(sums, assign, sample)
            counts = np.bincount(assign, minlength=nlist)
            empty = counts == 0
            if empty.any():  # re-seed empty clusters from random sample rows
                sums[empty] = sample[self._rng.choice(len(sample), size=int(empty.sum()), replace=False)]
            cents = _normalise(sums)
        self._centroids = cents
        self._buckets = [_Bucket(self.dim, capacity=0) for _ in range(nlist)]
        self._loc = {}
        self._insert_locked(ids, mat)
        self._trained_at = n

    # -- search ------------------------------------------------------------------------

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The ``k`` most similar rows as ``(id, cosine)``, best first (ties: lower id first).

        ``allowed``: optional int64 ids to restrict the search to.
        """
        q = np.asarray(query, dtype=np.float32).ravel()
        if q.shape != (self.dim,):
            raise RecallError(f"query must have shape ({self.dim},), got {q.shape}")
        if k <= 0 or self.dim == 0:
            return []
        q = _normalise(q)
        allow = None if allowed is None else np.asarray(allowed, dtype=np.int64).ravel()
        with self._lock:
            if not self._loc or (allow is not None and len(allow) == 0):
                return []
            if allow is not None and len(allow) < self.gather_fraction * len(self._loc):
                ids, scores = self._gather(q, allow)
            elif self._centroids is None:
                ids, scores = self._scan([0], q, allow)
            else:
                ids, scores = self._probe(q, k, allow)
        return _top_k(ids, scores, k)

    def _scan(
        self, buckets: Iterable[int], q: np.ndarray, allow: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        id_parts, score_parts = [], []
        for b in buckets:
            ids, mat = self._buckets[b].view()
            if len(ids) == 0:
                continue
            scores = _matvec(mat, q)
            if allow is not None:
                keep = np.isin(ids, allow)
                ids, scores = ids[keep], scores[keep]
            id_parts.append(ids)
            score_parts.append(scores)
        if not id_parts:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
        return np.concatenate(id_parts), np.concatenate(score_parts)

    def _gather(self, q: np.ndarray, allow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact search over a small allowed set: score only its rows, wherever they are."""
        loc = self._loc
        found = [(i, loc[i]) for i in np.unique(allow).tolist() if i in loc]
        if not found:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
        ids = np.fromiter((i for i, _ in found), dtype=np.int64, count=len(found))
        packed = np.fromiter((p for _, p in found), dtype=np.int64, count=len(found))
        buckets, slots = packed >> 32, packed & 0xFFFFFFFF
        scores = np.empty(len(found), dtype=np.float32)
        order = np.argsort(buckets, kind="stable")
        for sel in np.split(order, np.flatnonzero(np.diff(buckets[order])) + 1):
            scores[sel] = _matvec(self._buckets[int(buckets[sel[0]])].mat[slots[sel]], q)
        return ids, scores

    def _probe(self, q: np.ndarray, k: int, allow: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        assert self._centroids is not None
        nlist = len(self._buckets)
        nprobe = min(nlist, max(8, math.ceil(nlist * self.probe)))
        order = np.argsort(-_matvec(self._centroids, q), kind="stable")
        ids, scores = self._scan(order[:nprobe].tolist(), q, allow)
        while len(ids) < k and nprobe < nlist:  # a filter or sparse buckets left too few: widen
            more = order[nprobe : nprobe * 2].tolist()
            nprobe = min(nlist, nprobe * 2)
            extra_ids, extra_scores = self._scan(more, q, allow)
            ids, scores = np.concatenate([ids, extra_ids]), np.concatenate([scores, extra_scores])
        return ids, scores


def _top_k(ids: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    if len(ids) == 0:
        return []
    if k < len(ids):
        # Keep everything tied with the k-th score so the id tie-break below is honoured.
        kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
        keep = scores >= kth
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:k]
    return [(int(ids[i]), float(scores[i])) for i in order]
