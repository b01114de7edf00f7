"""bench/project_prompt.py measures what it claims: a short real run prints one JSON object whose
sessions kept their system prompt byte-identical while the writes committed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "project_prompt.py"


def test_a_short_run_prints_the_figures_with_and_without_a_project(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(BENCH), "--builds", "5", "--turns", "6"], capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    built = figures["build_ms"]
    # The project's block is in its section, and only there.
    assert built["project"]["section_chars"] > built["no_project"]["section_chars"] > 0
    for name in ("no_project", "project"):
        run = figures["prefix_cache"][name]
        assert run["writes_committed"] == 2 and run["system_prompt_identical"] is True
        assert run["next_session_sees_writes"] is True and 0 < run["cacheable_share"] < 1
    assert (figures["prefix_cache"]["project"]["system_prompt_chars"]
            > figures["prefix_cache"]["no_project"]["system_prompt_chars"])
