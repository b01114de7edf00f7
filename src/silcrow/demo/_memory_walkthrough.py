"""The curated-memory part of `make demo`: a short walkthrough on a throw-away home.

It drives the public :class:`~silcrow.store.MemoryStore` API exactly as an
agent's memory tool would, and prints what each call returns. Everything
happens in a temporary directory, so the user's ``~/.silcrow`` is never read
or written.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from silcrow.store import MemoryStore

# Small limits keep the demo short and make the limit error reachable in one call.
_MEMORY_LIMIT = 600
_USER_LIMIT = 400


def _step(console: Console, number: int, title: str) -> None:
    console.print()
    console.print(Rule(Text(f"{number}. {title}", style="bold cyan"), align="left"))


def _call(console: Console, label: str, result: Mapping[str, Any]) -> None:
    """One store call and its result, the way the model would see it (minus the JSON)."""
    console.print(Text.assemble(("» ", "dim"), (label, "bold")), soft_wrap=True)
    if result.get("success"):
        console.print(Text.assemble(("  ✓ ", "green"), str(result.get("message", "")),
                                    (f"  [{result.get('usage', '')}]", "dim")), soft_wrap=True)
        return
    console.print(Text.assemble(("  ✗ refused: ", "bold red"), str(result.get("error", ""))),
                  soft_wrap=True)
    for match in result.get("matches") or []:
        console.print(Text(f"      match: {match}", style="yellow"), soft_wrap=True)
    if result.get("current_entries") is not None:
        console.print(Text(f"      current entries: {len(result['current_entries'])}"
                           f"  [{result.get('usage', '')}]", style="dim"), soft_wrap=True)


def _block(console: Console, title: str, text: str | None) -> None:
    body = Text(text) if text else Text("(empty)", style="dim")
    console.print(Panel(body, title=title, title_align="left", border_style="blue"))


def _walk(console: Console, home: Path) -> None:
    store = MemoryStore(home, memory_char_limit=_MEMORY_LIMIT, user_char_limit=_USER_LIMIT)
    store.load()
    console.print(Text(f"A fresh home in {home} (limits: MEMORY.md {_MEMORY_LIMIT} chars, "
                       f"USER.md {_USER_LIMIT} chars, counted in characters, not tokens).",
                       style="dim"), soft_wrap=True)

    _step(console, 1, "add: the agent saves declarative facts")
    for target, content in [
        ("memory", "Project builds with uv; run the tests with `uv run pytest -q`."),
        ("memory", "Staging deploys go through `make deploy-staging` (needs VPN)."),
        ("memory", "Production deploys are manual: tag a release, then approve in CI."),
        ("user", "Name: Ada. Prefers short answers, British spelling, metric units."),
    ]:
        _call(console, f"add {target}: {content}", store.add(target, content))

    # A session starts here: load() freezes what goes into the system prompt.
    store.load()
    frozen = store.snapshot_block("memory")

    _step(console, 2, "replace by substring: a short unique piece of the entry is enough")
    _call(console, 'replace memory "uv run pytest" -> ...',
          store.replace("memory", "uv run pytest",
                        "Project builds with uv; run the tests with `uv run pytest -q -x`."))

    _step(console, 3, "ambiguity: a substring that matches several different entries")
    _call(console, 'remove memory "deploy"', store.remove("memory", "deploy"))

    _step(console, 4, "limit: a write that would overflow the file is refused")
    _call(console, "add memory: <a pasted 700-char build log>",
          store.add("memory", "Build log: " + "warning: unused import; " * 30))
    console.print(Text("The model consolidates instead, in one all-or-nothing batch:", style="dim"))
    _call(console, 'batch: remove "deploy-staging", replace "Production deploys" -> merged entry',
          store.apply_batch("memory", [
              {"action": "remove", "old_text": "deploy-staging"},
              {"action": "replace", "old_text": "Production deploys",
               "content": "Deploys: staging via `make deploy-staging` (VPN); "
                          "production is manual (tag, approve in CI)."},
          ]))

    _step(console, 5, "frozen snapshot: writes change disk, not this session's prompt")
    _block(console, "snapshot_block('memory') — still what load() captured", frozen)
    live = "\n".join(f"{i}. {entry}" for i, entry in enumerate(store.entries("memory"), 1))
    _block(console, "entries('memory') — live, after the writes", live)
    unchanged = store.snapshot_block("memory") == frozen
    console.print(Text(f"snapshot unchanged after the writes: {unchanged}",
                       style="green" if unchanged else "bold red"))
    console.print(Text("The next session (or a cache-breaking event) calls load() again "
                       "and picks the change up, paying the prompt-cache cost once.", style="dim"),
                  soft_wrap=True)

    _step(console, 6, "the system-prompt section, as the next session renders it")
    store.load()
    # Plain print: the section must reach the terminal byte for byte, not reflowed.
    console.print(Text(store.system_prompt_section()), soft_wrap=True)


def run() -> None:
    """Print the walkthrough; all files live in a temporary directory removed afterwards."""
    console = Console()
    console.print(Rule(Text("silcrow · curated memory (MEMORY.md / USER.md)", style="bold")))
    with tempfile.TemporaryDirectory(prefix="silcrow-demo-") as tmp:
        _walk(console, Path(tmp) / "home")
