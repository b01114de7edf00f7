"""The prompt section with and without a project block: its build time and the prefix cache.

    .venv/bin/python bench/project_prompt.py [--builds 200] [--turns 24]

A project's notes (PROJECT.md of the git work tree a session runs in) add a third frozen block
to the system prompt. This measures what that costs and checks that it keeps the promise of the
other two blocks, in one run, the profile without a project being the baseline:

* ``build_ms``: opening the notes and building the prompt section, as a session start does
  (``Profile.notes(project=...)``, ``load()``, ``prompt_section()``), on a home whose MEMORY.md
  and USER.md are nearly full, with and without a nearly full PROJECT.md of a real ``git init``
  work tree: the median and 95th percentile over ``--builds`` builds of each, taking turns;
  ``section_chars``: the section's size;
* ``prefix_cache``: a session of ``--turns`` turns through the real Agent (the model is the
  ScriptedModelServer stand-in; the notes, sessions and journal are real; recall is off so that
  only the notes differ), in which the model writes a note every third turn (to ``project``
  in the project run, to ``memory`` in the baseline): ``system_prompt_identical`` says whether
  the system prompt stayed byte for byte the same across every request of the session while
  the writes landed (``writes_committed`` of them), and ``cacheable_share`` is the share of
  prompt characters that are a byte-identical prefix of the request before (as
  bench/prefix_cache.py counts it). ``next_session_sees_writes``: a new session's prompt
  holds what was written.

Prints one JSON object on stdout; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from silcrow.agent import Agent
from silcrow.home import open_profile
from silcrow.testing import ScriptedModelServer

err = Console(stderr=True)


def seed(home: Path, root: Path) -> None:
    """Nearly full notes: MEMORY.md, USER.md and the project's PROJECT.md (about 85% each)."""
    profile = open_profile(home)
    notes = profile.notes(project=root)
    for n in range(22):
        notes.add("memory", f"Environment fact {n}: the build host {n} runs Debian 12 with Python 3.12.",
                  origin="api")
    for n in range(16):
        notes.add("user", f"Preference {n}: the user likes concise answers, item {n}.", origin="api")
    for n in range(22):
        notes.add("project", f"Project fact {n}: module {n} is tested with `make check-{n}` before merging.",
                  origin="api")


def build_times(home: Path, root: Path, builds: int, progress: Progress) -> dict[str, Any]:
    profile = open_profile(home)
    samples: dict[str, list[float]] = {"no_project": [], "project": []}
    chars: dict[str, int] = {}
    task = progress.add_task("prompt builds", total=builds * 2)
    for _ in range(builds):
        for name, project in (("no_project", None), ("project", root)):
            start = time.perf_counter()
            notes = profile.notes(project=project)
            notes.load()
            section = notes.prompt_section()
            samples[name].append((time.perf_counter() - start) * 1000)
            chars[name] = len(section)
            progress.advance(task)
    out: dict[str, Any] = {}
    for name, values in samples.items():
        ordered = sorted(values)
        out[name] = {"median": round(statistics.median(ordered), 3),
                     "p95": round(ordered[int(len(ordered) * 0.95) - 1], 3), "section_chars": chars[name]}
    out["project_over_no_project"] = round(out["project"]["median"] / out["no_project"]["median"], 3)
    return out


def _serialise(body: dict[str, Any]) -> str:
    parts = [json.dumps(body.get("tools") or [], sort_keys=True, ensure_ascii=False)]
    parts += [json.dumps(m, sort_keys=True, ensure_ascii=False) for m in body["messages"]]
    return "\n".join(parts)


def _common(a: str, b: str) -> int:
    n, i = min(len(a), len(b)), 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def session(home: Path, root: Path | None, turns: int, progress: Progress) -> dict[str, Any]:
    target = "project" if root is not None else "memory"
    task = progress.add_task(f"session ({'project' if root else 'no project'})", total=turns)
    written: list[str] = []

    def model(body: dict[str, Any]) -> dict[str, Any]:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return {"content": "Saved."}
        said = str(last.get("content") or "")
        if said.startswith("Turn ") and int(said.split()[1].rstrip(":")) % 3 == 1 and body.get("tools"):
            fact = f"Learned in turn {said.split()[1].rstrip(':')}: the deploy uses blue-green."
            written.append(fact)
            return {"tool_calls": [{"name": "memory", "arguments": {
                "action": "add", "target": target, "content": fact}}]}
        return {"content": "Here is a short answer with two concrete steps."}

    with ScriptedModelServer(default=model) as server:
        agent = Agent("stand-in", base_url=server.base_url, home=home, provider=None, embedder="none",
                      flush_min_turns=10_000, nudge_interval=0, project=root)
        for n in range(turns):
            agent.run_turn(f"Turn {n}: what about the deploy of service {n}?")
            progress.advance(task)
        requests = list(server.requests)
        agent.new_session()
        agent.run_turn("Turn 999: a new session")
        next_system = server.requests[-1]["messages"][0]["content"]
        agent.close()
    systems = {r["messages"][0]["content"] for r in requests}
    texts = [_serialise(r) for r in requests]
    cached = [0] + [_common(texts[i - 1], texts[i]) for i in range(1, len(texts))]
    committed = open_profile(home).notes(project=root).entries(target)
    return {
        "requests": len(requests),
        "writes_committed": sum(fact in committed for fact in written),
        "system_prompt_identical": len(systems) == 1,
        "cacheable_share": round(sum(cached) / sum(len(t) for t in texts), 4),
        "system_prompt_chars": len(next(iter(systems))),
        "next_session_sees_writes": bool(written) and all(fact in next_system for fact in written),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", type=int, default=200)
    parser.add_argument("--turns", type=int, default=24)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="silcrow-bench-project-") as tmp, Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=err) as progress:
        root = Path(tmp) / "repo"
        root.mkdir()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        home = Path(tmp) / "home"
        seed(home, root)
        built = build_times(home, root, args.builds, progress)
        # Each session on a home of its own, seeded alike, so one's writes do not fill the other's.
        seed(Path(tmp) / "home-b", root)
        cache = {"no_project": session(Path(tmp) / "home-b", None, args.turns, progress),
                 "project": session(home, root, args.turns, progress)}
    print(json.dumps({"builds": args.builds, "turns": args.turns, "build_ms": built, "prefix_cache": cache},
                     indent=2))


if __name__ == "__main__":
    main()
