"""The several-providers part of `make demo`: ``providers = ["local", "holographic"]`` in one agent.

Both providers are real and run here with nothing to install: ``local`` (SQLite, lexical here:
``embedder = "none"``) stores the conversation's turns, ``holographic`` (SQLite facts with HRR
vectors) stores only the facts the model gives its ``fact_store`` tool. So a recalled turn can
only be ``local``'s and a recalled fact only ``holographic``'s, and both arrive in the one
fenced block of the next session's first turn. The model is the scripted stand-in of the agent
part (:class:`~silcrow.testing.ScriptedModelServer` on loopback). A temporary home; offline.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from silcrow.agent import Agent
from silcrow.demo._agent_walkthrough import _said, _step, _user_sent
from silcrow.demo._checks import report
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN
from silcrow.testing import ScriptedModelServer

CONFIG = 'embedder = "none"\n\n[recall]\nproviders = ["local", "holographic"]\n'
TRIP = "I'm planning a kayak trip along the Algarve coast in May, starting from Lagos."
FACT = "Rui's sea kayak, Maré, is 4.2 m long and red."
ASK = "Where near Lagos can I launch Maré?"
HOLOGRAPHIC_HEADER = "## Holographic Memory"  # how holographic heads its recalled facts


def _walk(console: Console, home: Path, server: ScriptedModelServer) -> list[tuple[str, bool]]:
    checks: list[tuple[str, bool]] = []
    home.mkdir(mode=0o700)
    (home / "config.toml").write_text(CONFIG, encoding="utf-8")
    console.print(Text(f"config.toml of the temporary home:\n{CONFIG}", style="dim"), soft_wrap=True)
    agent = Agent("stand-in", base_url=server.base_url, home=home)
    try:
        status = agent.manager.recall_status()
        names = [p.get("provider") for p in status.get("providers", [])]
        console.print(Text(f"  recall runs {status.get('provider')}: each one's tools are offered "
                           f"({', '.join(t['function']['name'] for t in agent.manager.tool_schemas())})"),
                      soft_wrap=True)
        checks.append(("both selected providers run, each available",
                       names == ["local", "holographic"]
                       and all(p.get("available") for p in status["providers"])))

        _step(console, 1, "a turn (stored by local) and a fact the model files with fact_store (holographic)")
        server.enqueue({"tool_calls": [{"name": "fact_store",
                                        "arguments": {"action": "add", "content": FACT}}]},
                       {"content": "Noted. May is a good month for it."})
        _said(console, "user", TRIP)
        _said(console, "assistant", agent.run_turn(TRIP))
        console.print(Text(f"  tool call: fact_store add {FACT!r}", style="dim"), soft_wrap=True)
        agent.manager.flush(30.0)

        _step(console, 2, "the next session: a hit from each provider, in one fenced block")
        agent.new_session()
        server.enqueue({"content": "Meia Praia, east of the town, is an easy launch for Maré."})
        _said(console, "user", ASK)
        _said(console, "assistant", agent.run_turn(ASK))
        sent = _user_sent(server.requests[-1])
        console.print(Panel(Text(sent), title="the user message as sent to the model",
                            title_align="left", border_style="yellow"))
        fenced = sent.split(FENCE_OPEN, 1)[1].split(FENCE_CLOSE, 1)[0] if FENCE_OPEN in sent else ""
        checks.append(("one fenced block for both providers",
                       sent.count(FENCE_OPEN) == 1 and sent.count(FENCE_CLOSE) == 1))
        # Each provider's text keeps its place, in the order the list names them.
        local, _, holographic = fenced.partition(HOLOGRAPHIC_HEADER)
        checks.append(("local's hit (the earlier turn) is in it", f"user: {TRIP}" in local))
        checks.append(("holographic's hit (the filed fact) is in it", FACT in holographic))
    finally:
        agent.close()
    return checks


def run(console: Console | None = None) -> bool:
    """Run the walkthrough; returns True when every check held."""
    console = console or Console()
    console.print()
    console.print(Rule(Text("silcrow recall: several providers at once", style="bold magenta")))
    console.print(Text(
        "Two real providers that need no service: local and holographic. The model is the SCRIPTED "
        "STAND-IN of the agent part (not a language model). A temporary home; ~/.silcrow is not "
        "touched.", style="yellow"), soft_wrap=True)
    with tempfile.TemporaryDirectory(prefix="silcrow-demo-providers-") as tmp, \
            ScriptedModelServer(default={"content": "ok"}) as server:
        checks = _walk(console, Path(tmp) / "home", server)
    return report(console, "several providers walkthrough", checks)
