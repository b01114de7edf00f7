"""How much memory do silcrow's Claude Code hooks take on huge input? A hook runs on every prompt.

One command: ``python bench/hook_bounds.py [--prompt-mb 50] [--transcript-mb 150]``. Prints ONE
JSON object on stdout (progress on stderr).

Each hook is run as Claude Code runs it: a new ``silcrow --home H hook EVENT`` process with the
hook JSON on stdin, on a home whose local recall holds the test transcripts under
tests/data/coding. For each process its peak resident memory (VmHWM, sampled every 20 ms) and the
wall-clock seconds are taken. Measured in the same run:

  prompt_baseline      user-prompt-submit with a one-line question
  prompt_mid           user-prompt-submit with a ``--mid-prompt-mb`` prompt (varied log lines, then
                       the question), as a user pasting a log would send: under the hook's input
                       bound, so recall runs (on the prompt's end)
  prompt_large         the same with a ``--prompt-mb`` prompt: over the input bound
  transcript_baseline  session-end on a fresh 14-line transcript
  transcript_large     session-end on a fresh ``--transcript-mb`` transcript: mostly tool results
                       of 64 KiB (file reads), a user and an assistant turn every 20 lines, and one
                       pasted 20 MB user message

and each large figure's ratio to its baseline.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console

from silcrow.home import open_profile
from silcrow.recall._coding import load_transcripts, transcript_files
from silcrow.recall.local import LocalProvider

err = Console(stderr=True)
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "coding"
SILCROW = Path(sys.executable).parent / "silcrow"
TRANSCRIPT = next(DATA.rglob("5b1f0c7e-*.jsonl"))
QUESTION = "why did the nightly backup upload fail?"
MB = 1_000_000


def _peak_mb(pid: int) -> float | None:
    """The process's peak resident memory so far (VmHWM), None once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def measured(home: Path, event: str, payload_file: Path) -> dict[str, Any]:
    """Run one hook process on the JSON in ``payload_file``: its peak RSS (MB) and seconds.

    The peak is the process's own VmHWM, read every 20 ms while it runs: ``ru_maxrss`` would not
    do, since Linux carries the parent's peak over into a child at exec, and this bench process
    holds the big payloads."""
    start = time.perf_counter()
    out_file, err_file = payload_file.with_suffix(".out"), payload_file.with_suffix(".err")
    peak = 0.0
    with payload_file.open("rb") as stdin, out_file.open("wb") as out, err_file.open("wb") as errors:
        proc = subprocess.Popen([str(SILCROW), "--home", str(home), "hook", event], stdin=stdin,
                                stdout=out, stderr=errors)
        while proc.poll() is None:
            peak = max(peak, _peak_mb(proc.pid) or 0.0)
            time.sleep(0.02)
    elapsed = time.perf_counter() - start
    stdout, stderr = out_file.read_bytes(), err_file.read_bytes()
    if proc.returncode != 0:
        raise SystemExit(f"{event} exited {proc.returncode}: {stderr.decode(errors='replace')}")
    return {"peak_rss_mb": round(peak, 1), "seconds": round(elapsed, 2),
            "added_context": bool(stdout.strip()),
            "message": stderr.decode("utf-8", "replace").strip()[:200]}


def write_payload(path: Path, payload: dict[str, Any]) -> Path:
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def big_prompt(size: int) -> str:
    lines, total, n = [], 0, 0
    while total < size:
        line = (f"2026-02-12T03:{n % 60:02d}:{n % 57:02d}Z backup-worker[{n % 97}] chunk {n} of dump "
                f"pg-{n % 13}.sql.gz uploaded {n * 7 % 9973} KiB to s3://ops-backups/nightly/{n % 31}\n")
        lines.append(line)
        total += len(line)
        n += 1
    return "".join(lines) + QUESTION


def _line(session: str, n: int, kind: str, content: Any, role: str) -> str:
    return json.dumps({
        "parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/home/ana/src/tidepool",
        "sessionId": session, "version": "2.1.39", "gitBranch": "main", "type": kind,
        "message": {"role": role, "content": content}, "uuid": str(uuid.UUID(int=n)),
        "timestamp": "2026-02-12T16:02:25.284Z"})


def big_transcript(path: Path, size: int, session: str) -> int:
    """A Claude Code transcript of about ``size`` bytes; returns the number of text turns in it."""
    tool_text = "".join(f"{i:>6}\tline {i} of a source file the agent read with the Read tool\n"
                        for i in range(1100))[:64 * 1024]
    written, n, turns = 0, 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < size:
            n += 1
            if n == 50:  # a pasted log as one user message (20 MB in a 150 MB transcript)
                line = _line(session, n, "user", big_prompt(min(20 * MB, size // 7)), "user")
                turns += 1
            elif n % 20 == 0:
                asked = f"Turn {n}: please check chunk {n} of the backup job."
                line = _line(session, n, "user", asked, "user")
                turns += 1
            elif n % 20 == 1 and n > 1:
                line = _line(session, n, "assistant", [{"type": "text", "text":
                             f"Chunk {n} uploaded after a retry; the timeout is 300 s."}], "assistant")
                turns += 1
            else:
                line = _line(session, n, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{n}",
                                                   "content": tool_text}], "user")
            out.write(line + "\n")
            written += len(line) + 1
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mid-prompt-mb", type=float, default=4)
    parser.add_argument("--prompt-mb", type=float, default=50)
    parser.add_argument("--transcript-mb", type=float, default=150)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_text:
        tmp = Path(tmp_text)
        home = tmp / "silcrow"
        open_profile(home, create=True).store().add("memory", "tidepool deploys with Ansible.")
        records = load_transcripts(transcript_files(DATA), client=None, skipped=Counter())
        err.print(f"ingesting {len(records)} turns into local recall ...")
        provider = LocalProvider(home)
        provider.initialize("bench", home=home)
        provider.ingest(records)
        provider.shutdown()
        session = str(uuid.uuid4())
        common = {"session_id": session, "cwd": "/home/ana/src/tidepool",
                  "hook_event_name": "UserPromptSubmit"}
        result: dict[str, Any] = {}

        err.print("user-prompt-submit: a one-line question")
        small = write_payload(tmp / "small.json", {**common, "prompt": QUESTION})
        result["prompt_baseline"] = measured(home, "user-prompt-submit", small)
        err.print(f"user-prompt-submit: a {args.mid_prompt_mb:g} MB prompt")
        mid = write_payload(tmp / "mid.json", {**common, "prompt": big_prompt(int(args.mid_prompt_mb * MB))})
        result["prompt_mid"] = {"prompt_bytes": mid.stat().st_size,
                                **measured(home, "user-prompt-submit", mid)}
        err.print(f"user-prompt-submit: a {args.prompt_mb:g} MB prompt")
        large = write_payload(tmp / "large.json", {**common, "prompt": big_prompt(int(args.prompt_mb * MB))})
        result["prompt_large"] = {"prompt_bytes": large.stat().st_size,
                                  **measured(home, "user-prompt-submit", large)}
        large.unlink()

        err.print("session-end: a 14-line transcript")
        fresh = tmp / f"{uuid.uuid4()}.jsonl"
        fresh.write_bytes(TRANSCRIPT.read_bytes())
        end = write_payload(tmp / "end.json", {**common, "hook_event_name": "SessionEnd",
                                               "transcript_path": str(fresh), "reason": "other"})
        result["transcript_baseline"] = measured(home, "session-end", end)
        err.print(f"session-end: writing a {args.transcript_mb:g} MB transcript ...")
        huge = tmp / f"{uuid.uuid4()}.jsonl"
        turns = big_transcript(huge, int(args.transcript_mb * MB), session)
        end = write_payload(tmp / "end-large.json", {**common, "hook_event_name": "SessionEnd",
                                                     "transcript_path": str(huge), "reason": "other"})
        err.print(f"session-end: ingesting it ({turns} text turns)")
        result["transcript_large"] = {"transcript_bytes": huge.stat().st_size, "text_turns": turns,
                                      **measured(home, "session-end", end)}
        result["rss_ratio_to_baseline"] = {
            kind: round(result[f"{kind}_large"]["peak_rss_mb"] / result[f"{kind}_baseline"]["peak_rss_mb"], 2)
            for kind in ("prompt", "transcript")}
        result["rss_ratio_to_baseline"]["prompt_mid"] = round(
            result["prompt_mid"]["peak_rss_mb"] / result["prompt_baseline"]["peak_rss_mb"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
