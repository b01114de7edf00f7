"""Does SilcrowMemoryService find the right memory, and how fast, against ADK's own memory service?

One command, in the ADK virtualenv (``make .venv-adk/.installed``; google-genai cannot install
beside silcrow's .venv): ``.venv-adk/bin/python bench/adk_memory.py [--dataset PATH]
[--questions N]``. Prints ONE JSON object on stdout (progress on stderr).

On one LoCoMo conversation (``--dataset``, default ``$LOCOMO_DATA``; bench/locomo.py says where to
get it), each session becomes one ADK session of user ``sam`` (the first speaker's turns authored
``user``, the other's by the agent) given to ``add_session_to_memory``, and each question of
categories 1-4 is asked with ``search_memory(app_name=, user_id="sam", query=question)``.
Measured in the same run:

  silcrow_local     SilcrowMemoryService on a profile with the local provider (silcrow's hybrid
                    recall: words and bge-small meaning fused)
  adk_inmemory      ADK's InMemoryMemoryService, its default (events ranked by the words they share
                    with the query, the best 10)

``evidence_recall@k``: share of a question's evidence turns among the first k memories returned
(a memory is matched to its turn by its text), averaged over questions; ``returned_median``: how
many memories a search returns (both return at most 10). ``add_s``: seconds to
add every session; ``search_ms``: median and p95 per search.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import locomo  # bench/locomo.py: where the data comes from
from google.adk.events.event import Event
from google.adk.memory import BaseMemoryService, InMemoryMemoryService
from google.adk.sessions.session import Session
from google.genai import types
from rich.console import Console

from silcrow.integrations.google_adk import SilcrowMemoryService
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN

err = Console(stderr=True)
KS = (1, 5, 10)
APP, USER = "locomo", "sam"
LINE = re.compile(r"^(?:#\d+ )?\[[^\]]*\] (?:[^:]*: )?(.*)$")


def load(path: Path) -> tuple[list[Session], dict[str, str], list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    data = data[0] if isinstance(data, list) else data
    conv = data.get("conversation", data)
    names = sorted((k for k in conv if re.fullmatch(r"session_\d+", k) and conv[k]),
                   key=lambda k: int(k.split("_")[1]))
    first = conv[names[0]][0]["speaker"]
    sessions, ids = [], {}
    for name in names:
        events = []
        for turn in conv[name]:
            ids[turn["text"].strip()] = turn["dia_id"]
            author = "user" if turn["speaker"] == first else "friend"
            events.append(Event(author=author, invocation_id=name,
                                content=types.Content(role="user" if author == "user" else "model",
                                                      parts=[types.Part(text=turn["text"])])))
        sessions.append(Session(id=name, app_name=APP, user_id=USER, events=events))
    questions = [q for q in data["qa"] if q.get("category") != 5 and q.get("evidence")]
    return sessions, ids, questions


def turn_ids(texts: list[str], ids: dict[str, str]) -> list[str]:
    """The dialog ids of the memories returned, in order (silcrow's text is fenced, one line)."""
    found = []
    for text in texts:
        if FENCE_OPEN in text:
            body = text[text.index(FENCE_OPEN) + len(FENCE_OPEN):text.index(FENCE_CLOSE)].strip()
            lines = [m.group(1) for line in body.splitlines() if (m := LINE.match(line.strip()))]
            text = lines[-1] if lines else body
        found.append(ids.get(text.strip(), ""))
    return found


async def measure(service: BaseMemoryService, sessions: list[Session], ids: dict[str, str],
                  questions: list[dict[str, Any]], label: str) -> dict[str, Any]:
    start = time.perf_counter()
    for session in sessions:
        await service.add_session_to_memory(session)
    add_s = time.perf_counter() - start
    found: dict[int, list[float]] = {k: [] for k in KS}
    latencies, returned = [], []
    for n, q in enumerate(questions):
        start = time.perf_counter()
        answer = await service.search_memory(app_name=APP, user_id=USER, query=q["question"])
        latencies.append((time.perf_counter() - start) * 1000)
        texts = ["".join(p.text or "" for p in m.content.parts or []) for m in answer.memories]
        returned.append(len(texts))
        hits = turn_ids(texts, ids)
        wanted = set(q["evidence"])
        for k in KS:
            found[k].append(len(wanted & set(hits[:k])) / len(wanted))
        if n % 25 == 0:
            err.print(f"{label}: {n}/{len(questions)} questions")
    latencies.sort()
    return {
        **{f"evidence_recall@{k}": round(statistics.mean(v), 4) for k, v in found.items()},
        "returned_median": statistics.median(returned),
        "add_s": round(add_s, 2),
        **locomo.search_times(latencies),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    sessions, ids, questions = load(args.dataset)
    if args.questions:
        questions = questions[:args.questions]
    err.print(f"{sum(len(s.events) for s in sessions)} turns, {len(questions)} questions")
    with tempfile.TemporaryDirectory() as home:
        Path(home, "config.toml").write_text('provider = "local"\nembedder = "bge"\n', encoding="utf-8")
        service = SilcrowMemoryService(home=home)
        ours = await measure(service, sessions, ids, questions, "silcrow_local")
        service.close()
    theirs = await measure(InMemoryMemoryService(), sessions, ids, questions, "adk_inmemory")
    return {"dataset": args.dataset.name, "turns": len(ids), "questions": len(questions),
            "silcrow_local": ours, "adk_inmemory": theirs}


def main() -> None:
    args = locomo.question_bench_args(__doc__.split("\n")[0])
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    sys.exit(main())
