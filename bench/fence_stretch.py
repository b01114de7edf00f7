"""How long does fencing a large recall hold the interpreter lock in one stretch?

One command: ``python bench/fence_stretch.py [--runs 15] [--facts 50]``. Prints ONE JSON object on
stdout (progress on stderr).

A server screens and fences recalled text on a worker thread, but one ``re`` call never lets go
of the interpreter lock, so the event loop waits for the longest single call of the screening.
The block measured is what a search of ``--facts`` facts at the size cap gives (one recalled line
per fact, as ``recall_search`` answers): the facts of tests/test_serve_limits.py (one sentence
repeated) and facts made of the notes in bench/data/safety_notes.jsonl. Each is fenced with
``build_memory_context_block``, the cached verdicts cleared before each run, two ways in the same
run:

  whole      every regex and per-character map given the whole block in one call (the baseline:
             what the fence did before its calls were bounded)
  stretched  the calls of silcrow.safety._bounded: short calls with the same results

Figures, per way: ``longest_hold_ms``, the longest gap a ticker thread saw between two of its
turns while the block was fenced (``sys.setswitchinterval`` set to 0.5 ms, so the gap is the
longest call that could not be interrupted, plus a switch); ``longest_call_cpu_ms``, the CPU time
of the longest single built-in call (from a profile hook, unaffected by other processes taking the
CPU; a step of a ``finditer`` loop is no call, so a long one shows only in the ticker's gap);
``total_ms``, the wall time of one fencing without ticker or hook. p50/p95 over the runs.
``same_output`` says whether the two ways gave the same block.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from rich.console import Console

from silcrow.recall import MAX_FACT_CHARS
from silcrow.recall.policy import hit_lines
from silcrow.safety import _bounded, _threats, build_memory_context_block

err = Console(stderr=True)
ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "bench" / "data" / "safety_notes.jsonl"
SENTENCE = "The green boat sails past the harbour lights at dawn while gulls follow it. "


def _block(facts: list[str]) -> str:
    return hit_lines({"id": n + 1, "text": fact, "kind": "fact", "date": "2026-01-01"}
                     for n, fact in enumerate(facts))


def blocks(count: int) -> dict[str, str]:
    """The recalled text of a search that found ``count`` facts at the size cap, two kinds."""
    repeated = [f"Fact {n}: " + SENTENCE * ((MAX_FACT_CHARS - 20) // len(SENTENCE)) for n in range(count)]
    lines = NOTES.read_text(encoding="utf-8").splitlines()
    notes = [json.loads(line)["text"] for line in lines if line.strip()]
    varied = []
    for n in range(count):
        fact = f"Fact {n}:"
        k = n
        while len(fact) < MAX_FACT_CHARS - 200:
            fact += " " + notes[k % len(notes)]
            k += 7
        varied.append(fact[:MAX_FACT_CHARS])
    return {"repeated_sentence": _block(repeated), "varied_notes": _block(varied)}


def _fresh() -> None:
    with _threats._CACHE_LOCK:
        _threats._CACHE.clear()


def longest_gap(work: Callable[[], Any]) -> float:
    """The longest a ticker thread waited between two turns while ``work`` ran, in seconds."""
    done = threading.Event()
    longest = 0.0

    def tick() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0)
            now = time.perf_counter()
            longest, last = max(longest, now - last), now

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.01)
    try:
        work()
    finally:
        done.set()
        ticker.join()
    return longest


def longest_call_cpu(work: Callable[[], Any]) -> float:
    """The CPU time of the longest built-in call ``work`` made, in seconds."""
    longest = 0.0
    started = 0.0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal longest, started
        if event == "c_call":
            started = time.thread_time()
        elif event in ("c_return", "c_exception"):
            longest = max(longest, time.thread_time() - started)

    sys.setprofile(hook)
    try:
        work()
    finally:
        sys.setprofile(None)
    return longest


def _stats(values: list[float]) -> dict[str, float]:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return {"p50": round(statistics.median(ms), 2), "p95": round(p95, 2), "max": round(ms[-1], 2)}


def measure(text: str, way: Callable[[], AbstractContextManager[None]], runs: int) -> dict[str, Any]:
    def fence() -> str:
        with way():
            return build_memory_context_block(text)

    holds, calls, totals = [], [], []
    for _ in range(runs):
        _fresh()
        holds.append(longest_gap(fence))
        _fresh()
        calls.append(longest_call_cpu(fence))
        _fresh()
        start = time.perf_counter()
        fence()
        totals.append(time.perf_counter() - start)
    return {"longest_hold_ms": _stats(holds), "longest_call_cpu_ms": _stats(calls),
            "total_ms": _stats(totals)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fencings per way and block (default 15)")
    parser.add_argument("--facts", type=int, default=50, help="facts the search found (default 50)")
    args = parser.parse_args()
    sys.setswitchinterval(0.0005)
    _threats.scan("warm up: compile the tables")
    result: dict[str, Any] = {"runs": args.runs, "facts": args.facts, "switch_interval_ms": 0.5}
    for name, text in blocks(args.facts).items():
        err.print(f"[bold]{name}[/bold]: {len(text):,} characters")
        with _bounded.whole_calls():
            _fresh()
            whole_block = build_memory_context_block(text)
        _fresh()
        same = build_memory_context_block(text) == whole_block
        figures: dict[str, Any] = {"block_chars": len(text), "same_output": same}
        for way_name, way in (("whole", _bounded.whole_calls), ("stretched", nullcontext)):
            err.print(f"  {way_name} ({args.runs} runs)")
            figures[way_name] = measure(text, way, args.runs)
        whole, stretched = figures["whole"], figures["stretched"]
        figures["hold_ratio_p50"] = round(
            whole["longest_hold_ms"]["p50"] / max(stretched["longest_hold_ms"]["p50"], 1e-3), 1)
        figures["call_cpu_ratio_p50"] = round(
            whole["longest_call_cpu_ms"]["p50"] / max(stretched["longest_call_cpu_ms"]["p50"], 1e-3), 1)
        result[name] = figures
    print(json.dumps(result))


if __name__ == "__main__":
    main()
