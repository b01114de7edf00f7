"""Where the benchmarks find LoCoMo, and a clear error when it is not there.

LoCoMo (Maharana et al., 2024) is published at https://github.com/snap-research/locomo;
its ``data/locomo10.json`` holds ten conversations with their questions. The
repository states no licence for redistribution, so silcrow does not ship it:
download that file yourself and pass it with ``--dataset PATH`` (or set
``LOCOMO_DATA=PATH``; ``make bench LOCOMO=PATH`` does that). A file holding one
conversation of it works too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
from pathlib import Path
from typing import Any

ENV = "LOCOMO_DATA"
SOURCE = "https://github.com/snap-research/locomo (data/locomo10.json)"


def add_dataset_option(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``--dataset PATH``, defaulting to ``$LOCOMO_DATA``."""
    parser.add_argument("--dataset", type=Path, default=os.environ.get(ENV) or None,
                        help=f"LoCoMo JSON, one conversation or a list (default ${ENV}); from {SOURCE}"
                        + ("" if required else "; optional"))


def question_bench_args(description: str) -> argparse.Namespace:
    """The options of the benches that ask a conversation's questions of two memories:
    ``--dataset`` and ``--questions N``; exits with a clear message when the data is missing."""
    parser = argparse.ArgumentParser(description=description)
    add_dataset_option(parser)
    parser.add_argument("--questions", type=int, default=0, help="ask only the first N (0: all)")
    args = parser.parse_args()
    problem = missing(args.dataset)
    if problem:
        raise SystemExit(f"error: {problem}")
    return args


def search_times(latencies: list[float]) -> dict[str, float]:
    """The median and p95 of search latencies in ms, as every memory bench reports them."""
    ordered = sorted(latencies)
    return {"search_ms_median": round(statistics.median(ordered), 2),
            "search_ms_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2)}


def missing(path: Path | None) -> str:
    """Why ``path`` cannot be used ("" when it can)."""
    if path is None:
        return (f"no LoCoMo data given: download it from {SOURCE}, then pass --dataset PATH "
                f"or set {ENV}=PATH")
    if not path.is_file():
        return f"LoCoMo data not found at {path}: download it from {SOURCE} and pass its path with --dataset"
    return ""


def conversations(path: Path | None) -> list[dict[str, Any]]:
    """The conversations of the LoCoMo file at ``path``; exits with a clear message when missing."""
    problem = missing(path)
    if problem:
        raise SystemExit(f"error: {problem}")
    assert path is not None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SystemExit(f"error: cannot read {path} as LoCoMo JSON ({exc}); "
                         f"download it again from {SOURCE}") from None
    return data if isinstance(data, list) else [data]


def turns_and_questions(path: Path) -> tuple[list[tuple[str, dict[str, str]]], list[dict[str, Any]]]:
    """The first conversation's dialog turns, each with its session's name, in order, and its
    questions of categories 1-4 that name their evidence turns."""
    data = conversations(path)[0]
    conv = data.get("conversation", data)
    turns = [(name, turn) for name in sorted(k for k in conv if re.fullmatch(r"session_\d+", k) and conv[k])
             for turn in conv[name]]
    questions = [q for q in data["qa"] if q.get("category") != 5 and q.get("evidence")]
    return turns, questions
