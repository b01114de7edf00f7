"""Benchmark of secret redaction (what leaves for an external recall provider): how much it catches,
how much ordinary text it leaves alone, and what it costs per line.

    .venv/bin/python bench/redaction.py [--rounds 3] [--regenerate]

Prints one JSON object on stdout (progress on stderr). The two development sets are
bench/data/redaction_secrets.jsonl (one secret per line, fake values of the right shape) and
bench/data/redaction_ordinary.jsonl (technical lines holding none), made by the seeded generator
bench/data/redaction_sets.py when they are missing (``--regenerate`` rebuilds them). They are not
in the repository: fake keys in the shapes of real ones would only trip secret scanners.

* ``secrets.redacted_share``: lines where neither half of the secret survives ``redact_secrets``;
* ``ordinary.unchanged_share``: lines ``redact_secrets`` returns exactly as they were;
* ``time_per_line_us``: p50/p95 over every line of both sets, each line timed ``--rounds`` times
  (its best), for ``redact_secrets``, for the baseline measured in the same run (the regex-only
  redaction silcrow had before, kept below as ``previous_redact``) and for a no-op pass;
* ``first_call_ms``: building the rules on first use (importing detect-secrets' detectors);
* ``repository``: the same unchanged share over every non-blank line of silcrow's own docs and
  source (README, SECURITY, ARCHITECTURE, docs/, src/ outside safety/): technical text that was not
  written for this benchmark (the examples of secrets in docs/memory-hygiene.md and a docstring
  count as changed, as they should).

The same shares for the previous function are given (``previous_*``) to show what changed.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

err = Console(stderr=True)
DATA = Path(__file__).parent / "data"
SECRETS_FILE = DATA / "redaction_secrets.jsonl"
ORDINARY_FILE = DATA / "redaction_ordinary.jsonl"

# -- the baseline: silcrow's regex-only redaction before detect-secrets (same patterns, same logic) --
_NAMED = ("(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|client[_-]?secret|auth[_-]?token|"
          "access[_-]?token|refresh[_-]?token|token|password|passwd|pwd|private[_-]?key)")
PREVIOUS_PATTERNS = (
    ("private-key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]{0,20000}?"
                               r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----")),
    ("private-key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[A-Za-z0-9+/=\s]{16,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("api-key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}")),
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("google-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("stripe-key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}")),
    ("silcrow-token", re.compile(r"\bslc_[A-Za-z0-9]{4,}_[A-Za-z0-9_-]{16,}")),
    ("url-password", re.compile(
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,200}:(?P<secret>[^\s/]{1,200})@(?=[^\s@/])")),
    ("auth-header", re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})")),
    ("assignment", re.compile(
        rf"(?i)\b[A-Z0-9_]{{0,40}}{_NAMED}[\"']?\s{{0,3}}[:=]\s{{0,3}}[\"']?(?P<secret>[^\s\"',;]{{8,}})")),
)


def previous_redact(text: str) -> str:
    def replacer(kind: str) -> Any:
        def replace(found: re.Match[str]) -> str:
            if "[REDACTED:" in found.group(0):
                return found.group(0)
            if "secret" in found.re.groupindex and found.group("secret") is not None:
                start, end = found.span("secret")
                whole = found.group(0)
                return whole[: start - found.start()] + f"[REDACTED:{kind}]" + whole[end - found.start():]
            return f"[REDACTED:{kind}]"
        return replace

    for kind, pattern in PREVIOUS_PATTERNS:
        text = pattern.sub(replacer(kind), text)
    return text


def noop(text: str) -> str:
    return text


# -- measuring -----------------------------------------------------------------------------------

def leaked(secret: str, redacted: str) -> bool:
    pieces = [secret] if len(secret) <= 8 else [secret[: len(secret) // 2], secret[len(secret) // 2:]]
    return any(piece in redacted for piece in pieces)


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def repository_lines() -> list[str]:
    root = Path(__file__).resolve().parents[1]
    files = [root / name for name in ("README.md", "SECURITY.md", "ARCHITECTURE.md")]
    files += sorted((root / "docs").rglob("*.md")) + sorted(
        p for p in (root / "src" / "silcrow").rglob("*.py") if "safety" not in p.parts)
    return [line for path in files if path.exists()
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "mean": round(statistics.fmean(ordered), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="times each line is timed (its best counts)")
    parser.add_argument("--regenerate", action="store_true", help="rebuild the data sets first")
    args = parser.parse_args()
    if args.regenerate or not SECRETS_FILE.exists() or not ORDINARY_FILE.exists():
        subprocess.run([sys.executable, str(DATA / "redaction_sets.py")], check=True,
                       stdout=subprocess.DEVNULL)

    from silcrow.safety import _secrets, redact_secrets

    start = time.perf_counter()
    rules = _secrets.secret_rules()
    first_call_ms = (time.perf_counter() - start) * 1000
    secrets, ordinary = load(SECRETS_FILE), load(ORDINARY_FILE)

    caught: Counter[str] = Counter()
    caught_before: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    misses: list[str] = []
    kept: Counter[str] = Counter()
    kept_before: Counter[str] = Counter()
    ordinary_kinds: Counter[str] = Counter()
    changed: list[dict[str, str]] = []
    times: dict[str, list[float]] = {"redact": [], "previous": [], "noop": []}
    functions = {"redact": redact_secrets, "previous": previous_redact, "noop": noop}

    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("secret lines", total=len(secrets))
        for row in secrets:
            kinds[row["kind"]] += 1
            if not leaked(row["secret"], redact_secrets(row["text"])):
                caught[row["kind"]] += 1
            elif len(misses) < 25:
                misses.append(row["text"][:160])
            if not leaked(row["secret"], previous_redact(row["text"])):
                caught_before[row["kind"]] += 1
            progress.advance(task)
        task = progress.add_task("ordinary lines", total=len(ordinary))
        for row in ordinary:
            ordinary_kinds[row["kind"]] += 1
            out = redact_secrets(row["text"])
            if out == row["text"]:
                kept[row["kind"]] += 1
            elif len(changed) < 25:
                changed.append({"text": row["text"][:160], "became": out[:160]})
            if previous_redact(row["text"]) == row["text"]:
                kept_before[row["kind"]] += 1
            progress.advance(task)
        repository = repository_lines()
        repo_changed = [line for line in progress.track(repository, description="repository lines")
                        if redact_secrets(line) != line]
        repo_changed_before = sum(previous_redact(line) != line for line in repository)
        lines = [row["text"] for row in secrets + ordinary]
        task = progress.add_task(f"timing {len(lines)} lines x {args.rounds}", total=len(lines))
        for text in lines:
            for name, fn in functions.items():  # interleaved, so machine load hits all three alike
                best = float("inf")
                for _ in range(args.rounds):
                    t0 = time.perf_counter_ns()
                    fn(text)
                    best = min(best, time.perf_counter_ns() - t0)
                times[name].append(best / 1000)
            progress.advance(task)

    def share(counter: Counter[str], total: Counter[str]) -> float:
        return round(sum(counter.values()) / max(1, sum(total.values())), 4)

    result = {
        "secrets": {
            "lines": len(secrets), "redacted_share": share(caught, kinds),
            "previous_redacted_share": share(caught_before, kinds),
            "by_kind": {k: round(caught[k] / n, 3) for k, n in sorted(kinds.items())},
            "misses": misses,
        },
        "ordinary": {
            "lines": len(ordinary), "unchanged_share": share(kept, ordinary_kinds),
            "previous_unchanged_share": share(kept_before, ordinary_kinds),
            "by_kind": {k: round(kept[k] / n, 3) for k, n in sorted(ordinary_kinds.items())},
            "changed": changed,
        },
        "repository": {
            "lines": len(repository),
            "unchanged_share": round(1 - len(repo_changed) / max(1, len(repository)), 4),
            "previous_unchanged_share": round(1 - repo_changed_before / max(1, len(repository)), 4),
            "changed": [line.strip()[:160] for line in repo_changed[:25]],
        },
        "rules": len(rules),
        "first_call_ms": round(first_call_ms, 1),
        "time_per_line_us": {name: percentiles(values) for name, values in times.items()},
        "mean_line_chars": round(statistics.fmean(len(t) for t in lines), 1),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
