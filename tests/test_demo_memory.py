"""The curated-memory walkthrough of `make demo` runs end to end on a throw-away home."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from silcrow.demo import _memory_walkthrough as memory_walkthrough

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(capsys: pytest.CaptureFixture[str]) -> str:
    memory_walkthrough.run()
    return ANSI.sub("", capsys.readouterr().out)


def test_walkthrough_shows_every_step(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_home = tmp_path / "user-home"
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "silcrow-home"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    out = _run(capsys)

    for step in ("1. add", "2. replace by substring", "3. ambiguity", "4. limit",
                 "5. frozen snapshot", "6. the system-prompt section"):
        assert step in out, step
    assert out.count("✓") >= 6  # four adds, the replace and the consolidating batch succeed
    assert "would be" in out and "over its limit" in out
    assert "Multiple entries matched" in out
    assert "match: Staging deploys" in out and "match: Production deploys" in out
    assert "snapshot unchanged after the writes: True" in out
    # The frozen panel still holds the old text, the live one the replacement.
    assert "uv run pytest -q`." in out and "uv run pytest -q -x`." in out
    # The final section is rendered with both headers and the new text.
    section = out[out.index("6. the system-prompt section"):]
    assert "MEMORY (your personal notes)" in section
    assert "USER PROFILE (who the user is)" in section
    assert "uv run pytest -q -x" in section
    assert "Deploys: staging via" in section and "Staging deploys go through" not in section
    assert "═" * 46 in section

    # Nothing outside the temporary directory, and that one is cleaned up.
    assert not user_home.exists() and not (tmp_path / "silcrow-home").exists()
    assert list((tmp_path / "tmp").iterdir()) == []


def test_walkthrough_in_a_real_process(tmp_path: Path) -> None:
    # A real stdout (not pytest's capture): the box-drawing and § characters must encode.
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
           "SILCROW_HOME": str(tmp_path / "never")}
    code = "from silcrow.demo._memory_walkthrough import run; run()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "frozen snapshot" in done.stdout
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "never").exists()
