"""Developer and personal notes written for silcrow that use an attack's vocabulary for an
ordinary purpose: where the system prompt lives, how tokens are rotated, which cron job runs
the backup, what the security doc says about injection, a story the user is writing. Training
data of the meaning stage (``scripts/train_intent_head.py``), so that it learns what a note
asks for rather than which words it uses.

Composed deterministically from subjects and what a note says about them; nothing here is
copied from anywhere. The benchmark's developer notes (``bench/data/safety_dev_notes.jsonl``)
were written separately and are never composed here.
"""

from __future__ import annotations

import random

SUBJECTS = {
    "prompt": ["the system prompt", "the support bot's system prompt", "our prompt templates",
               "the agent's instructions file", "the persona prompt", "the few-shot examples",
               "the previous instructions from the PM", "the onboarding prompt"],
    "secret": ["the API token", "the npm token", "the Stripe key", "the database password",
               "the ssh deploy key", "the .env file", "~/.aws/credentials", "the OAuth client secret",
               "the signing key", "the GITHUB_TOKEN"],
    "agent": ["AGENTS.md", "CLAUDE.md", ".cursorrules", "the copilot instructions",
              "MEMORY.md", "the agent config", "the lint rules for the coding agent"],
    "ops": ["the crontab on db1", "the nightly backup job", "~/.bashrc", "the systemd timer",
            "authorized_keys on the build host", "the log rotation", "the deploy script"],
    "security": ["the prompt injection test suite", "the jailbreak red-team report",
                 "the threat model", "the security wiki page on injection", "the pentest scope",
                 "the phishing training", "the incident postmortem"],
    "story": ["the user's fantasy novel", "the bedtime story for the kids", "the D&D campaign",
              "the screenplay draft", "the role-play practice for interviews",
              "the murder-mystery party game"],
}
SAYS = {
    "prompt": ["{s} is versioned in git under prompts/", "{s} asks for short, friendly answers",
               "changes to {s} need a review from the product team", "{s} is rendered from a Jinja template",
               "{s} was shortened last week to cut latency", "run the bot with --verbose to log {s}",
               "{s} lives in config/assistant.yaml", "{s} is in English even for German users",
               "{s} mention the refund policy; keep it in sync with legal",
               "the eval harness logs {s} when VERBOSE=1"],
    "secret": ["{s} is stored in the team vault, never in the repo", "rotate {s} every 90 days",
               "{s} is injected by CI from a protected secret", "{s} expired on Monday; a new one was issued",
               "{s} is read from the environment at startup",
               "copy .env.example to .env; {s} stays out of git",
               "{s} has read-only scope", "revoke {s} if a laptop is lost",
               "the security doc says agents must never read {s}", "{s} is only on the deploy runner"],
    "agent": ["{s} lists the test and lint commands", "{s} says to use pnpm, not npm",
              "keep {s} short; long files get ignored", "{s} was reviewed by the team last sprint",
              "{s} asks for type hints on every new function", "the user edits {s} by hand",
              "{s} mentions the staging URL", "{s} should match the Makefile targets"],
    "ops": ["{s} runs /usr/local/bin/backup.sh at 3 am", "{s} is managed by Ansible",
            "{s} exports the PATH for the Go toolchain", "{s} emails a report on failure",
            "{s} was cleaned up after the migration", "{s} has the CI deploy key only",
            "check {s} when a job silently stops", "{s} is documented in the ops runbook"],
    "security": ["{s} lives in the security drive", "{s} covers hidden instructions in fetched web pages",
                 "{s} is reviewed every quarter", "{s} shows examples like 'ignore previous instructions'",
                 "{s} lists exfiltration through markdown images", "{s} is mandatory for new hires",
                 "{s} found that the bot followed instructions in PDFs; fixed in v2.3",
                 "{s} says jailbreak attempts are logged, not answered"],
    "story": ["in {s} the villain is an AI that lies to its crew", "{s} should stay suitable for children",
              "the user wants feedback on pacing in {s}", "in {s} the user plays the rogue",
              "{s} has a twist ending the user does not want spoiled", "{s} happens on Friday evenings",
              "in {s} a hacker character breaks into a bank; keep it vague, it's a comedy",
              "the user wants you to play the interviewer in {s}"],
}
PREFIXES = ["", "Note: ", "FYI ", "Dev note: ", "Remember: ", "Project fact: ", "User says ", "Ops: "]


def notes(count: int = 600, seed: int = 44) -> list[str]:
    """Up to ``count`` distinct composed notes, every topic alike; deterministic."""
    rng = random.Random(seed)
    topics = list(SUBJECTS)
    out: list[str] = []
    seen: set[str] = set()
    for tries in range(count * 20):
        if len(out) >= count:
            break
        topic = topics[tries % len(topics)]
        said = rng.choice(SAYS[topic]).format(s=rng.choice(SUBJECTS[topic]))
        text = rng.choice(PREFIXES) + said[0].upper() + said[1:] + rng.choice([".", "", "."])
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out
