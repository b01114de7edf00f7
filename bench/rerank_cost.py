"""What the optional reranker costs a search, by the length of the memories it reads.

    .venv/bin/python bench/rerank_cost.py [--lengths 10,25,50,100,200,800] [--runs 15]

Prints ONE JSON object on stdout: for each memory length in words, the p50/p95
milliseconds of one rerank (RERANK_DEPTH memories of that length read with a
question, as a search with ``reranker = "ms-marco"`` does), and the tokens each
pair was cut to. The cost grows with length only up to MAX_TOKENS (question and
memory together): past it every pair is the same size, so that row is the bound
whatever the turns hold. Baseline in the same run: the 10-word row (chat turns).
``mixed`` times the usual case, chat turns and a few long answers together, against
the same pairs read in one run padded to the longest (how the reranker read them
before it cut runs by length).
Memories are passages of CPython's pydoc help topics (bench/longturns.py says
where they come from).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from longturns import _words  # noqa: E402

from silcrow.models import _rerank as _rerank_model  # noqa: E402
from silcrow.models._rerank import MAX_TOKENS  # noqa: E402
from silcrow.recall.local import RecallHit, get_reranker  # noqa: E402
from silcrow.recall.local._rerank import RERANK_DEPTH, rerank  # noqa: E402

QUESTION = "How does the with statement make sure the file gets closed when an exception happens?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="10,25,50,100,200,800")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    reranker = get_reranker("ms-marco")
    assert reranker is not None
    words = [w for _, topic in _words() for w in topic]
    out: dict[str, object] = {"depth": RERANK_DEPTH, "max_tokens": MAX_TOKENS, "by_words": {}}
    rerank(reranker, QUESTION, [_hit(0, "warm up"), _hit(1, "and more")])
    for length in (int(x) for x in args.lengths.split(",") if x.strip()):
        hits = [_hit(i, " ".join(words[i * 997 % (len(words) - length) :][:length]))
                for i in range(RERANK_DEPTH)]
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            rerank(reranker, QUESTION, hits)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        out["by_words"][str(length)] = {  # type: ignore[index]
            "p50_ms": round(statistics.median(times), 1),
            "p95_ms": round(times[min(len(times) - 1, round(0.95 * (len(times) - 1)))], 1),
        }
    rows = out["by_words"]
    assert isinstance(rows, dict)
    first, last = next(iter(rows.values())), list(rows.values())[-1]
    out["longest_vs_shortest_p50"] = round(last["p50_ms"] / first["p50_ms"], 2)
    out["mixed"] = mixed(reranker, words, args.runs)
    sys.stdout.write(json.dumps(out) + "\n")


def mixed(reranker: Any, words: list[str], runs: int) -> dict[str, float]:
    """A search's usual candidates: chat turns of 10-25 words and a few long answers. Timed as
    the reranker reads them (runs of the model by length) and, in turn with it, as one run
    padded to the longest pair (the baseline)."""
    lengths = [10, 12, 15, 25, 800] * (RERANK_DEPTH // 5)
    hits = [_hit(i, " ".join(words[i * 997 % (len(words) - n) :][:n])) for i, n in enumerate(lengths)]

    def one_run(lengths: list[int], max_rows: int) -> list[list[int]]:
        return [list(range(len(lengths)))]

    times: dict[str, list[float]] = {"by_length": [], "one_run": []}
    for _ in range(runs):
        for name in times:
            patch = _rerank_model.runs
            if name == "one_run":
                _rerank_model.runs = one_run
            try:
                start = time.perf_counter()
                rerank(reranker, QUESTION, hits)
                times[name].append((time.perf_counter() - start) * 1000)
            finally:
                _rerank_model.runs = patch
    p50 = {name: statistics.median(t) for name, t in times.items()}
    return {"words": "4 of 10-25 words to 1 of 800", "p50_ms": round(p50["by_length"], 1),
            "one_run_p50_ms": round(p50["one_run"], 1),
            "vs_one_run": round(p50["by_length"] / p50["one_run"], 2)}


def _hit(i: int, text: str) -> RecallHit:
    return RecallHit(id=i, text=text, score=1.0 - i / 100, kind="turn", session_id="s", speaker="assistant",
                     timestamp=None, external_id=None)


if __name__ == "__main__":
    main()
