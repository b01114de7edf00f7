"""Benchmark of the approval gate's box when a flood has filled it to its bounds.

    .venv/bin/python bench/pending.py [--repeat 5]

Prints one JSON object on stdout (progress goes to stderr):

* ``full_box``: what the flood left: proposals, bytes of ``.pending.json`` and of the
  listing as REST returns it (``GET /v1/memory/pending``), and which bound refused it;
* ``ms``: median times of listing the pending proposals with their net effect
  (``review``), of one more proposal, refused by the full box (``propose_refused``)
  and of one approval (``approve``), with the full box and with a box holding one
  small proposal (the baseline, same run);
* ``ratios``: full box over baseline for each.

The flood is what a model holding a token could send: batch proposals of
``MAX_OPERATIONS`` replace steps, each step's content about 1.2 KB (a chain that
rewrites one entry, so the notes stay within their budget), from many sessions so
no caller's quota stops it first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from silcrow.store import MemoryStore, Proposer, current_proposer
from silcrow.store import _pending as pending
from silcrow.tool import memory_call


def _timed(action: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def _as(session: str, store: MemoryStore, call: dict[str, Any]) -> dict[str, Any]:
    token = current_proposer.set(Proposer(session=session, client="rest"))
    try:
        return dict(memory_call(store, call))
    finally:
        current_proposer.reset(token)


def _flood_batch(n: int) -> list[dict[str, str]]:
    ops, old = [], "seed entry"
    for k in range(pending.MAX_OPERATIONS):
        new = f"rewrite {n}.{k} " + "w" * 1200
        ops.append({"action": "replace", "old_text": old, "content": new})
        old = f"rewrite {n}.{k} "
    ops.append({"action": "replace", "old_text": old, "content": "seed entry"})
    return ops[: pending.MAX_OPERATIONS]


def _measure(home: Path, flood: bool, repeat: int) -> dict[str, Any]:
    store = MemoryStore(home, write_policy="approve")
    store.add("memory", "seed entry", origin="cli")
    refusal = ""
    if flood:
        for n in range(10 * pending.MAX_PENDING):
            result = _as(f"flood-{n}", store, {"target": "memory", "operations": _flood_batch(n)})
            if not result.get("pending"):
                refusal = str(result.get("error", ""))[:120]
                break
    else:
        _as("one", store, {"action": "add", "target": "memory", "content": "a small fact"})
    box = home / "memories" / pending.PENDING_FILE
    listing = json.dumps({"success": True, "pending": store.review()})
    out: dict[str, Any] = {
        "proposals": len(store.pending()),
        "box_bytes": box.stat().st_size,
        "listing_bytes": len(listing.encode("utf-8")),
        "refused_by": refusal,
    }
    extra = _as("late", store, {"action": "add", "target": "user",
                                "content": "User is allergic to penicillin"})
    out["review_ms"] = _timed(store.review, repeat)
    out["propose_ms"] = _timed(lambda: _as("other", store, {"action": "add", "target": "user",
                                                             "content": "Prefers tea"}), repeat)
    if extra.get("proposal_id"):
        out["approve_ms"] = _timed(lambda: store.approve(str(extra["proposal_id"])), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print("baseline: one small proposal", file=sys.stderr)
        base = _measure(Path(tmp) / "base", False, args.repeat)
        print("flood: filling the box to its bounds", file=sys.stderr)
        full = _measure(Path(tmp) / "full", True, args.repeat)
    keys = [k for k in ("review_ms", "propose_ms", "approve_ms") if k in base and k in full]
    print(json.dumps({
        "bounds": {"max_pending": pending.MAX_PENDING, "max_per_caller": pending.MAX_PER_CALLER,
                   "max_operations": pending.MAX_OPERATIONS, "max_proposal_bytes": pending.MAX_PROPOSAL_BYTES,
                   "max_box_bytes": pending.MAX_BOX_BYTES},
        "full_box": {k: full[k] for k in ("proposals", "box_bytes", "listing_bytes", "refused_by")},
        "baseline_box": {k: base[k] for k in ("proposals", "box_bytes", "listing_bytes")},
        "ms": {"full": {k: full[k] for k in keys}, "baseline": {k: base[k] for k in keys}},
        "ratios": {k.removesuffix("_ms"): round(full[k] / max(base[k], 0.01), 2) for k in keys},
    }, indent=1))


if __name__ == "__main__":
    main()
