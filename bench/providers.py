"""Recall providers side by side on LoCoMo: the table a user needs to choose one.

One command::

    python bench/providers.py --dataset locomo10.json [--k 5,10]

prints ONE JSON object on stdout (progress goes to stderr)::

    {"questions": N, "baseline": "local",
     "systems": {"local": {"recall@5": x, "recall@10": y, "ingest_turns_per_s": r,
                           "prefetch_ms": {"p50": a, "p95": b}}, "holographic": {...}, "mem0-local": {...}},
     "ratios": {"holographic": {"recall@10": x / x_local, "prefetch_p50": a / a_local,
                                "ingest_turns_per_s": r / r_local}, ...},
     "not_measured": {"hindsight": "...", ...}, "config": {...}}

The protocol is bench/recall.py's: each conversation's dialog turns are
stored in a fresh home, questions of categories 1-4 with evidence are asked,
and evidence recall@k is the share of a question's evidence turns (``D1:3``)
among the k distinct turns a system returns, averaged over questions.

What each system stores and how it is asked:

- ``local`` (the baseline, measured in the same run): ``LocalProvider.ingest``
  of the turns; ranked by ``LocalProvider.search`` (hybrid).
- ``holographic``: one fact per turn (``"Speaker: text"``, the fact_store
  ``add`` path); ranked by the ``fact_store search`` retrieval (FTS5 + Jaccard
  + HRR, times trust). Identical turns are one fact (the store is unique by
  content) and count as the first turn that said it.
- ``mem0-local``: the open-source mem0 with Qdrant on disk and the same ONNX
  MiniLM embedder, one ``Memory.add(infer=False)`` per turn (no LLM: the
  turn is stored verbatim); ranked by ``Memory.search``. Needs the mem0
  extra; skipped (and said so) without it.

``prefetch_ms`` times ``MemoryManager.prefetch(question)`` with the provider
behind it (what an agent turn waits for), the first call per question.
Providers that only run here against a stand-in (hindsight, honcho, ...) are
listed under ``not_measured``: a stand-in's word-overlap search says nothing
about the real service's quality or speed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
from recall import evidence_ids, recall_at  # bench/recall.py: the same protocol, one definition
from rich.console import Console
from rich.progress import Progress

from silcrow.models import Embedder, get_embedder
from silcrow.providers.holographic import HolographicProvider
from silcrow.recall import MemoryManager, MemoryProvider, parse_locomo
from silcrow.recall.local import LocalProvider, RecallRecord

err = Console(stderr=True)
BASELINE = "local"
NOT_MEASURED = {
    name: "runs here only against a loopback stand-in (word-overlap search), which says nothing about the "
    "real service's recall or speed"
    for name in ("honcho", "supermemory", "openviking", "retaindb", "hindsight", "byterover")
}
NOT_MEASURED["mem0-platform"] = NOT_MEASURED["hindsight"]


def turn_text(record: RecallRecord) -> str:
    return f"{record.speaker}: {record.text}" if record.speaker else record.text


class System:
    """One provider under test: how it stores the turns and how it ranks them for a question."""

    def __init__(self, provider: MemoryProvider, ingest: Callable[[list[RecallRecord]], None],
                 rank: Callable[[str, int], list[str]]) -> None:
        self.provider, self.ingest, self.rank = provider, ingest, rank


def local_system(home: Path, embedder: Embedder) -> System:
    provider = LocalProvider(home, embedder=embedder)
    provider.initialize("bench", home=home)

    def ingest(records: list[RecallRecord]) -> None:
        provider.ingest(records)

    def rank(question: str, k: int) -> list[str]:
        return [h.external_id or "" for h in provider.search(question, k).hits]

    return System(provider, ingest, rank)


def holographic_system(home: Path, embedder: Embedder) -> System:
    provider = HolographicProvider(home, config={})
    provider.initialize("bench", home=home)
    ids: dict[str, str] = {}

    def ingest(records: list[RecallRecord]) -> None:
        for record in records:
            text = turn_text(record)
            provider.store.add_fact(text)
            ids.setdefault(text.strip(), record.external_id or "")

    def rank(question: str, k: int) -> list[str]:
        hits = provider.retriever.search(question, min_trust=0.0, limit=k)
        return [ids.get(h["content"], "") for h in hits]

    return System(provider, ingest, rank)


def mem0_system(home: Path, embedder: Embedder) -> System:
    from silcrow.providers.mem0 import Mem0Provider

    (home / "config.toml").write_text('[recall.mem0]\nmode = "oss"\n', encoding="utf-8")
    provider = Mem0Provider(home, embedder=embedder)
    provider.initialize("bench", home=home, user_id="bench-user")
    backend = provider.backend()
    ids: dict[str, str] = {}

    def ingest(records: list[RecallRecord]) -> None:
        for record in records:
            text = turn_text(record)
            backend.add([{"role": "user", "content": text}], user_id="bench-user", agent_id="bench",
                        infer=False, metadata={})
            ids.setdefault(text, record.external_id or "")

    def rank(question: str, k: int) -> list[str]:
        hits = backend.search(question, filters={"user_id": "bench-user"}, top_k=k, rerank=False)
        return [ids.get(h["memory"], "") for h in hits]

    return System(provider, ingest, rank)


BUILDERS: dict[str, Callable[[Path, Embedder], System]] = {
    "local": local_system, "holographic": holographic_system, "mem0-local": mem0_system,
}


def run(args: argparse.Namespace) -> dict[str, Any]:
    conversations = locomo.conversations(args.dataset)
    ks = sorted({int(x) for x in args.k.split(",") if x.strip()})
    kmax = max(ks)
    embedder = get_embedder(args.embedder)
    embedder.embed(["warm up"])  # load the model first: ingest rates should not include it
    names = [n for n in args.systems.split(",") if n.strip()]
    not_measured = dict(NOT_MEASURED)
    if "mem0-local" in names and importlib.util.find_spec("mem0") is None:
        names.remove("mem0-local")
        not_measured["mem0-local"] = 'the mem0 extra is not installed: pip install "silcrow[mem0]"'
    scores: dict[str, dict[int, list[float]]] = {n: defaultdict(list) for n in names}
    prefetch_ms: dict[str, list[float]] = defaultdict(list)
    ingest_seconds: dict[str, float] = defaultdict(float)
    turns = questions = 0
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-providers-") as tmp, Progress(console=err) as bar:
        for n, conv in enumerate(conversations):
            records = parse_locomo(conv, source=f"conversation {n}")
            qa = [q for q in conv.get("qa", []) if q.get("category") in (1, 2, 3, 4) and evidence_ids(q)]
            turns += len(records)
            questions += len(qa)
            for name in names:
                home = Path(tmp) / f"{name}-{n}"
                home.mkdir()
                system = BUILDERS[name](home, embedder)
                task = bar.add_task(f"conv {n} {name}: ingest {len(records)} turns", total=None)
                start = time.perf_counter()
                system.ingest(records)
                ingest_seconds[name] += time.perf_counter() - start
                bar.update(task, total=1, completed=1)
                manager = MemoryManager(prefetch_timeout=60.0)
                manager.add_provider(system.provider)
                task = bar.add_task(f"conv {n} {name}: {len(qa)} questions", total=len(qa))
                for q in qa:
                    question, evidence = str(q["question"]), evidence_ids(q)
                    start = time.perf_counter()
                    manager.prefetch(question)
                    prefetch_ms[name].append((time.perf_counter() - start) * 1000)
                    ranked = system.rank(question, kmax)
                    for k in ks:
                        scores[name][k].append(recall_at(ranked, evidence, k))
                    bar.advance(task)
                manager.shutdown(timeout=60)

    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 4) if values else 0.0

    def pct(values: list[float], p: float) -> float:
        ordered = sorted(values)
        if not ordered:
            return 0.0
        return round(ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))], 2)

    systems = {
        name: {**{f"recall@{k}": mean(scores[name][k]) for k in ks},
               "ingest_turns_per_s": round(turns / ingest_seconds[name], 1) if ingest_seconds[name] else 0.0,
               "prefetch_ms": {"p50": round(statistics.median(prefetch_ms[name]), 2) if prefetch_ms[name]
                               else 0.0, "p95": pct(prefetch_ms[name], 0.95)}}
        for name in names
    }

    def ratio(a: float, b: float) -> float:
        return round(a / b, 3) if b else 0.0

    base = systems.get(BASELINE)
    ratios = {} if base is None else {
        name: {**{f"recall@{k}": ratio(s[f"recall@{k}"], base[f"recall@{k}"]) for k in ks},
               "ingest_turns_per_s": ratio(s["ingest_turns_per_s"], base["ingest_turns_per_s"]),
               "prefetch_p50": ratio(s["prefetch_ms"]["p50"], base["prefetch_ms"]["p50"])}
        for name, s in systems.items() if name != BASELINE
    }
    return {"questions": questions, "baseline": BASELINE, "systems": systems, "ratios": ratios,
            "not_measured": {k: v for k, v in not_measured.items() if k not in systems},
            "config": {"embedder": embedder.name, "conversations": len(conversations), "turns": turns,
                       "k": ks}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    locomo.add_dataset_option(parser)
    parser.add_argument("--k", default="5,10", help="comma-separated cut-offs (default 5,10)")
    parser.add_argument("--embedder", default="bge", help="embedder for local and mem0-local (default bge)")
    parser.add_argument("--systems", default=",".join(BUILDERS), help=f"comma-separated, of {list(BUILDERS)}")
    args = parser.parse_args()
    unknown = set(args.systems.split(",")) - set(BUILDERS)
    if unknown:
        parser.error(f"unknown systems {sorted(unknown)}; choose among {list(BUILDERS)}")
    result = run(args)
    err.print(result["systems"])
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
