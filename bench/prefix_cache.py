"""How much of each request a provider's prefix cache could reuse, silcrow vs a naive loop.

One command: ``python bench/prefix_cache.py [--turns 40]``. Prints ONE JSON object on stdout:

    {"turns": N, "memory_writes": W,
     "systems": {"silcrow_replay": {"cacheable_share": x, "prompt_chars": c, ...},
                 "silcrow_no_replay": {...}, "naive": {...}}}

A scripted session (the model is the ScriptedModelServer stand-in; its recorded
requests are the data) runs through the real Agent, the real MemoryStore, real
SQLite sessions and the real local recall provider with the offline ONNX
embedder. The model saves a memory on every fourth turn, and every turn gets a
recall block (earlier turns of the same session and of a warm-up session).

For each request the prompt is serialised canonically (tools, then each message
as sorted-key JSON); its cacheable part is the longest byte-identical prefix it
shares with the previous request. ``cacheable_share`` is the cacheable
characters over all prompt characters of the measured requests (the first
request counts as 0 cacheable). ``prompt_chars`` is the total characters sent.
``uncached_chars`` is what a provider bills at the full price, and
``billed_chars`` weighs cached characters at 10% and 50% of that price (the
usual range of prefix-cache discounts): a higher share bought by sending more
characters is not a saving, which is how the Agent's replay_recall default
was chosen (``default`` in the output names the system that is silcrow's default).

Systems, in the same run:
  silcrow_replay     Agent(replay_recall=True): recall blocks stored and replayed verbatim
  silcrow_no_replay  Agent(replay_recall=False): recall only on the current message
  naive              reloads MEMORY/USER into the system prompt every turn, recall there too
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from silcrow.agent import DEFAULT_REPLAY_RECALL, Agent, LLMClient, build_system_prompt, session_search_schema
from silcrow.recall import MemoryManager
from silcrow.recall.local import LocalProvider
from silcrow.safety import SYSTEM_NOTE
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer
from silcrow.tool import handle_memory_call, memory_tool_schema

err = Console(stderr=True)

TOPICS = [
    ("the Rust borrow checker", "lifetimes in the parser crate"),
    ("the Postgres migration", "the orders table index"),
    ("sourdough baking", "the starter feeding schedule"),
    ("the Kubernetes cluster", "the ingress certificate renewal"),
    ("the trip to Lisbon", "the hotel near Alfama"),
    ("the marathon training", "the long run on Sundays"),
    ("the React dashboard", "the chart rendering bug"),
    ("the home network", "the flaky mesh router"),
]
PREFERENCES = [
    "User prefers metric units.",
    "User writes Python with type hints and runs ruff.",
    "User's timezone is Europe/Lisbon.",
    "User wants short answers with code first.",
    "User's main laptop runs Debian 12.",
    "User deploys with GitHub Actions, never by hand.",
    "User is vegetarian.",
    "User prefers British spelling.",
    "User's editor is Neovim.",
    "User keeps notes in Obsidian.",
    "User trains for the Berlin marathon in September.",
    "User's Postgres is version 16.",
]
REMEMBER = "Please remember this: "
FLUSH_PREFIX = "[silcrow: this conversation is about to be"


def user_text(i: int, write: str | None) -> str:
    topic, detail = TOPICS[i % len(TOPICS)]
    text = f"Turn {i}: let's get back to {topic}. What about {detail}?"
    return f"{text} {REMEMBER}{write}" if write else text


def scripted_model(body: dict[str, Any]) -> dict[str, Any]:
    """The stand-in's behaviour: save what it is asked to remember, otherwise answer briefly."""
    last = body["messages"][-1]
    if last["role"] == "tool":
        return {"content": "Saved. Anything else?"}
    said = (last.get("content") or "").split("\n\n<memory-context>")[0]
    if said.startswith(FLUSH_PREFIX) or "[silcrow" in said.split("\n")[0]:
        return {"content": "nothing to save"}
    if REMEMBER in said and body.get("tools"):
        fact = said.split(REMEMBER, 1)[1].split("\n")[0].strip()
        return {"tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                                "content": fact}}]}
    first = said.split("?")[0]
    return {"content": f"About that: {first[first.find(':') + 1:].strip()} — here are three concrete "
                       "next steps, each with a short reason, and a note on what to check first."}


def serialise(body: dict[str, Any]) -> str:
    parts = [json.dumps(body.get("tools") or [], sort_keys=True, ensure_ascii=False)]
    parts += [json.dumps(m, sort_keys=True, ensure_ascii=False) for m in body["messages"]]
    return "\n".join(parts)


def common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def measure(requests: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [serialise(r) for r in requests]
    cached = [0] + [common_prefix(texts[i - 1], texts[i]) for i in range(1, len(texts))]
    total = sum(len(t) for t in texts)
    per_request = [c / len(t) for c, t in zip(cached, texts, strict=True)]
    uncached = total - sum(cached)
    return {
        "cacheable_share": round(sum(cached) / total, 4),
        "prompt_chars": total,
        "uncached_chars": uncached,
        "billed_chars": {f"cache_price_{p}": round(uncached + p * sum(cached)) for p in (0.1, 0.5)},
        "requests": len(texts),
        "median_request_share": round(sorted(per_request)[len(per_request) // 2], 4),
        # user turns whose request carried a recall block (its note, not the prompt's mention of the tag)
        "recall_blocks_seen": sum(SYSTEM_NOTE in (r["messages"][-1].get("content") or "")
                                  or SYSTEM_NOTE in r["messages"][0]["content"] for r in requests
                                  if r["messages"][-1]["role"] == "user"),
    }


def plan(turns: int) -> list[tuple[str, bool]]:
    writes = iter(PREFERENCES * 4)
    out = []
    for i in range(turns):
        write = next(writes) if i % 4 == 1 else None
        out.append((user_text(i, write), write is not None))
    return out


WARMUP = [
    "Last week I started on the Rust borrow checker and lifetimes in the parser crate.",
    "The Postgres migration is blocked by the orders table index.",
    "My sourdough starter feeding schedule is twice a day.",
    "The Kubernetes ingress certificate renewal failed on Friday.",
]


def run_agent(replay: bool, turns: int, progress: Callable[[str], None]) -> tuple[list[dict[str, Any]], int]:
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-") as tmp, \
            ScriptedModelServer(default=scripted_model) as server:
        agent = Agent("stand-in", base_url=server.base_url, home=Path(tmp), embedder="onnx",
                      replay_recall=replay, flush_min_turns=10_000)
        for text in WARMUP:  # an earlier session, so recall has something from turn one
            agent.run_turn(text)
        agent.new_session()
        agent.manager.flush(30.0)
        start = len(server.requests)
        writes = 0
        for i, (text, write) in enumerate(plan(turns)):
            agent.run_turn(text)
            writes += write
            progress(f"turn {i + 1}/{turns}")
        requests = server.requests[start:]
        agent.close()
        return requests, writes


def run_naive(turns: int, progress: Callable[[str], None]) -> list[dict[str, Any]]:
    """The loop silcrow avoids: fresh memory and recall in the system prompt on every turn."""
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-naive-") as tmp, \
            ScriptedModelServer(default=scripted_model) as server:
        home = Path(tmp)
        store = MemoryStore(home)
        manager = MemoryManager()
        manager.add_provider(LocalProvider(home, embedder="onnx"))
        llm = LLMClient("stand-in", base_url=server.base_url)
        # The same tools the Agent offers, so that only where memory and recall go differs.
        tools = [memory_tool_schema(fmt="openai"), session_search_schema(), *manager.tool_schemas()]

        def turn(history: list[dict[str, Any]], text: str, sid: str) -> None:
            store.load()  # the naive part: re-read memory into the prompt every turn
            recall = manager.prefetch(text, session_id=sid)
            system = build_system_prompt(store, manager) + (f"\n\n{recall}" if recall else "")
            history.append({"role": "user", "content": text})
            for _ in range(4):
                out = llm.complete([{"role": "system", "content": system}, *history], tools=tools)
                if not out.tool_calls:
                    history.append({"role": "assistant", "content": out.content})
                    break
                history.append({"role": "assistant", "content": None,
                                "tool_calls": [c.to_message() for c in out.tool_calls]})
                for call in out.tool_calls:
                    history.append({"role": "tool", "tool_call_id": call.id,
                                    "content": handle_memory_call(store, call.arguments)})
            manager.sync_turn(text, history[-1]["content"] or "", session_id=sid)

        warm: list[dict[str, Any]] = []
        for text in WARMUP:
            turn(warm, text, "warmup")
        manager.flush(30.0)
        start = len(server.requests)
        history: list[dict[str, Any]] = []
        for i, (text, _) in enumerate(plan(turns)):
            turn(history, text, "measured")
            progress(f"turn {i + 1}/{turns}")
        requests = server.requests[start:]
        manager.shutdown()
        return requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    systems: dict[str, Any] = {}
    writes = 0
    with err.status("running") as status:
        def progress(label: str) -> Callable[[str], None]:
            return lambda step: status.update(f"{label}: {step}")

        requests, writes = run_agent(True, args.turns, progress("silcrow_replay"))
        systems["silcrow_replay"] = measure(requests)
        requests, _ = run_agent(False, args.turns, progress("silcrow_no_replay"))
        systems["silcrow_no_replay"] = measure(requests)
        systems["naive"] = measure(run_naive(args.turns, progress("naive")))
    for name, figures in systems.items():
        err.print(f"{name:18} cacheable share {figures['cacheable_share']:.3f}  "
                  f"prompt chars {figures['prompt_chars']:,}  uncached {figures['uncached_chars']:,}")
    default = "silcrow_replay" if DEFAULT_REPLAY_RECALL else "silcrow_no_replay"
    json.dump({"turns": args.turns, "memory_writes": writes, "systems": systems, "default": default},
              sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
