"""The agent part of `make demo`: the real loop across sessions, against a scripted stand-in model.

Everything is real except the model: the :class:`~silcrow.agent.Agent`, the
curated files, SQLite sessions, the local recall provider with the offline
bge-small embedder. The model is :class:`~silcrow.testing.ScriptedModelServer`
on loopback, replaying canned replies, and the report says so. It runs in a
temporary home, offline, and never touches ``~/.silcrow``.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from silcrow.agent import Agent
from silcrow.demo._checks import report
from silcrow.safety import FENCE_OPEN
from silcrow.testing import ScriptedModelServer

INTRO = "Hi, I'm Rui. Please keep answers short, and I use metric units."
TRIP = "I'm planning a kayak trip along the Algarve coast in May, starting from Lagos."
BEACHES = "Which beaches near Lagos are good for launching a kayak?"
DATES = "What did I tell you about the dates of that trip?"


def _save(*facts: str) -> dict[str, Any]:
    calls = [{"name": "memory", "arguments": {"action": "add", "target": "user", "content": fact}}
             for fact in facts]
    return {"tool_calls": calls}


def _step(console: Console, number: int, title: str) -> None:
    console.print()
    console.print(Rule(Text(f"{number}. {title}", style="bold cyan"), align="left"))


def _said(console: Console, who: str, text: str) -> None:
    style = "bold cyan" if who == "user" else "bold green"
    console.print(Text.assemble((f"{who}> ", style), text), soft_wrap=True)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _user_sent(request: dict[str, Any]) -> str:
    return str([m for m in request["messages"] if m["role"] == "user"][-1]["content"])


def _clip(text: str, limit: int = 700) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


def _walk(console: Console, home: Path, server: ScriptedModelServer) -> list[tuple[str, bool]]:
    checks: list[tuple[str, bool]] = []
    agent = Agent("stand-in", base_url=server.base_url, home=home)
    try:
        _step(console, 1, "the model saves the user's preferences with the memory tool")
        server.enqueue(_save("User's name is Rui.", "User wants short answers.",
                             "User uses metric units."),
                       {"content": "Got it, Rui: short answers, metric units."})
        _said(console, "user", INTRO)
        _said(console, "assistant", agent.run_turn(INTRO))
        calls = next(m["tool_calls"] for m in agent.messages if m.get("tool_calls"))
        for call in calls:
            console.print(Text(f"  tool call: memory {call['function']['arguments']}", style="dim"),
                          soft_wrap=True)
        entries = agent.notes.entries("user")
        console.print(Text(f"  USER.md on disk now: {entries}"), soft_wrap=True)
        checks.append(("preferences saved to USER.md by the memory tool", len(entries) == 3))

        _step(console, 2, "the system prompt stays byte-identical after those writes")
        server.enqueue({"content": "Lovely trip. May water is about 17 °C; take a wetsuit."})
        _said(console, "user", TRIP)
        _said(console, "assistant", agent.run_turn(TRIP))
        prompts = [r["messages"][0]["content"] for r in server.requests]
        for i, prompt in enumerate(prompts, 1):
            console.print(Text(f"  request {i}: system prompt sha256 {_digest(prompt)} "
                               f"({len(prompt):,} chars)"))
        same = len(set(prompts)) == 1 and "Rui" not in prompts[0]
        console.print(Text("  The writes are on disk, but this session's prompt is frozen, so a provider's "
                           "prefix cache keeps hitting.", style="dim"), soft_wrap=True)
        checks.append(("system prompt byte-identical across the writes", same))
        first_session = agent.session_id
        agent.manager.flush(30.0)  # background sync of the turns (a real chat does it while you type)

        _step(console, 3, "a new session: the snapshot now shows them")
        agent.new_session()
        block = agent.notes.snapshot_block("user") or ""
        console.print(Panel(Text(block), title="USER block of the new session's system prompt",
                            title_align="left", border_style="blue"))
        checks.append(("new session's snapshot contains the saved preferences",
                       "Rui" in agent.system_prompt and block in agent.system_prompt))

        _step(console, 4, "recall of the earlier session arrives fenced, in the API copy only")
        server.enqueue({"content": "Meia Praia and Batata beach are easy launches."})
        _said(console, "user", BEACHES)
        _said(console, "assistant", agent.run_turn(BEACHES))
        sent = _user_sent(server.requests[-1])
        stored = [m for m in agent.sessions.messages(agent.session_id) if m["role"] == "user"][-1]
        console.print(Panel(Text(_clip(sent)), title="the user message as sent to the model",
                            title_align="left", border_style="yellow"))
        console.print(Text(f"  stored in the transcript: {stored['content']!r}"), soft_wrap=True)
        if stored.get("recall_block"):
            console.print(Text("  the block is kept beside it (not in it) and replayed verbatim in later "
                               "requests (replay_recall), so this request stays a cacheable prefix"),
                          soft_wrap=True)
        recalled = sent.split(FENCE_OPEN, 1)[1] if FENCE_OPEN in sent else ""
        checks.append(("recall fenced in the API copy", "Lagos" in recalled))
        checks.append(("transcript holds only the user's words", stored["content"] == BEACHES))

        _step(console, 5, "session search finds the old session")
        search = {"name": "session_search", "arguments": {"query": "kayak trip May"}}
        server.enqueue({"tool_calls": [search]},
                       {"content": "You said May, starting from Lagos."})
        _said(console, "user", DATES)
        _said(console, "assistant", agent.run_turn(DATES))
        result = json.loads(server.requests[-1]["messages"][-1]["content"])
        hits = result.get("results") or [{}]
        top = hits[0]
        console.print(Text(f"  session_search('kayak trip May') -> session {top.get('session_id')} "
                           f"({top.get('date')}): {top.get('snippet')}"), soft_wrap=True)
        checks.append(("session search found the first session", top.get("session_id") == first_session))
    finally:
        agent.close()
    return checks


def run(console: Console | None = None) -> bool:
    """Run the walkthrough; returns True when every check held."""
    console = console or Console()
    console.print()
    console.print(Rule(Text("silcrow agent loop", style="bold magenta")))
    console.print(Text(
        "The model below is a SCRIPTED STAND-IN (silcrow.testing.ScriptedModelServer on 127.0.0.1): it "
        "replays canned replies and is not a language model. Everything else is real: the Agent, "
        "MEMORY.md/USER.md, SQLite sessions, the local recall provider with the offline bge-small "
        "embedder. It runs in a temporary home; ~/.silcrow is not touched.", style="yellow"), soft_wrap=True)
    with tempfile.TemporaryDirectory(prefix="silcrow-demo-agent-") as tmp, \
            ScriptedModelServer(default={"content": "ok"}) as server:
        checks = _walk(console, Path(tmp), server)
    return report(console, "agent walkthrough (stand-in model)", checks)
