"""The example at the top of each docs/integrations page runs as written: in a subprocess with
a fresh home, against loopback stand-ins of the model APIs (the SDKs read their base URL from
the environment, as a user's would)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from testing_services.model_apis import AnthropicMessagesStandIn, OpenAIResponsesStandIn

DOCS = Path(__file__).resolve().parents[1] / "docs" / "integrations"
SILCROW = str(Path(sys.executable).with_name("silcrow"))


def example(page: str) -> str:
    """The first Python block of a docs page, which must open it."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", text, re.S)
    assert found is not None, f"{page} has no Python example"
    assert text.index("```python") < 300, f"{page} does not start with its example"
    lines = found.group(1).strip().splitlines()
    assert len(lines) <= 18, f"{page}: the opening example has {len(lines)} lines"
    return found.group(1)


def run(code: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    full.update(SILCROW_HOME=str(home), OPENAI_AGENTS_DISABLE_TRACING="1", **env)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                          env=full, cwd=home.parent, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def cli(home: Path, *args: str) -> str:
    done = subprocess.run([SILCROW, *args], capture_output=True, text=True, encoding="utf-8",
                          env={**os.environ, "SILCROW_HOME": str(home)}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_anthropic_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    fact = "The user is Sam and prefers pytest."
    script: list[list[dict[str, Any]]] = [
        [{"type": "tool_use", "name": "memory",
          "input": {"command": "create", "path": "/memories/USER.md", "file_text": fact}}],
        [{"type": "text", "text": "Saved: you prefer pytest."}],
    ]
    with AnthropicMessagesStandIn(script) as api:
        done = run(example("anthropic.md"), home, ANTHROPIC_BASE_URL=api.base_url,
                   ANTHROPIC_API_KEY="test-key")
        assert api.violations == [] and not api.script
        assert [r["is_error"] for r in api.tool_results()] == [False]
    assert done.stdout.strip() == "Saved: you prefer pytest."
    assert fact in cli(home, "memory", "show")
    assert any(h["text"] == fact for h in json.loads(cli(home, "recall", "search", "pytest", "--json")))


@pytest.mark.slow
def test_the_openai_agents_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    script = [
        {"calls": [("memory", {"action": "add", "target": "user",
                               "content": "The user keeps bees in Lyon."})]},
        {"text": "Noted: bees in Lyon."},
    ]
    with OpenAIResponsesStandIn(script) as api:
        done = run(example("openai-agents.md"), home, OPENAI_BASE_URL=api.base_url + "/v1",
                   OPENAI_API_KEY="test-key")
        assert api.violations == [] and not api.script
    assert done.stdout.strip() == "Noted: bees in Lyon."
    assert "The user keeps bees in Lyon." in cli(home, "memory", "show")
    hits = json.loads(cli(home, "sessions", "search", "bees", "--json"))
    assert hits and hits[0]["session_id"] == "user-42"


@pytest.mark.slow
def test_the_langgraph_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = run(example("langgraph.md"), home)
    assert done.stdout.strip() == "Sam's favourite dish is salmon sushi"
