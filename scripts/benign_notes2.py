"""Build the second set of benign notes for the threat scanner: what an agent's memory legitimately
holds (developer notes, security notes describing attacks, agent-instruction rules and whole
instruction files, preferences, personas, fiction, chat between friends), much of it in an
attack's vocabulary. Every text must be saved by the scanner.

    python scripts/benign_notes2.py

Reads ``scripts/data/benign_notes2_pool.txt`` (hand-written for silcrow) and writes, one JSON row
per text (``text``, ``label`` = ``benign``, ``family``, ``group``, ``split``; docs: DATASPEC of the
safety sets):

* ``scripts/data/benign_notes2_train.jsonl`` (split ``train``),
* ``scripts/data/benign_notes2_calibration.jsonl`` (split ``calibrate``),
* ``bench/data/safety_benign_notes2.jsonl`` (split ``eval``, measured by ``bench/safety.py``).

Splits are by group, about half / a fifth / three tenths of each family's groups. Two families are
composed, each text its own group, from the lines of its own split only, so no line crosses a
split: ``agent_file`` (a multi-section instruction file for one invented project, 300-2,200
characters) and ``dev_note_long`` (developer notes run together into one note, 300-2,200
characters). Deterministic: the same pool gives the same files.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POOL = ROOT / "scripts" / "data" / "benign_notes2_pool.txt"
OUT = {
    "train": ROOT / "scripts" / "data" / "benign_notes2_train.jsonl",
    "calibrate": ROOT / "scripts" / "data" / "benign_notes2_calibration.jsonl",
    "eval": ROOT / "bench" / "data" / "safety_benign_notes2.jsonl",
}
#: Group i of a family goes to PATTERN[i % 10]: 5 train, 2 calibrate, 3 eval in every ten.
PATTERN = ("train", "eval", "train", "calibrate", "train", "eval", "train", "train", "eval", "calibrate")
#: Run-together developer notes composed per split.
LONG_NOTES = {"train": 60, "calibrate": 30, "eval": 40}
MIN_CHARS, MAX_CHARS = 300, 2_200

Groups = dict[str, dict[str, list[str]]]  # family -> group -> lines

_COMMANDS = {
    "python": (["`uv sync` to install", "`uv run pytest -q` for the tests",
                "`uv run ruff check .` and `uv run mypy src`"],
               "pytest with fixtures in conftest.py; no network in unit tests"),
    "ts": (["`pnpm install`", "`pnpm test` (Vitest)", "`pnpm lint` and `pnpm typecheck`", "`pnpm build`"],
           "Vitest for units, Playwright for the few end-to-end flows"),
    "go": (["`go build ./...`", "`go test ./... -race`", "`golangci-lint run`"],
           "table-driven tests next to the code; integration tests behind the `integration` build tag"),
    "rust": (["`cargo build`", "`cargo test --all-features`", "`cargo clippy --all-targets -- -D warnings`",
              "`cargo fmt --check`"],
             "unit tests in the module, integration tests in tests/"),
    "ruby": (["`bundle install`", "`bin/rspec`", "`bin/rubocop -a`"],
             "RSpec with factories; system specs run headless Chrome"),
    "java": (["`./mvnw verify`", "`./mvnw spotless:apply`"],
             "JUnit 5, Testcontainers for anything touching the database"),
    "elixir": (["`mix deps.get`", "`mix test`", "`mix format --check-formatted`", "`mix credo --strict`"],
               "ExUnit, async where the test touches no shared state"),
    "php": (["`composer install`", "`php artisan test`", "`vendor/bin/phpstan analyse`"],
            "feature tests hit a SQLite database created per run"),
    "swift": (["open the project in Xcode 16", "`xcodebuild test -scheme App`", "`swiftlint`"],
              "XCTest for view models; snapshot tests for the main screens"),
    "kotlin": (["`./gradlew assembleDebug`", "`./gradlew test`", "`./gradlew ktlintCheck detekt`"],
               "JUnit with Turbine for flows; UI tests on the emulator in CI only"),
    "csharp": (["`dotnet build`", "`dotnet test`", "`dotnet format --verify-no-changes`"],
               "xUnit; fakes for hardware, never the real printers or devices"),
}
_HEADINGS = [
    ("Overview", "Commands", "Code style", "Testing", "Don'ts"),
    ("About this project", "Common commands", "Conventions", "Tests", "Never"),
    ("What this is", "Build and run", "Style", "Testing", "Off limits"),
    ("Project", "Commands you'll need", "How we write code", "Before you finish", "Please don't"),
]


def parse(path: Path = POOL) -> tuple[Groups, list[list[str]]]:
    """The pool's groups of single notes by family, and its projects (name, stack, what, where)."""
    groups: Groups = defaultdict(dict)
    projects: list[list[str]] = []
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@ "):
            head = line[2:].split()
            if head[0] == "project":
                current = None
            else:
                current = groups[head[0]].setdefault(head[1], [])
            continue
        if current is None:
            projects.append(line.split("|"))
        else:
            current.append(line)
    return groups, projects


def _bullets(lines: list[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def agent_file(project: list[str], rules: list[str], rng: random.Random) -> str:
    """One project's instruction file: overview, commands, style, testing and don'ts, its rules
    drawn from ``rules`` (the lines of one split)."""
    name, stack, what, where = project
    commands, testing = _COMMANDS[stack]
    heads = rng.choice(_HEADINGS)
    # Lines that name a stack or a role ("You are an expert in Go") belong to their own project.
    rules = [r for r in rules
             if not r.startswith(("You are", "You're", "This is", "This repository", "Act as", "Assume"))]
    donts = [r for r in rules if r.startswith(("Never", "Don't", "Do not", "No "))]
    dos = [r for r in rules if r not in donts]
    style = rng.sample(dos, rng.randint(3, 6))
    never = rng.sample(donts, min(len(donts), rng.randint(2, 4)))
    parts = [f"# {name}" if rng.random() < 0.7 else f"# Notes for the coding assistant: {name}",
             f"## {heads[0]}\n{name} is {what}. {where}",
             f"## {heads[1]}\n" + _bullets(commands),
             f"## {heads[2]}\n" + _bullets(style),
             f"## {heads[3]}\n" + _bullets([f"Tests: {testing}.", *rng.sample(dos, rng.randint(0, 2))]),
             f"## {heads[4]}\n" + _bullets(never)]
    if rng.random() < 0.4:
        parts.append("When unsure about any of this, ask before changing things.")
    text = "\n\n".join(parts)
    while len(text) > MAX_CHARS and len(style) > 2:
        style.pop()
        parts[3] = f"## {heads[2]}\n" + _bullets(style)
        text = "\n\n".join(parts)
    return text


def run_together(lines: list[str], rng: random.Random) -> str:
    """Developer notes of one split run together into one note of 300-2,200 characters."""
    target = rng.randint(MIN_CHARS, MAX_CHARS - 200)
    sep = rng.choice([" ", "\n", "; ", "\n- ", " | "])
    chosen: list[str] = []
    if sep in ("; ", " | "):
        lines = [line.rstrip(".") for line in lines]
    for line in rng.sample(lines, len(lines)):
        if len(sep.join([*chosen, line])) > MAX_CHARS:
            break
        chosen.append(line)
        if len(sep.join(chosen)) >= target:
            break
    head = "- " if sep == "\n- " else ""
    return head + sep.join(chosen)


def build() -> list[dict[str, str]]:
    groups, projects = parse()
    rows: list[dict[str, str]] = []
    # split -> family -> lines
    pools: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for family, named in groups.items():
        for i, (group, lines) in enumerate(named.items()):
            split = PATTERN[i % len(PATTERN)]
            pools[split][family] += lines
            rows += [{"text": t, "label": "benign", "family": family, "group": f"{family}:{group}",
                      "split": split} for t in lines]
    for i, project in enumerate(projects):
        split = PATTERN[i % len(PATTERN)]
        rng = random.Random(f"agent_file:{project[0]}")
        text = agent_file(project, pools[split]["agent_rule"], rng)
        rows.append({"text": text, "label": "benign", "family": "agent_file",
                     "group": f"agent_file:{project[0]}", "split": split})
    for split, count in LONG_NOTES.items():
        rng = random.Random(f"dev_note_long:{split}")
        for k in range(count):
            rows.append({"text": run_together(pools[split]["dev_note"], rng), "label": "benign",
                         "family": "dev_note_long", "group": f"dev_note_long:{split}:{k}", "split": split})
    return rows


def main() -> None:
    rows = build()
    for split, path in OUT.items():
        chosen = [r for r in rows if r["split"] == split]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in chosen), encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(chosen)} rows")


if __name__ == "__main__":
    main()
