"""What entry metadata, the archive and `memory review` cost.

    .venv/bin/python bench/upkeep.py [--ops 300] [--repeat 5]

Prints one JSON object on stdout (progress on stderr):

* ``write_path``: ops/s of an add/replace/remove churn on the curated notes with entry
  metadata kept (the real store) and, as the baseline in the same run, the same store on a
  backend whose ledger keeps nothing and whose journal is never folded: the ratio is what
  metadata costs the write path (target: >= 0.90, i.e. at most 10% slower). Kinds take
  turns; the median of ``--repeat`` runs is kept.
* ``details_ms``: ``memory show --details`` work (fold the journal, store the ledger) after
  the churn, median of 5.
* ``review``: the review pass on a full MEMORY.md and USER.md (default budgets) holding
  near-duplicates and contradictions, with the default embedder: ``cold_s`` includes loading
  the model, ``warm_s`` does not (target: cold <= 2 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from silcrow.store import FileBackend, MemoryStore
from silcrow.store._backend import LedgerDocument

console = Console(stderr=True)


class _NoLedger(LedgerDocument):
    def read(self) -> str:
        return ""

    def change(self, change: Any) -> None:
        return None


class _BaselineBackend(FileBackend):
    """The file backend as it was before metadata: no ledger, nothing folded at compaction."""

    def ledger(self) -> LedgerDocument:
        return _NoLedger()

    def fold_ledger(self) -> None:
        return None


def _churn(store: MemoryStore, ops: int) -> float:
    start = time.perf_counter()
    for n in range(ops // 3):
        store.add("memory", f"churn item {n} v0", origin="cli")
        store.replace("memory", f"churn item {n} v0", f"churn item {n} v1", origin="cli")
        store.remove("memory", f"churn item {n} v1", origin="cli")
    return (ops // 3 * 3) / (time.perf_counter() - start)


def _store(kind: str, root: Path) -> MemoryStore:
    home = Path(tempfile.mkdtemp(dir=root))
    cls = FileBackend if kind == "metadata" else _BaselineBackend
    store = MemoryStore(backend=cls(home / "memories", home=home))
    for n in range(15):  # a realistic file: about 15 entries already there
        store.add("memory", f"Seed fact number {n}: the project uses tool {n} for step {n}.", origin="cli")
    return store


def _full_notes(store: MemoryStore) -> None:
    memory = [
        "Project builds with make; tests run with make test.",
        "Project builds with make and the tests run with make test.",
        "Deploys go through the staging cluster first.",
        "CI runs on GitHub Actions.",
        "The API server lives in src/api and listens on port 8080.",
        "Releases are tagged vX.Y.Z and published from main.",
        "Database migrations live in migrations/ and are numbered.",
        "Use pnpm, not npm, for the web client.",
        "Always use pnpm for the web client, never npm.",
        "The staging database is refreshed every Sunday night.",
    ]
    user = [
        "User lives in Lisbon.", "User moved to Porto in March.", "Prefers dark mode in every editor.",
        "User prefers dark mode in all editors.", "Works at Acme as a data engineer.",
        "Name is Ana.", "Answers should be short and in English.", "Drinks green tea, no sugar.",
    ]
    for text in memory * 4:
        store.add("memory", text if text.endswith(".") else text + ".", origin="cli")
    for n, text in enumerate(memory * 4):
        store.reset_turn()
        store.add("memory", f"{text} (note {n})", origin="cli")
    store.reset_turn()  # the adds that overflowed MEMORY.md paused writes for "this turn"
    for text in user:
        store.add("user", text, origin="cli")
    for n in range(20):
        store.reset_turn()
        store.add("user", f"User's project number {n} is written in language {n}.", origin="cli")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"metadata": [], "baseline": []}
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console) as progress:
        root = Path(tmp)
        task = progress.add_task("write path", total=args.repeat * 2)
        for _ in range(args.repeat):
            for kind in ("baseline", "metadata"):
                rates[kind].append(_churn(_store(kind, root), args.ops))
                progress.advance(task)
        store = _store("metadata", root)
        _churn(store, args.ops)
        details = []
        for _ in range(5):
            start = time.perf_counter()
            store.details()
            details.append((time.perf_counter() - start) * 1000)
        full = MemoryStore(Path(tempfile.mkdtemp(dir=root)))
        _full_notes(full)
        task = progress.add_task("review", total=2)
        from silcrow.models import get_embedder

        start = time.perf_counter()
        findings = full.consolidate(embed=get_embedder("bge").embed)
        cold = time.perf_counter() - start
        progress.advance(task)
        warm_store = MemoryStore(Path(tempfile.mkdtemp(dir=root)))
        _full_notes(warm_store)
        embedder = get_embedder("bge")
        embedder.embed(["warm up"])
        start = time.perf_counter()
        warm_store.consolidate(embed=embedder.embed)
        warm = time.perf_counter() - start
        progress.advance(task)
        shape = {"memory_fullness": round(full.fullness("memory"), 2),
                 "user_fullness": round(full.fullness("user"), 2),
                 "entries": len(full.entries("memory")) + len(full.entries("user"))}
    with_meta, base = statistics.median(rates["metadata"]), statistics.median(rates["baseline"])
    out = {
        "write_path": {"metadata_ops_s": round(with_meta, 1), "baseline_ops_s": round(base, 1),
                       "ratio": round(with_meta / base, 3), "target_ratio": 0.9,
                       "ops": args.ops, "repeat": args.repeat},
        "details_ms": round(statistics.median(details), 2),
        "review": {"cold_s": round(cold, 3), "warm_s": round(warm, 3), "target_cold_s": 2.0,
                   **shape, "findings": len(findings)},
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
