"""Scale benchmark of the local recall provider: 10k, 100k and 1M memories.

    .venv/bin/python bench/recall_scale.py [--sizes 10000,100000,1000000] [--queries 200]

Prints ONE JSON object on stdout (progress goes to stderr). What is real and
what is synthetic (also written into the JSON under "method"):

- Texts are synthetic conversation turns made from templates (names, places,
  activities, dates), grouped into sessions of 20 turns between two speakers.
- Ingestion rate with embeddings is measured for real: ``--ingest-turns``
  turns through ``LocalProvider.ingest`` with the offline ONNX MiniLM model, in
  a fresh home (so it includes blending each turn's vector with its
  neighbouring turns' vectors, the FTS5 context columns and the SQLite writes).
- Embedding 1M texts for real would take about an hour on two cores, so for
  the 10k/100k/1M stores each row's vector is *derived*: ``--real-texts``
  distinct synthetic texts are embedded for real once, and a row gets the real
  embedding of one of them (chosen by a hash of the text the provider asks to
  embed) plus Gaussian noise (``--sigma`` per dimension, cosine ~0.9 to its
  source), re-normalised. Rows still go through the real ``LocalProvider``
  (SQLite, FTS5, VectorIndex); only the model call is replaced. Sizes above
  ``--provider-max`` (default 1M, so none) use a direct FTS5 + VectorIndex
  path instead, marked as such under the size's "path".
- Searches are timed per mode (hybrid, the default; lexical only; dense only),
  then the VectorIndex alone is compared with an exact scan of the same rows
  (latency and recall@k of the index against exact).
- Queries are distinct synthetic questions embedded for real by the ONNX
  model at search time, so the measured latency includes the query embedding
  (the embedder's query cache never hits).
- Baseline, same vectors, same run: the search anyone writes first, exact
  cosine in float64 over un-normalised vectors (norms recomputed per query)
  and a full sort, also with the real query embedding included.

Each size runs in its own subprocess so resident memory is that size's alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from silcrow.models import Embedder, OnnxMiniLMEmbedder
from silcrow.recall.local import LocalProvider, RecallRecord
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._vectors import VectorIndex

ERR = Console(stderr=True)

NAMES = (
    "Caroline Melanie Jon Gina John Maria Audrey Andrew James Tim Evan Sam Joanna Nate Deborah Jolene "
    "Calvin Dave Priya Omar Lena Tomas Aiko Ravi Nadia Felix Ingrid Kwame Sofia Mateo"
).split()
PLACES = (
    "beach park museum library bakery gym studio lake cabin market concert hall pottery class "
    "animal shelter art gallery hiking trail community garden bookstore cafe farm festival stadium "
    "support group campground aquarium"
).split(" ")
ACTIVITIES = (
    "painting a sunset|running a charity race|adopting a puppy|learning the violin|baking sourdough|"
    "volunteering at the shelter|planting tomatoes|writing a short story|fixing an old bike|"
    "taking a pottery class|camping with the kids|reading a fantasy novel|training for a marathon|"
    "starting a new job|visiting my grandmother|building a treehouse|practising yoga|"
    "photographing birds|cooking a curry|knitting a scarf|playing chess online|restoring a car|"
    "studying for an exam|moving to a new apartment|going to a pride parade|joining a book club"
).split("|")
FEELINGS = "thrilled calm nervous proud exhausted grateful curious inspired relieved homesick".split()
TEMPLATES = (
    "I went to the {place} {when} and spent the afternoon {activity}.",
    "Honestly I've been {feeling} since I started {activity} {when}.",
    "Did you ever try {activity}? I did it at the {place} {when}.",
    "{other} told me about {activity}, so we went to the {place} {when}.",
    "The best part of my week was {activity} at the {place}; I felt {feeling}.",
    "I'm thinking about {activity} again, the {place} has a group that meets on {day}.",
    "We should meet at the {place} on {day}, I want to tell you about {activity}.",
    "After {activity} I felt so {feeling}, it reminded me of the {place}.",
)
QUESTIONS = (
    "When did {name} go to the {place}?",
    "What did {name} say about {activity}?",
    "How did {name} feel after {activity}?",
    "Who told {name} about the {place}?",
    "What does {name} do on {day}?",
    "Where did {name} go {when}?",
)
WHEN = (
    "yesterday|last weekend|last Sunday|two weeks ago|in May|last summer|this morning|on my birthday"
).split("|")
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def synthetic_turns(n: int, seed: int, start_id: int = 0) -> list[RecallRecord]:
    """``n`` distinct turns in sessions of 20 alternating between two speakers, one minute apart."""
    rng = random.Random(seed * 1_000_003 + start_id)
    t0 = datetime(2023, 1, 1, tzinfo=UTC)
    out: list[RecallRecord] = []
    for i in range(start_id, start_id + n):
        session = i // 20
        pair = (NAMES[session % len(NAMES)], NAMES[(session * 7 + 3) % len(NAMES)])
        speaker = pair[i % 2]
        text = rng.choice(TEMPLATES).format(
            place=rng.choice(PLACES), when=rng.choice(WHEN), activity=rng.choice(ACTIVITIES),
            feeling=rng.choice(FEELINGS), other=rng.choice(NAMES), day=rng.choice(DAYS),
        )
        out.append(RecallRecord(
            text=text, kind="turn", session_id=f"s{session}", speaker=speaker,
            timestamp=t0 + timedelta(minutes=i),
        ))
    return out


def synthetic_queries(n: int, seed: int) -> list[str]:
    rng = random.Random(seed + 99)
    seen: set[str] = set()
    while len(seen) < n:
        seen.add(rng.choice(QUESTIONS).format(
            name=rng.choice(NAMES), place=rng.choice(PLACES), activity=rng.choice(ACTIVITIES),
            day=rng.choice(DAYS), when=rng.choice(WHEN),
        ))
    return sorted(seen)


def derived_rows(
    texts: Sequence[str], basis: np.ndarray, sigma: float, rng: np.random.Generator | np.ndarray
) -> np.ndarray:
    """Unit rows: the real embedding picked by crc32 of each text, plus Gaussian noise: drawn
    from ``rng``, or taken from the text itself (the mean of two rows of the table ``rng``
    picked by two hashes of it), so that a text gets the same row whichever batch it is
    embedded in: stores that batch differently hold the same vectors."""
    encoded = [t.encode("utf-8") for t in texts]
    pick = np.fromiter((zlib.crc32(t) % len(basis) for t in encoded), dtype=np.int64, count=len(texts))
    if isinstance(rng, np.ndarray):
        digest = np.frombuffer(b"".join(hashlib.blake2b(t, digest_size=8).digest() for t in encoded),
                               dtype="<u4").reshape(len(texts), 2) % len(rng)
        noise = (rng[digest[:, 0]] + rng[digest[:, 1]]) * np.float32(np.sqrt(0.5))
    else:
        noise = rng.standard_normal((len(texts), basis.shape[1]), dtype=np.float32)
    rows = basis[pick] + noise * sigma
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


class DerivedEmbedder(Embedder):
    """Bench only: row vectors derived from real embeddings; queries embedded for real."""

    def __init__(self, basis: np.ndarray, real: Embedder, sigma: float, seed: int) -> None:
        super().__init__()
        self.name = f"bench-derived:{real.name}"
        self.dim = real.dim
        self._basis = basis
        self._real = real
        self._sigma = sigma
        self._noise = np.random.default_rng(seed).standard_normal((4096, real.dim), dtype=np.float32)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return derived_rows(texts, self._basis, self._sigma, self._noise)

    def embed_query(self, text: str) -> np.ndarray:
        return self._real.embed_query(text)


class ProviderStore:
    """The real thing: LocalProvider over a fresh home."""

    path = "LocalProvider (SQLite WAL + FTS5 + VectorIndex), hybrid search"

    def __init__(self, home: Path, embedder: Embedder) -> None:
        self.home = home
        self.provider = LocalProvider(home, embedder=embedder)
        self.index: VectorIndex | None = None

    def ingest(self, records: list[RecallRecord]) -> None:
        self.provider.ingest(records)

    def search(self, query: str, k: int, mode: str) -> list[Any]:
        return list(self.provider.search(query, k, mode=mode).hits)

    def close(self) -> None:
        self.provider.shutdown()


class DirectStore:
    """The provider's search path without its per-row bookkeeping, for sizes too slow to ingest.

    One FTS5 table of ``"speaker: text"`` bodies in SQLite (WAL) and a
    VectorIndex; a search runs the provider's own query builder, BM25 pool,
    dense pool and score fusion (``silcrow.recall.local._retrieval``). Not
    included: neighbouring-turn context columns, dates, tenant scope columns.
    """

    path = "direct: SQLite FTS5 + VectorIndex + retrieval.fuse (provider ingestion too slow at this size)"

    def __init__(self, home: Path, embedder: Embedder) -> None:
        self.home = home
        self.embedder = embedder
        self.conn = sqlite3.connect(home / "recall.db")
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        self.index = VectorIndex(embedder.dim)
        self.next_id = 1

    def ingest(self, records: list[RecallRecord]) -> None:
        bodies = [retrieval.body_text(r.text, r.speaker) for r in records]
        ids = np.arange(self.next_id, self.next_id + len(bodies), dtype=np.int64)
        with self.conn:
            self.conn.executemany(
                "INSERT INTO fts (rowid, body) VALUES (?, ?)", zip(ids.tolist(), bodies, strict=True)
            )
        self.index.add(ids, self.embedder.embed(bodies))
        self.next_id += len(bodies)

    def search(self, query: str, k: int, mode: str) -> list[Any]:
        lexical: list[tuple[int, float]] = []
        match = retrieval.build_match_query(query)
        if match is not None and mode != "dense":
            lexical = self.conn.execute(
                "SELECT rowid, -bm25(fts) AS s FROM fts WHERE fts MATCH ? ORDER BY s DESC LIMIT ?",
                (match, max(k, retrieval.POOL)),
            ).fetchall()
        dense: dict[int, float] = {}
        if mode != "lexical":
            qvec = self.embedder.embed_query(query)
            dense = dict(self.index.search(qvec, max(k, retrieval.POOL)))
            missing = np.asarray([i for i, _ in lexical if i not in dense], dtype=np.int64)
            if len(missing):
                dense.update(self.index.search(qvec, len(missing), missing))
        if mode == "dense":
            ranked = sorted(dense.items(), key=lambda p: (-p[1], p[0]))
        else:
            ranked = retrieval.fuse(lexical, dense, alpha=retrieval.ALPHA if mode == "hybrid" else 0.0)
        top = [i for i, _ in ranked[:k]]
        marks = ",".join("?" * len(top))
        return self.conn.execute(f"SELECT rowid, body FROM fts WHERE rowid IN ({marks})", top).fetchall()

    def close(self) -> None:
        self.conn.close()


def percentiles(samples_s: Sequence[float]) -> dict[str, float]:
    ms = np.asarray(samples_s) * 1000.0
    return {
        "p50": round(float(np.percentile(ms, 50)), 2),
        "p95": round(float(np.percentile(ms, 95)), 2),
        "mean": round(float(ms.mean()), 2),
        "n": len(ms),
    }


def rss_mb() -> dict[str, float]:
    """Current and peak resident set size of this process (Linux /proc)."""
    out = {}
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key = "rss_mb" if line.startswith("VmRSS") else "peak_rss_mb"
                out[key] = round(int(line.split()[1]) / 1024, 1)
    return out


def db_mb(home: Path) -> float:
    return round(sum(p.stat().st_size for p in home.glob("recall.db*") if p.is_file()) / 1e6, 1)


def progress_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=ERR, transient=True,
    )


# --------------------------------------------------------------------------- parent steps


def measure_real_embedding(texts: list[str]) -> tuple[np.ndarray, dict[str, Any]]:
    real = OnnxMiniLMEmbedder()
    t = time.perf_counter()
    real.load()
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    vecs = real.embed(texts)
    dt = time.perf_counter() - t
    return vecs, {
        "model": real.name,
        "texts": len(texts),
        "texts_per_s": round(len(texts) / dt, 1),
        "model_load_s": round(load_s, 2),
    }


def measure_real_ingest(turns: int, seed: int, scratch: Path) -> dict[str, Any]:
    home = scratch / "ingest-real"
    provider = LocalProvider(home, embedder=OnnxMiniLMEmbedder())
    provider.store  # noqa: B018 (open the database and load the model before timing)
    provider.search("warm up the model", 1)
    records = synthetic_turns(turns, seed, start_id=10**8)
    with progress_bar() as bar:
        task = bar.add_task(f"real ingest of {turns} turns", total=turns)
        t = time.perf_counter()
        added = provider.ingest(records, progress=lambda done: bar.update(task, completed=done))
        dt = time.perf_counter() - t
    provider.shutdown()
    return {
        "turns": added,
        "turns_per_s": round(added / dt, 1),
        "target_turns_per_s": 300,
        "met": added / dt >= 300,
        "db_mb": db_mb(home),
        "note": "LocalProvider.ingest with the real ONNX model: each turn embedded once, alone; its "
        "stored vector blends in the preceding turns' vectors, and FTS5 indexes them as context",
    }


def run_size(size: int, args: argparse.Namespace, basis_file: Path) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", str(size), "--basis", str(basis_file),
           "--queries", str(args.queries), "--k", str(args.k), "--seed", str(args.seed),
           "--sigma", str(args.sigma), "--baseline-queries", str(args.baseline_queries),
           "--provider-max", str(args.provider_max)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, encoding="utf-8", check=False)
    if proc.returncode != 0:
        return {"error": f"child for {size} rows exited {proc.returncode}"}
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


# --------------------------------------------------------------------------- one size (child)


def child(size: int, args: argparse.Namespace) -> dict[str, Any]:
    basis = np.load(args.basis)
    real = OnnxMiniLMEmbedder()
    real.load()
    derived = DerivedEmbedder(basis, real, args.sigma, args.seed)
    base_rss = rss_mb()
    per_mode = max(20, args.queries // 4)
    n_base = max(5, min(args.baseline_queries, 10_000_000 // size))  # the baseline is slow at 1M
    pool = iter(synthetic_queries(10 + args.queries + 2 * per_mode + args.baseline_queries, args.seed))
    warmup = [next(pool) for _ in range(10)]
    measured = [next(pool) for _ in range(args.queries)]
    by_mode = {mode: [next(pool) for _ in range(per_mode)] for mode in ("lexical", "dense")}
    index_queries = list(pool)  # index vs exact: all of them; the naive baseline: the first n_base
    chunk = 20_000
    with tempfile.TemporaryDirectory(prefix="silcrow-scale-") as tmp:
        home = Path(tmp)
        store: ProviderStore | DirectStore
        store = ProviderStore(home, derived) if size <= args.provider_max else DirectStore(home, derived)
        with progress_bar() as bar:
            task = bar.add_task(f"{size:,} rows ({type(store).__name__})", total=size)
            t = time.perf_counter()
            for start in range(0, size, chunk):
                records = synthetic_turns(min(chunk, size - start), args.seed, start_id=start)
                store.ingest(records)
                bar.update(task, completed=start + len(records))
            ingest_s = time.perf_counter() - t
        ERR.print(f"{size:,} rows stored in {ingest_s:.0f} s")
        after_ingest = rss_mb()

        for q in warmup:  # page cache, FTS5 structures
            store.search(q, args.k, "hybrid")
        latency: dict[str, dict[str, float]] = {}
        with progress_bar() as bar:
            for mode, qs in [("hybrid", measured), *by_mode.items()]:
                task = bar.add_task(f"{size:,}: {len(qs)} {mode} searches", total=len(qs))
                took = []
                for q in qs:
                    t = time.perf_counter()
                    store.search(q, args.k, mode)
                    took.append(time.perf_counter() - t)
                    bar.advance(task)
                latency[mode] = percentiles(took)
        ERR.print(f"{size:,} hybrid search ms: {latency['hybrid']}")
        rss_after_search = rss_mb()
        size_on_disk = db_mb(home)
        store.close()
        del store

    # Index-only figures and the baseline, on vectors made the same way as the stored rows.
    mat = np.vstack([
        derived_rows(
            [f"{r.speaker}: {r.text}" for r in synthetic_turns(min(chunk, size - start), args.seed, start)],
            basis, args.sigma, np.random.default_rng(start),
        )
        for start in range(0, size, chunk)
    ])
    fresh = OnnxMiniLMEmbedder()  # its own cache: these query embeddings are computed, not recalled
    qvecs = [fresh.embed_query(q) for q in index_queries]
    embed_s: list[float] = []
    for q in synthetic_queries(args.queries + 500, args.seed + 1)[:50]:
        t = time.perf_counter()
        fresh.embed_query(q)
        embed_s.append(time.perf_counter() - t)

    index = VectorIndex(mat.shape[1])
    t = time.perf_counter()
    for start in range(0, size, chunk):
        ids = np.arange(start + 1, min(start + chunk, size) + 1, dtype=np.int64)
        index.add(ids, mat[start : start + chunk])
    index_build_s = round(time.perf_counter() - t, 1)
    index_s, exact_s, found = [], [], 0
    for qv in qvecs:
        t = time.perf_counter()
        hits = index.search(qv, args.k)
        index_s.append(time.perf_counter() - t)
        t = time.perf_counter()  # exact search over the same rows, one single-threaded mat-vec
        exact = np.argpartition(-np.einsum("ij,j->i", mat, qv), args.k)[: args.k] + 1  # ids start at 1
        exact_s.append(time.perf_counter() - t)
        found += len({i for i, _ in hits} & set(exact.tolist()))
    index_mode = "exact" if index.is_exact else f"ivf ({index.nlist} buckets, probe {index.probe:.0%})"
    del index

    raw = mat * np.float32(1.7)  # un-normalised copy, as a naive store would keep
    del mat
    baseline_s = []
    for q in index_queries[:n_base]:
        t = time.perf_counter()
        qv = real.embed([q])[0].astype(np.float64)
        scores = (raw @ qv) / (np.linalg.norm(raw, axis=1) * np.linalg.norm(qv))
        np.argsort(-scores)[: args.k]
        baseline_s.append(time.perf_counter() - t)

    search = latency["hybrid"]
    baseline = percentiles(baseline_s)
    target = 30.0 if size <= 100_000 else 150.0
    return {
        "rows": size,
        "path": ProviderStore.path if size <= args.provider_max else DirectStore.path,
        "bulk_ingest_rows_per_s": round(size / ingest_s, 1),
        "bulk_ingest_note": "vectors derived (no model call); SQLite, FTS5 and index work are real",
        "memory": {
            "before_ingest": base_rss, "after_ingest": after_ingest, "after_searches": rss_after_search,
        },
        "db_mb": size_on_disk,
        "search_ms": search,
        "search_ms_by_mode": {
            "lexical_only": latency["lexical"], "dense_only_with_query_embedding": latency["dense"],
        },
        "search_target_p95_ms": target,
        "search_target_met": search["p95"] <= target,
        "query_embedding_ms": percentiles(embed_s),
        "vector_index": {
            "mode": index_mode,
            "build_s": index_build_s,
            "search_ms_without_embedding": percentiles(index_s),
            f"recall@{args.k}_vs_exact": round(found / (args.k * len(qvecs)), 4),
            "exact_scan_ms_without_embedding": percentiles(exact_s),
        },
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "baseline": {
            "name": "float64 cosine over un-normalised vectors, norms per query, full argsort "
            "(+ real query embedding)",
            "search_ms": baseline,
        },
        "speedup_vs_baseline_p50": round(baseline["p50"] / search["p50"], 2),
        "speedup_vs_baseline_p95": round(baseline["p95"] / search["p95"], 2),
    }


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated row counts")
    parser.add_argument("--queries", type=int, default=200, help="measured searches per size")
    parser.add_argument("--baseline-queries", type=int, default=30, help="baseline/index searches per size")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--real-texts", type=int, default=4000, help="distinct texts embedded for real")
    parser.add_argument("--ingest-turns", type=int, default=2000, help="turns ingested with real embeddings")
    parser.add_argument("--sigma", type=float, default=0.025, help="per-dimension noise on derived vectors")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--provider-max", type=int, default=1_000_000,
        help="largest size ingested through LocalProvider; larger sizes use the direct FTS5 + index path",
    )
    parser.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--basis", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(child(args.child, args)))
        return 0

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="silcrow-scale-") as tmp:
        scratch = Path(tmp)
        ERR.print(f"embedding {args.real_texts} distinct synthetic texts for real ...")
        turns = synthetic_turns(args.real_texts, args.seed)
        texts = [f"{r.speaker}: {r.text}" for r in turns]
        basis, embedding = measure_real_embedding(texts)
        basis_file = scratch / "basis.npy"
        np.save(basis_file, basis)
        ingest = measure_real_ingest(args.ingest_turns, args.seed, scratch)
        ERR.print(f"real ingest: {ingest['turns_per_s']} turns/s")
        results = {}
        for size in sizes:
            ERR.print(f"size {size:,} ...")
            results[str(size)] = run_size(size, args, basis_file)
            ERR.print(json.dumps(results[str(size)].get("search_ms")))
    report = {
        "bench": "recall_scale",
        "command": "python bench/recall_scale.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "machine": {
            "cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
            "load_avg_at_start": load_at_start,
            "load_avg_at_end": [round(x, 2) for x in os.getloadavg()],
            "note": "2 cores shared with other work: compare figures within this run, not across runs",
        },
        "k": args.k,
        "method": {
            "texts": "synthetic conversation turns from templates, sessions of 20 turns, two speakers; "
            f"a small vocabulary ({len(NAMES)} names, {len(PLACES)} places, {len(ACTIVITIES)} activities), "
            "so query terms match many rows and BM25 has more to score than on varied real text",
            "row_vectors": f"real MiniLM embedding of one of {args.real_texts} synthetic texts (picked by "
            f"crc32 of the text to embed) + N(0, {args.sigma}^2) noise per dimension, re-normalised",
            "queries": "distinct synthetic questions, embedded for real at search time (no cache hits)",
            "search_path": f"LocalProvider.search (hybrid: FTS5 BM25 + VectorIndex, fused) up to "
            f"{args.provider_max:,} rows; above that the direct path (see each size's 'path')",
            "index_and_baseline_vectors": "generated the same way as the stored rows (same texts, "
            "same basis, fresh noise), ids 1..n",
        },
        "embedding": embedding,
        "ingest_with_real_embeddings": ingest,
        "sizes": results,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
