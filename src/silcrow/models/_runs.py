"""How the local models cut a batch of tokenized texts into runs of the model.

A run pads every text to its longest, and the padding is computed like real
tokens. Sorted by length and cut every 32 texts, a batch whose few long texts
fall into one run with short ones is mostly padding there (an import's 24-word
windows of code-heavy text tokenize to 110 tokens; a search's candidates mix
chat turns with long answers). Cutting where the modelled cost of the runs is
least keeps the padding small without many tiny runs, each of which costs ONNX
Runtime a few milliseconds of dispatch whatever it holds.

The cost of a run of ``n`` texts padded to ``w`` tokens is modelled as
``RUN_COST + n * w * (1 + WIDTH_COST * w)`` token-equivalents: a fixed cost,
the layers' per-token work, and attention's, which grows with the width. The
two constants are fitted to bge-small's run times on two cores (a run of one
16-token text: ~5 ms; 32 x 64 tokens: ~0.18 s; 64 x 256: ~2.6 s); cuts move
little when they are off by half.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["pad", "runs"]

#: A run's fixed cost in padded tokens' worth of work.
RUN_COST = 40.0
#: Attention's work per padded token and token of width, relative to the rest of a token's.
WIDTH_COST = 0.002


def runs(lengths: Sequence[int], max_rows: int) -> list[list[int]]:
    """The texts' indices grouped into runs of at most ``max_rows``, shortest texts first.

    The runs are contiguous stretches of the texts sorted by length, cut where the
    modelled cost of all the runs is least (exactly, by dynamic programming over the
    cut points: ``len(lengths) * max_rows`` steps).
    """
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, not {max_rows}")
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    widths = [max(1, int(lengths[i])) for i in order]
    n = len(order)
    best = [0.0] + [float("inf")] * n  # best[j]: least cost of the first j texts
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        w = widths[j - 1]  # the longest of any run ending at j (sorted)
        per_row = w * (1.0 + WIDTH_COST * w)
        for i in range(max(0, j - max_rows), j):
            cost = best[i] + RUN_COST + (j - i) * per_row
            if cost < best[j]:
                best[j], cut[j] = cost, i
    out: list[list[int]] = []
    j = n
    while j > 0:
        out.append(order[cut[j]:j])
        j = cut[j]
    return out[::-1]


def pad(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token rows as one int64 matrix padded with 0 (BERT's [PAD]), and its attention mask."""
    width = max(len(row) for row in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for r, row in enumerate(rows):
        ids[r, : len(row)] = row
        mask[r, : len(row)] = 1
    return ids, mask
