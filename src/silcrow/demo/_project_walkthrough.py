"""The project-notes part of `make demo`: two git work trees, each with its own PROJECT.md.

Everything is real: ``git init`` makes the two work trees, the notes are written and shown by
the ``silcrow`` command run in each of them (a subprocess, as a user types it), and an
:class:`~silcrow.agent.Agent` in one project writes to that project with the memory tool. The
model is the same scripted stand-in as the agent part's
(:class:`~silcrow.testing.ScriptedModelServer` on loopback). It runs in a temporary home,
offline, and never touches ``~/.silcrow``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from silcrow.agent import Agent
from silcrow.demo._agent_walkthrough import _digest, _said, _step
from silcrow.demo._checks import report
from silcrow.serve import silcrow_command
from silcrow.testing import ScriptedModelServer

USER_NOTE = "User is Rui; prefers short answers."
APP_NOTE = "app: run the tests with `make check`; never edit src/app/_gen/ by hand."
API_NOTE = "api: the OpenAPI schema in openapi.yaml is the source of truth; regenerate with `make schema`."
AGENT_NOTE = "app: releases are tagged vX.Y.Z; CI publishes them."
ASK = "Remember for this project: releases are tagged vX.Y.Z and CI publishes them."
AGAIN = "Thanks. Which target did that go to?"


class _Shell:
    """The ``silcrow`` command in a subprocess, on the walkthrough's home, echoed as typed."""

    def __init__(self, console: Console, home: Path, top: Path) -> None:
        self.console, self.home, self.top = console, home, top

    def run(self, where: Path, *args: str) -> str:
        shown = " ".join(a if " " not in a else f'"{a}"' for a in args)
        place = "." if where == self.top else where.name
        self.console.print(Text(f"{place}$ silcrow {shown}", style="bold"), soft_wrap=True)
        done = subprocess.run([*silcrow_command(), "--home", str(self.home), *args], cwd=where,
                              capture_output=True, text=True, encoding="utf-8", timeout=120,
                              env={**os.environ, "NO_COLOR": "1"})
        if done.returncode != 0:
            self.console.print(Text(f"  exit {done.returncode}: {done.stderr.strip()}", style="bold red"),
                               soft_wrap=True)
        return done.stdout if done.returncode == 0 else ""


def _block(prompt: str, name: str) -> str:
    """The block of the frozen section whose header starts with ``name`` ('' when absent)."""
    marker = "═" * 46
    parts = prompt.split(marker)
    for i, part in enumerate(parts[:-1]):
        if part.strip().startswith(name):
            return parts[i + 1].strip()
    return ""


def _targets(request: dict[str, Any]) -> list[str]:
    tool = next(t for t in request.get("tools", []) if t["function"]["name"] == "memory")
    return list(tool["function"]["parameters"]["properties"]["target"].get("enum", []))


def _walk(console: Console, top: Path, server: ScriptedModelServer) -> list[tuple[str, bool]]:
    checks: list[tuple[str, bool]] = []
    home = top / "home"
    app, api = top / "app", top / "api"
    shell = _Shell(console, home, top)

    _step(console, 1, "two git work trees, a project note in each, and a note on the user")
    for tree in (app, api):
        subprocess.run(["git", "init", "-q", str(tree)], check=True, capture_output=True, timeout=60)
        console.print(Text(f"$ git init {tree.name}", style="bold"))
    console.print(Text(f"  (every silcrow command below runs with --home {home})", style="dim"),
                  soft_wrap=True)
    shell.run(app, "memory", "add", APP_NOTE, "--target", "project")
    shell.run(api, "memory", "add", API_NOTE, "--target", "project")
    shell.run(top, "memory", "add", USER_NOTE, "--target", "user")
    listing = shell.run(top, "memory", "projects")
    console.print(Text(listing.rstrip()), soft_wrap=True)
    checks.append(("`memory projects` lists both work trees",
                   str(app) in listing and str(api) in listing))

    _step(console, 2, "each project's frozen prompt: its own PROJECT block and the user's, never the other's")
    prompts = {tree: shell.run(tree, "memory", "prompt") for tree in (app, api)}
    console.print(Panel(Text(prompts[app].rstrip()), title="app$ silcrow memory prompt",
                        title_align="left", border_style="blue"))
    for tree, own, other in ((app, APP_NOTE, API_NOTE), (api, API_NOTE, APP_NOTE)):
        block = _block(prompts[tree], "PROJECT")
        checks.append((f"{tree.name}: PROJECT block names {tree.name} and holds its note, not the other's",
                       f"project at {tree}" in prompts[tree] and own in block
                       and other not in prompts[tree]))
        checks.append((f"{tree.name}: the user's note is in its prompt too",
                       USER_NOTE in _block(prompts[tree], "USER PROFILE")))

    _step(console, 3, "an agent session in app writes to the project with the memory tool")
    server.enqueue({"tool_calls": [{"name": "memory", "arguments": {
                        "action": "add", "target": "project", "content": AGENT_NOTE}}]},
                   {"content": "Saved to this project's notes."},
                   {"content": "The project target: only sessions in app see it."})
    agent = Agent("stand-in", base_url=server.base_url, home=home, project=app, embedder="none")
    try:
        for text in (ASK, AGAIN):
            _said(console, "user", text)
            _said(console, "assistant", agent.run_turn(text))
            if text == ASK:
                calls = next(m["tool_calls"] for m in agent.messages if m.get("tool_calls"))
                for call in calls:
                    console.print(Text(f"  tool call: memory {call['function']['arguments']}",
                                       style="dim"), soft_wrap=True)
        prompts_sent = [r["messages"][0]["content"] for r in server.requests]
        for i, prompt in enumerate(prompts_sent, 1):
            console.print(Text(f"  request {i}: system prompt sha256 {_digest(prompt)} "
                               f"({len(prompt):,} chars)"))
        checks.append(("the memory tool offers the target 'project' in a project",
                       "project" in _targets(server.requests[0])))
        first = prompts_sent[0]
        checks.append(("the session's prompt has app's PROJECT block and the user's, not api's",
                       f"project at {app}" in first and APP_NOTE in _block(first, "PROJECT")
                       and USER_NOTE in _block(first, "USER PROFILE")
                       and API_NOTE not in first))
        checks.append(("system prompt byte-identical within the session after the write",
                       len(set(prompts_sent)) == 1 and AGENT_NOTE not in first))
    finally:
        agent.close()

    _step(console, 4, "the write is on disk in app's PROJECT.md only; the next session shows it")
    shown = shell.run(app, "memory", "show", "--target", "project")
    console.print(Text(shown.rstrip()), soft_wrap=True)
    after = {tree: shell.run(tree, "memory", "prompt") for tree in (app, api)}
    checks.append(("the agent's note is in app's PROJECT.md on disk", AGENT_NOTE in shown))
    checks.append(("a new session in app gets the agent's note; one in api does not",
                   AGENT_NOTE in _block(after[app], "PROJECT") and AGENT_NOTE not in after[api]
                   and API_NOTE in _block(after[api], "PROJECT")))
    return checks


def run(console: Console | None = None) -> bool:
    """Run the walkthrough; returns True when every check held."""
    console = console or Console()
    console.print()
    console.print(Rule(Text("silcrow project notes (PROJECT.md per git work tree)", style="bold magenta")))
    if shutil.which("git") is None:
        console.print(Text("skipped: this part makes two work trees with `git init`, and git is not on "
                           "PATH; install git to see it", style="yellow"), soft_wrap=True)
        return True
    console.print(Text(
        "Two throw-away git work trees and a temporary home; the silcrow command runs in each as you "
        "would type it. The model of step 3 is the SCRIPTED STAND-IN of the agent part (not a "
        "language model); the Agent, the notes and the memory tool are real.", style="yellow"),
        soft_wrap=True)
    with tempfile.TemporaryDirectory(prefix="silcrow-demo-project-") as tmp, \
            ScriptedModelServer(default={"content": "ok"}) as server:
        # The real path: a project is known by its root with symlinks resolved (/tmp on macOS).
        checks = _walk(console, Path(tmp).resolve(), server)
    return report(console, "project notes walkthrough", checks)
