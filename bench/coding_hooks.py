"""How long do silcrow's Claude Code hooks take? Claude Code waits for a hook before it goes on.

One command: ``python bench/coding_hooks.py [--runs 5] [--turns 2000]``. Prints ONE JSON object
on stdout (progress on stderr).

Each hook is run as Claude Code runs it: a new ``silcrow --home H hook EVENT`` process with the
hook JSON on stdin, on a home whose recall holds ``--turns`` turns of imported coding sessions
(the test transcripts under tests/data/coding, repeated with their words varied). Measured in
the same run:

  baseline            ``silcrow --version``-like work: ``silcrow --home H hook session-end`` with
                      no transcript_path (starts the CLI, reads stdin, returns at once)
  session_start       the notes' prompt section (first run of a session, then the frozen copy)
  user_prompt_submit  recall for a prompt, screened and fenced (loads the embedding model)
  session_end         ingesting 12 new transcript lines

Figures are median seconds over ``--runs`` runs, and each hook's ratio to the baseline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

from rich.console import Console

from silcrow.home import open_profile
from silcrow.recall._coding import load_transcripts, transcript_files
from silcrow.recall.local import LocalProvider

err = Console(stderr=True)
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "coding"
SILCROW = Path(sys.executable).parent / "silcrow"
TRANSCRIPT = next(DATA.rglob("5b1f0c7e-*.jsonl"))


def timed(home: Path, event: str, payload: dict[str, object]) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [str(SILCROW), "--home", str(home), "hook", event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{event} exited {done.returncode}: {done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "silcrow"
        store = open_profile(home, create=True).store()
        store.add("memory", "tidepool deploys with Ansible from the ops repository.")
        base = load_transcripts(transcript_files(DATA), client=None, skipped=Counter())
        records = []
        for n in range(max(1, args.turns // len(base))):
            for r in base:
                records.append(
                    type(r)(
                        text=f"{r.text} (variant {n})",
                        kind="turn",
                        session_id=f"{r.session_id}-{n}",
                        speaker=r.speaker,
                        timestamp=r.timestamp,
                        metadata=r.metadata,
                    )
                )
        err.print(f"ingesting {len(records)} turns ...")
        provider = LocalProvider(home)
        provider.initialize("bench", home=home)
        provider.ingest(records)
        provider.shutdown()
        figures: dict[str, list[float]] = {
            k: [] for k in ("baseline", "session_start", "user_prompt_submit", "session_end")
        }
        for run in range(args.runs):
            err.print(f"run {run + 1}/{args.runs}")
            session = str(uuid.uuid4())
            transcript = Path(tmp) / f"{session}.jsonl"
            transcript.write_text(TRANSCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
            common = {
                "session_id": session,
                "transcript_path": str(transcript),
                "cwd": "/home/ana/src/tidepool",
            }
            figures["baseline"].append(timed(home, "session-end", {}))
            figures["session_start"].append(timed(home, "session-start", {**common, "source": "startup"}))
            figures["user_prompt_submit"].append(
                timed(
                    home,
                    "user-prompt-submit",
                    {**common, "prompt": "why did the nightly backup upload fail?"},
                )
            )
            figures["session_end"].append(timed(home, "session-end", {**common, "reason": "other"}))
        medians = {k: round(statistics.median(v), 3) for k, v in figures.items()}
        result = {
            "runs": args.runs,
            "turns_in_recall": len(records),
            "median_seconds": medians,
            "ratio_to_baseline": {
                k: round(v / medians["baseline"], 2) for k, v in medians.items() if k != "baseline"
            },
            "deadlines_seconds": {"session_start": 20, "user_prompt_submit": 20, "session_end": 100},
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
