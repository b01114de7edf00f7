"""SilcrowMemoryService in a real Google ADK run: the Runner, an LlmAgent on Gemini with the
load_memory tool, against the Gemini API stand-in. google-genai needs tenacity<9.2 while
silcrow's .venv holds 9.2, so `make test` builds `.venv-adk` (ADK + this silcrow, editable) and
the run happens there (tests/adk_support/run.py); this test reads what it printed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from silcrow.safety import FENCE_CLOSE, FENCE_OPEN

ROOT = Path(__file__).resolve().parents[1]
ADK_PYTHON = ROOT / ".venv-adk" / "bin" / "python"


@pytest.mark.slow
@pytest.mark.timeout(900)  # the run in its own venv gets 600 s
def test_runner_with_silcrow_memory_service(tmp_path: Path) -> None:
    if not ADK_PYTHON.exists():
        pytest.fail("the ADK virtualenv is missing: run `make .venv-adk/.installed` (or `make test`)")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('provider = "local"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env = {k: v for k, v in env.items() if not k.startswith(("GOOGLE_", "GEMINI_"))}
    script = ROOT / "tests" / "adk_support" / "run.py"
    done = subprocess.run([str(ADK_PYTHON), str(script), str(home)], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["is_service"] is True
    assert out["violations"] == [] and out["remaining"] == 0
    assert out["reply"] == "It fires at 1240 degrees."
    found = "".join(out["sam_found"])
    assert "1240 degrees" in found and FENCE_OPEN in found and FENCE_CLOSE in found
    assert "1240" not in "".join(out["alex_found"])  # another user of the app finds nothing of sam's
    said = [t for t in out["search"] if "My pottery kiln fires at 1240 degrees celsius." in t]
    assert len(said) == 1  # the session added twice was stored once
    fenced = said[0][said[0].index(FENCE_OPEN):said[0].index(FENCE_CLOSE)]
    assert "My pottery kiln fires at 1240 degrees celsius." in fenced
    assert out["other_search"] == 0 and out["other_app"] == 0
