"""Does SilcrowStorage find the right memory for CrewAI, and how fast, against CrewAI's own storage?

One command, in CrewAI's venv (``make .venv-crewai/.installed``): ``.venv-crewai/bin/python
bench/crewai_storage.py [--dataset PATH] [--questions N]``. Prints ONE JSON object on stdout
(progress on stderr).

On one LoCoMo conversation (``--dataset``, default ``$LOCOMO_DATA``; bench/locomo.py says where
to get it), every dialog turn is saved as one CrewAI ``MemoryRecord`` (``"speaker: text"``, its
dia_id in ``metadata``), one ``save`` per turn as ``Memory.remember`` makes them, and each
question of categories 1-4 is asked with ``search(vector, limit=10)``, the call CrewAI's recall
makes. Measured in the same run, with the same embedding model (silcrow's default, bge-small,
through ``SilcrowStorage.embedder``) and the same query vectors:

  silcrow   SilcrowStorage: the records are entries of the profile's notes (their character
            limit raised to hold the conversation), each save a write through the notes' gate
  lancedb   CrewAI's default storage, LanceDBStorage, in a temporary directory

``evidence_recall@k``: share of a question's evidence turns among the k records returned,
averaged over questions. ``save_s``: seconds to save every turn; ``search_ms``: median and p95 per
search (the query already embedded). ``refused``: turns the notes' threat scan refused.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
from crewai.memory.storage.lancedb_storage import LanceDBStorage
from crewai.memory.types import MemoryRecord
from rich.console import Console

from silcrow.errors import StoreError
from silcrow.integrations.crewai import SilcrowStorage

err = Console(stderr=True)
KS = (1, 5, 10)


def measure(storage: Any, records: list[MemoryRecord], questions: list[dict[str, Any]],
            vectors: list[list[float]], label: str) -> dict[str, Any]:
    refused = 0
    start = time.perf_counter()
    for n, record in enumerate(records):
        try:
            storage.save([record])
        except StoreError:
            refused += 1
        if n % 100 == 0:
            err.print(f"{label}: saved {n}/{len(records)}")
    save_s = time.perf_counter() - start
    found: dict[int, list[float]] = {k: [] for k in KS}
    latencies = []
    for q, vector in zip(questions, vectors, strict=True):
        start = time.perf_counter()
        hits = [r.metadata.get("dia_id") for r, _ in storage.search(vector, limit=max(KS))]
        latencies.append((time.perf_counter() - start) * 1000)
        wanted = set(q["evidence"])
        for k in KS:
            found[k].append(len(wanted & set(hits[:k])) / len(wanted))
    latencies.sort()
    return {
        **{f"evidence_recall@{k}": round(statistics.mean(v), 4) for k, v in found.items()},
        "save_s": round(save_s, 2), "refused": refused,
        **locomo.search_times(latencies),
    }


def main() -> None:
    args = locomo.question_bench_args(__doc__.split("\n")[0])
    turns, questions = locomo.turns_and_questions(args.dataset)
    if args.questions:
        questions = questions[:args.questions]
    err.print(f"{len(turns)} turns, {len(questions)} questions")
    with tempfile.TemporaryDirectory() as home:
        Path(home, "config.toml").write_text(
            'provider = "none"\nembedder = "bge"\n[memory]\nmemory_char_limit = 1000000\n', encoding="utf-8")
        ours = SilcrowStorage(home=home)
        texts = [f"{turn['speaker']}: {turn['text']}" for _, turn in turns]
        err.print("embedding the turns and questions once, for both")
        embedded = ours.embedder(texts)
        vectors = ours.embedder([q["question"] for q in questions])
        records = [MemoryRecord(content=text, scope="/conv", metadata={"dia_id": turn["dia_id"]},
                                embedding=vector)
                   for text, (_, turn), vector in zip(texts, turns, embedded, strict=True)]
        silcrow = measure(ours, records, questions, vectors, "silcrow")
        ours.close()
        lance = measure(LanceDBStorage(path=Path(home, "lancedb")), records, questions, vectors, "lancedb")
    ratios = {f"{key}_ratio": round(silcrow[key] / lance[key], 3) for key in silcrow if lance[key]}
    print(json.dumps({"dataset": args.dataset.name, "turns": len(turns), "questions": len(questions),
                      "silcrow": silcrow, "lancedb": lance, "ratios": ratios}))


if __name__ == "__main__":
    sys.exit(main())
