"""Does ``session_search`` find the right past session? And does it stay fast as sessions pile up?

One command: ``python bench/session_search.py [--dataset PATH] [--scale 50]``. Prints ONE JSON
object on stdout (progress on stderr).

Quality, on one LoCoMo conversation (19 sessions, 419 turns; questions of categories 1-4, whose
``evidence`` names the turns that answer them): every LoCoMo session becomes a silcrow session
(the first speaker's turns stored verbatim as user messages, the other's as assistant messages),
and each question is asked verbatim as the query. Measured per system, in the same run:

  fts5_bm25   SessionStore.search (what the session_search tool runs): FTS5, bm25, one hit per lineage
  like_scan   a naive baseline: rank sessions by how many query words (4+ letters) occur in them (LIKE)
  recent      no search at all: the k most recently active sessions (what /resume offers)

``session_recall@k``: share of a question's evidence sessions found among the k sessions returned,
averaged over questions. ``turn_in_window@5``: share of questions for which some returned hit lies
within 3 messages of an evidence turn, i.e. the turn the model would read with one follow-up
``session_search`` call (session_id + message_id, default window 3). ``fts5_bm25`` only; the other
systems do not return a message.

Scale: the 19 sessions copied ``--scale`` times into a second store; median and p95 latency of
search over the same questions, FTS5 against the LIKE scan.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from silcrow.sessions import SessionStore

err = Console(stderr=True)
DEFAULT_DATASET = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo-conv-26.json"
KS = (1, 3, 5)
WINDOW = 3
_WORD = re.compile(r"[A-Za-z0-9']{4,}")


def load_sessions(path: Path) -> tuple[list[tuple[str, list[dict[str, str]]]], list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    conv = data.get("conversation", data)
    numbers = sorted(
        int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k) and conv[k]
    )
    sessions = [(f"session_{n}", conv[f"session_{n}"]) for n in numbers]
    questions = [q for q in data["qa"] if q.get("category") != 5 and q.get("evidence")]
    return sessions, questions


def fill(store: SessionStore, sessions: list[tuple[str, list[dict[str, str]]]], first_speaker: str,
         copy: int = 0) -> tuple[dict[str, str], dict[str, tuple[str, int]]]:
    """Store the sessions; return {silcrow id: locomo session name} and {dia_id: (sid, message id)}."""
    names: dict[str, str] = {}
    turns: dict[str, tuple[str, int]] = {}
    for name, dialog in sessions:
        sid = store.create(title=f"{name} (copy {copy})" if copy else name)
        names[sid] = name
        for turn in dialog:
            role = "user" if turn["speaker"] == first_speaker else "assistant"
            mid = store.append(sid, {"role": role, "content": turn["text"]})
            turns[turn["dia_id"]] = (sid, mid)
    return names, turns


def like_scan(store: SessionStore, question: str, k: int) -> list[str]:
    words = sorted({w.lower() for w in _WORD.findall(question)})
    if not words:
        return []
    score = " + ".join("(content LIKE ?)" for _ in words)
    rows = store._read(  # noqa: SLF001 - the baseline deliberately bypasses the index
        f"SELECT session_id, SUM({score}) AS s FROM messages WHERE role IN ('user', 'assistant')"
        " GROUP BY session_id HAVING s > 0 ORDER BY s DESC LIMIT ?",
        (*[f"%{w}%" for w in words], k),
    )
    return [r["session_id"] for r in rows]


def evidence_sessions(question: dict[str, Any]) -> set[str]:
    # Evidence ids look like "D3:7": dialog (session) 3, turn 7.
    return {f"session_{e.split(':')[0][1:]}" for e in question["evidence"] if e.startswith("D")}


def quality(store: SessionStore, names: dict[str, str], turns: dict[str, tuple[str, int]],
            questions: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    recent = [i.id for i in store.list(limit=max(KS))]
    seq = {mid: i for i, (_, mid) in enumerate(sorted(turns.values(), key=lambda t: t[1]))}
    totals: dict[str, dict[str, float]] = {s: {f"session_recall@{k}": 0.0 for k in KS}
                                           for s in ("fts5_bm25", "like_scan", "recent")}
    window_hits = 0
    latencies: dict[str, list[float]] = {"fts5_bm25": [], "like_scan": []}
    for q in questions:
        wanted = evidence_sessions(q)
        t0 = time.perf_counter()
        hits = store.search(q["question"], limit=max(KS))
        latencies["fts5_bm25"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        scanned = like_scan(store, q["question"], max(KS))
        latencies["like_scan"].append(time.perf_counter() - t0)
        ranked = {"fts5_bm25": [h["session_id"] for h in hits], "like_scan": scanned, "recent": recent}
        for system, ids in ranked.items():
            for k in KS:
                found = {names[s] for s in ids[:k]} & wanted
                totals[system][f"session_recall@{k}"] += len(found) / len(wanted)
        evidence_pos = [seq[turns[e][1]] for e in q["evidence"] if e in turns]
        if any(abs(seq[h["message_id"]] - p) <= WINDOW for h in hits for p in evidence_pos):
            window_hits += 1
    n = len(questions)
    out = {s: {m: round(v / n, 4) for m, v in vals.items()} for s, vals in totals.items()}
    out["fts5_bm25"]["turn_in_window@5"] = round(window_hits / n, 4)
    for system, values in latencies.items():
        out[system]["latency_ms_p50"] = round(statistics.median(values) * 1000, 3)
    return out


def scale(path: Path, sessions: list[tuple[str, list[dict[str, str]]]], first: str,
          questions: list[dict[str, Any]], copies: int) -> dict[str, Any]:
    with SessionStore(path) as store:
        for c in range(copies):
            fill(store, sessions, first, copy=c + 1)
            if (c + 1) % 10 == 0:
                err.print(f"  scale: {c + 1}/{copies} copies stored")
        n_messages = store._read("SELECT COUNT(*) AS n FROM messages")[0]["n"]  # noqa: SLF001
        fts: list[float] = []
        like: list[float] = []
        for q in questions[:40]:
            t0 = time.perf_counter()
            store.search(q["question"], limit=5)
            fts.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            like_scan(store, q["question"], 5)
            like.append(time.perf_counter() - t0)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))]

    return {
        "sessions": copies * len(sessions), "messages": n_messages, "queries": len(fts),
        "fts5_bm25": {"latency_ms_p50": round(statistics.median(fts) * 1000, 2),
                      "latency_ms_p95": round(p95(fts) * 1000, 2)},
        "like_scan": {"latency_ms_p50": round(statistics.median(like) * 1000, 2),
                      "latency_ms_p95": round(p95(like) * 1000, 2)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--scale", type=int, default=50, help="copies of the conversation for timing")
    args = parser.parse_args()
    if not args.dataset.exists():
        err.print(f"dataset not found: {args.dataset}; pass --dataset PATH/locomo-conv-26.json")
        sys.exit(2)
    sessions, questions = load_sessions(args.dataset)
    first = sessions[0][1][0]["speaker"]
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-") as tmp:
        err.print(f"storing {len(sessions)} sessions, asking {len(questions)} questions")
        with SessionStore(Path(tmp) / "quality.db") as store:
            names, turns = fill(store, sessions, first)
            systems = quality(store, names, turns, questions)
        err.print(f"timing search over {args.scale} copies")
        scaled = scale(Path(tmp) / "scale.db", sessions, first, questions, args.scale)
    print(json.dumps({
        "dataset": args.dataset.name, "sessions": len(sessions), "turns": len(turns),
        "questions": len(questions), "k": list(KS), "systems": systems, "scale": scaled,
        "random_session_recall@5": round(5 / len(sessions), 4),
    }))


if __name__ == "__main__":
    main()
