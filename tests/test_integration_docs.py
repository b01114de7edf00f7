"""The example at the top of each docs/integrations page runs as written: in a subprocess with
a fresh home, after the page's "Try it offline" block when it has one (which starts a loopback
stand-in of the model API from silcrow.testing and points the SDK at it, as a user would)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs" / "integrations"
SILCROW = str(Path(sys.executable).with_name("silcrow"))

# Appended to an offline run: every scripted turn was asked for, nothing was sent that the real
# API would refuse, and the request bodies go to stderr's last line for the test to read.
CHECK = """
import json as _json, sys as _sys
assert getattr(api, "violations", []) == [], api.violations  # the chat stand-in keeps none
assert api.remaining == 0, f"{api.remaining} scripted turns were not requested"
print(_json.dumps(api.requests), file=_sys.stderr)
"""


def example(page: str) -> str:
    """The first Python block of a docs page, which must open it."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", text, re.S)
    assert found is not None, f"{page} has no Python example"
    assert text.index("```python") < 300, f"{page} does not start with its example"
    lines = found.group(1).strip().splitlines()
    assert len(lines) <= 18, f"{page}: the opening example has {len(lines)} lines"
    return found.group(1)


def offline(page: str) -> str:
    """The Python block of the page's "Try it offline" section (it starts the stand-in as ``api``)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = re.search(r"\n## Try it offline\n.*?```python\n(.*?)```", text, re.S)
    assert found is not None, f"{page} has no 'Try it offline' section with a Python block"
    return found.group(1)


def run(code: str, home: Path, *, python: str = sys.executable,
        **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_", "GOOGLE_"))}
    full.update(SILCROW_HOME=str(home), **env)
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, encoding="utf-8",
                          env=full, cwd=home.parent, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def run_offline(page: str, home: Path, python: str = sys.executable) -> tuple[str, list[dict[str, Any]]]:
    """The page's offline block, then its example as written; returns what the example printed
    and the requests the model stand-in received."""
    done = run(offline(page) + example(page) + CHECK, home, python=python)
    return done.stdout.strip(), json.loads(done.stderr.strip().splitlines()[-1])


def cli(home: Path, *args: str) -> str:
    done = subprocess.run([SILCROW, *args], capture_output=True, text=True, encoding="utf-8",
                          env={**os.environ, "SILCROW_HOME": str(home)}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_anthropic_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    fact = "The user is Sam and prefers pytest."
    printed, requests = run_offline("anthropic.md", home)
    assert printed == "Saved: you prefer pytest."
    answer = requests[1]["messages"][-1]["content"][0]
    assert answer["type"] == "tool_result" and not answer.get("is_error"), answer
    assert fact in cli(home, "memory", "show")
    assert any(h["text"] == fact for h in json.loads(cli(home, "recall", "search", "pytest", "--json")))


@pytest.mark.slow
def test_the_openai_agents_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    printed, requests = run_offline("openai-agents.md", home)
    assert printed == "Noted: bees in Lyon."
    assert "Be brief." in requests[0]["instructions"]
    assert "The user keeps bees in Lyon." in cli(home, "memory", "show")
    hits = json.loads(cli(home, "sessions", "search", "bees", "--json"))
    assert hits and hits[0]["session_id"] == "user-42"


@pytest.mark.slow
def test_the_langgraph_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    printed = run(example("langgraph.md"), home).stdout.strip()
    assert printed == "Sam's favourite dish is salmon sushi"


@pytest.mark.slow
def test_the_llama_index_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    printed = run(example("llama-index.md"), home).stdout
    notes, fenced = printed.split("<memory-context>")
    assert "salmon sushi" not in notes  # recalled text only inside the fence
    assert "Sam's favourite dish is salmon sushi." in fenced.split("</memory-context>")[0]


@pytest.mark.slow
def test_the_pydantic_ai_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    printed, requests = run_offline("pydantic-ai.md", home)
    assert printed == "Noted: bees in Lyon."
    assert requests[0]["instructions"].startswith("Be brief.")
    assert "The user keeps bees in Lyon." in cli(home, "memory", "show")


@pytest.mark.slow
def test_the_agent_framework_page_example(tmp_path: Path) -> None:
    home = tmp_path / "home"
    printed, requests = run_offline("agent-framework.md", home)
    assert printed == "Noted: bees in Lyon."
    assert requests[0]["instructions"].startswith("Be brief.")
    assert "The user keeps bees in Lyon." in cli(home, "memory", "show")


@pytest.mark.slow
def test_the_autogen_page_example(tmp_path: Path) -> None:
    python = Path(__file__).resolve().parents[1] / ".venv-autogen" / "bin" / "python"
    if not python.exists():
        pytest.fail("the AutoGen virtualenv is missing: run `make .venv-autogen/.installed` (or `make test`)")
    printed, requests = run_offline("autogen.md", tmp_path / "home", str(python))
    assert printed == "Salmon sushi: Sam's favourite."
    system = "\n".join(m["content"] for m in requests[0]["messages"] if m["role"] == "system")
    assert "Be brief." in system
    fenced = system[system.index("<memory-context>"):system.index("</memory-context>")]
    assert "Sam's favourite dish is salmon sushi." in fenced


@pytest.mark.slow
def test_the_google_adk_page_example(tmp_path: Path) -> None:
    python = Path(__file__).resolve().parents[1] / ".venv-adk" / "bin" / "python"
    if not python.exists():
        pytest.fail("the ADK virtualenv is missing: run `make .venv-adk/.installed` (or `make test`)")
    printed, requests = run_offline("google-adk.md", tmp_path / "home", str(python))
    assert printed == "It fires at 1240 degrees."
    answered = json.dumps(requests[-1]["contents"][-1])
    assert "functionResponse" in answered and "<memory-context>" in answered and "1240 degrees" in answered
