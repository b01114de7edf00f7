"""Prefetch latency with one recall provider and with two at once: what the second one costs.

One command: ``python bench/multi_provider.py [--queries 60] [--delay-ms 50] [--memories 2000]``.
Prints ONE JSON object on stdout (progress on stderr)::

    {"queries": N, "memories": M, "delay_ms": 50, "deadline_s": 8.0,
     "one":   {"p50": a, "p95": b},            # providers = ["local"]: the baseline, same run
     "two":   {"p50": c, "p95": d},            # providers = ["local", "honcho"]
     "stand_in_alone": {"p50": e, "p95": f},   # providers = ["honcho"]: its own latency
     "added_ms": {"p50": c - a, "p95": d - b}, # what the second provider added
     "added_over_delay": {"p50": (c - a) / 50, ...},   # against the delay set
     "added_over_stand_in": {"p50": (c - a) / e, ...},  # against its measured latency
     "two_over_slowest": {"p50": c / max(a, e), ...},  # 1.0: in parallel; sum/max: in series
     "beyond_deadline": {"deadline_s": 1.0, "delay_ms": 3000, "p50": g, "p95": h,
                         "local_hits_share": 1.0, "stand_in_hits_share": 0.0}}

Each query is asked of the managers in turn (one, two, the stand-in alone), so the three are
measured under the same load; the figure is the wall time of ``MemoryManager.prefetch`` (what an
agent turn waits for), from a profile opened as an agent opens it (``Profile.recall``).

- ``local`` is the real local provider over ``--memories`` generated facts (its recall.db, the
  ``--embedder``, default the offline ONNX MiniLM) in a fresh home.
- ``honcho`` is the honcho adapter (the real honcho-ai client) against the loopback stand-in of
  the Honcho service (tests/testing_services/honcho.py, derived from the server's routes), told
  to wait ``--delay-ms`` before answering each context request: a hosted service's latency,
  set. Its answers are word overlap; only its time is the point here.
- ``beyond_deadline`` runs the two with the stand-in slower than the manager's deadline
  (``prefetch_timeout`` 1 s, delay 3 s): prefetch returns at the deadline with the local
  hits, the stand-in's are left out; once 4 of its calls are still running (the manager's
  ``max_stuck_calls``) it is not asked at all until one returns, so later turns cost local's
  time only.

The claim measured: with the providers asked in parallel under one deadline, ``two`` is close to
the slower of ``one`` and ``stand_in_alone`` (``two_over_slowest`` ~1), not their sum, so the
second provider adds at most its own latency.
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

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the stand-in services

from testing_services import HonchoStandIn  # noqa: E402

from silcrow.home import open_profile  # noqa: E402
from silcrow.recall import MemoryManager  # noqa: E402
from silcrow.recall.local import LocalProvider, RecallRecord  # noqa: E402

err = Console(stderr=True)
KEY = "bench-key"
# The stand-in slower than the deadline: 1 s given, 3 s taken (local answers well within 1 s).
SLOW_DEADLINE, SLOW_DELAY, SLOW_QUERIES = 1.0, 3.0, 10
PEOPLE = ["Ana", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"]
THINGS = [("bike", "red"), ("car", "grey"), ("cat", "Miso"), ("garden", "roses"), ("flat", "Lyon"),
          ("job", "nursing"), ("band", "jazz"), ("boat", "Selkie"), ("dog", "Pepper"), ("class", "Spanish")]
WHAT = {"bike": "colour", "car": "colour", "cat": "name", "garden": "flowers", "flat": "city",
        "job": "field", "band": "style", "boat": "name", "dog": "name", "class": "language"}


def facts(n: int) -> list[str]:
    """``n`` distinct facts about people and their things (a development set of our own)."""
    out = []
    for i in range(n):
        person = PEOPLE[i % len(PEOPLE)]
        thing, value = THINGS[(i // len(PEOPLE)) % len(THINGS)]
        out.append(f"{person}'s {thing} ({i}): the {WHAT[thing]} is {value} {i // 100}")
    return out


def questions(n: int) -> list[str]:
    return [f"What is the {WHAT[thing]} of {PEOPLE[i % len(PEOPLE)]}'s {thing}?"
            for i, (thing, _) in ((i, THINGS[i % len(THINGS)]) for i in range(n))]


def pcts(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 2),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def home_with(root: Path, providers: list[str], embedder: str) -> Path:
    listed = ", ".join(f'"{p}"' for p in providers)
    (root / "config.toml").write_text(f'embedder = "{embedder}"\n[recall]\nproviders = [{listed}]\n',
                                      encoding="utf-8")
    return root


def timed(fn: Callable[[], str]) -> tuple[float, str]:
    started = time.perf_counter()
    block = fn()
    return (time.perf_counter() - started) * 1000, block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--deadline", type=float, default=8.0, help="prefetch_timeout (s)")
    parser.add_argument("--embedder", default="onnx")
    args = parser.parse_args()
    asked = questions(args.queries)
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-multi-") as tmp, \
            HonchoStandIn(KEY) as service, Progress(console=err) as bar:
        import os

        os.environ.update(HONCHO_API_KEY=KEY, HONCHO_BASE_URL=service.base_url)
        home = home_with(Path(tmp), ["local", "honcho"], args.embedder)
        seeding = bar.add_task("storing the facts", total=args.memories)
        seed = LocalProvider(home, embedder=args.embedder)
        seed.initialize("bench-seed", home=str(home))
        records = [RecallRecord(text, kind="fact", session_id="bench-seed") for text in facts(args.memories)]
        seed.ingest(records, progress=lambda done: bar.update(seeding, completed=done))
        seed.shutdown()
        # One home: its config selects both; `provider` given as an argument selects one of them.
        managers: dict[str, MemoryManager] = {
            "one": open_profile(home, provider="local").recall("bench", prefetch_timeout=args.deadline),
            "two": open_profile(home).recall("bench", prefetch_timeout=args.deadline),
            "stand_in_alone": open_profile(home, provider="honcho").recall("bench",
                                                                           prefetch_timeout=args.deadline),
        }
        honcho = next(p for p in managers["two"].provider.providers if p.name == "honcho")  # type: ignore[union-attr]
        for i, text in enumerate(facts(20)):
            honcho.on_memory_write("add", "user", text + f" (hosted {i})")
        for manager in managers.values():  # warm: models loaded, clients connected
            manager.prefetch(asked[0], "bench-q")
        times: dict[str, list[float]] = {name: [] for name in managers}
        two_local = 0  # prefetches of the two that held local's hits
        task = bar.add_task("prefetch: one, two, the stand-in alone", total=len(asked))
        for question in asked:
            for name, manager in managers.items():
                if name != "one":
                    service.delay(args.delay_ms / 1000, only="/context")
                ms, block = timed(lambda m=manager, q=question: m.prefetch(q, "bench-q"))  # type: ignore[misc]
                times[name].append(ms)
                two_local += name == "two" and "] fact: " in block
            bar.advance(task)
        service.clear_faults()
        figures = {name: pcts(values) for name, values in times.items()}
        one, two, alone = figures["one"], figures["two"], figures["stand_in_alone"]

        # The stand-in slower than the deadline: prefetch returns at the deadline with local's hits.
        slow = open_profile(home).recall("bench-slow", prefetch_timeout=SLOW_DEADLINE)
        slow.prefetch(asked[0], "bench-q")  # warm, like the others
        slow_times, local_hits, hosted_hits = [], 0, 0
        late = bar.add_task("prefetch past the stand-in's deadline", total=min(SLOW_QUERIES, len(asked)))
        for question in asked[:SLOW_QUERIES]:
            service.delay(SLOW_DELAY, only="/context")
            ms, block = timed(lambda q=question: slow.prefetch(q, "bench-q"))  # type: ignore[misc]
            slow_times.append(ms)
            local_hits += "] fact: " in block  # local's lines: "[date] fact: ..."
            hosted_hits += "(hosted" in block
            bar.advance(late)
        service.clear_faults()
        for manager in [*managers.values(), slow]:
            manager.shutdown(timeout=5)
    result: dict[str, Any] = {
        "queries": len(asked), "memories": args.memories, "delay_ms": args.delay_ms,
        "deadline_s": args.deadline, "embedder": args.embedder, **figures,
        "added_ms": {k: round(two[k] - one[k], 2) for k in ("p50", "p95")},
        "added_over_delay": {k: round((two[k] - one[k]) / args.delay_ms, 3) for k in ("p50", "p95")},
        "added_over_stand_in": {k: round((two[k] - one[k]) / alone[k], 3) for k in ("p50", "p95")},
        "two_over_slowest": {k: round(two[k] / max(one[k], alone[k]), 3) for k in ("p50", "p95")},
        "two_over_sum": {k: round(two[k] / (one[k] + alone[k]), 3) for k in ("p50", "p95")},
        "two_local_hits_share": round(two_local / len(asked), 3),
        "beyond_deadline": {"deadline_s": SLOW_DEADLINE, "delay_ms": SLOW_DELAY * 1000, **pcts(slow_times),
                            "local_hits_share": round(local_hits / len(slow_times), 3),
                            "stand_in_hits_share": round(hosted_hits / len(slow_times), 3)},
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
