"""The agent walkthrough of `make demo` runs end to end, offline, away from ~/.silcrow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from silcrow.demo import _agent_walkthrough as agent_walkthrough

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_walkthrough_passes_every_check_without_touching_the_user_home(
    demo_home: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    user_home, scratch = demo_home

    ok = agent_walkthrough.run(Console(width=160, force_terminal=False))
    out = ANSI.sub("", capsys.readouterr().out)
    assert ok is True, out
    assert "SCRIPTED STAND-IN" in out
    for step in ("1. the model saves", "2. the system prompt stays byte-identical",
                 "3. a new session", "4. recall of the earlier session", "5. session search"):
        assert step in out, step
    assert out.count("✓") == 6 and "FAILED" not in out
    assert "<memory-context>" in out  # the API copy is shown with its fence
    assert not (user_home / ".silcrow").exists()
    # The temporary home was cleaned up. (Importing onnxruntime 1.32 writes its own 51-byte
    # telemetry session file `.ses` into TMPDIR when it is the first import in the process.)
    assert [p.name for p in scratch.iterdir() if p.name != ".ses"] == []
