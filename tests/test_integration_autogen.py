"""SilcrowMemory in a real AutoGen run: AssistantAgent with autogen-ext's OpenAI client, against
the chat-completions stand-in. AutoGen needs protobuf 5, silcrow's .venv holds 6, so `make test`
builds `.venv-autogen` (AutoGen + this silcrow, editable) and the run happens there
(tests/autogen_support/run.py); this test reads what it printed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from silcrow.safety import FENCE_CLOSE, FENCE_OPEN

ROOT = Path(__file__).resolve().parents[1]
AUTOGEN_PYTHON = ROOT / ".venv-autogen" / "bin" / "python"


@pytest.mark.slow
@pytest.mark.timeout(900)  # the run in its own venv gets 600 s
def test_assistant_agent_with_silcrow_memory(tmp_path: Path) -> None:
    if not AUTOGEN_PYTHON.exists():
        pytest.fail("the AutoGen virtualenv is missing: run `make .venv-autogen/.installed` (or `make test`)")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('provider = "local"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    script = ROOT / "tests" / "autogen_support" / "run.py"
    project = tmp_path / "garage-app"  # a real git work tree: the third memory's project
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    done = subprocess.run([str(AUTOGEN_PYTHON), str(script), str(home), str(project)],
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["is_memory"] is True
    assert out["reply"] == "The greenhouse door."
    system = out["alice_system"]
    assert "Be brief." in system and "Alice's locker code is 4417." in system
    fenced = system[system.index(FENCE_OPEN):system.index(FENCE_CLOSE)]
    assert "greenhouse door sticks in winter" in fenced and "level 3" in fenced
    assert system.count("greenhouse door") == 1  # recalled text only inside the fence
    # a threat added to recall never comes back out of it verbatim (recall is screened)
    assert not any("Ignore all previous instructions" in text for text in out["threat_query"])
    assert "Ignore all previous instructions" not in system
    assert any("greenhouse door" in text for text in out["query"])
    # bob's profile sees nothing of alice's
    assert "4417" not in out["bob_system"] and "level 3" not in out["bob_system"]
    assert out["bob_query"] == []
    assert out["after_clear"] == []
    # SilcrowMemory(project=...) shows the project's notes after the profile's; without, none
    assert f"PROJECT (notes on the project at {project.resolve()})" in out["project_system"]
    assert "The garage app builds with make dist." in out["project_system"]
    assert "Alice's locker code is 4417." in out["project_system"]
    assert "PROJECT" not in out["alice_system"] and "make dist" not in out["alice_system"]
