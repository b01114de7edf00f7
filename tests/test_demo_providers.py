"""The several-providers walkthrough of `make demo`: with ``providers = ["local", "holographic"]``
a hit from each reaches the one fenced block, offline, away from ~/.silcrow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from silcrow.demo import WALKTHROUGHS
from silcrow.demo import _providers_walkthrough as providers_walkthrough

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_walkthrough_shows_a_hit_of_each_provider_in_one_fenced_block(
    demo_home: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    user_home, scratch = demo_home

    ok = providers_walkthrough.run(Console(width=200, force_terminal=False))
    out = ANSI.sub("", capsys.readouterr().out)
    assert ok is True, out
    assert "_providers_walkthrough" in WALKTHROUGHS  # `make demo` runs it
    assert "SCRIPTED STAND-IN" in out
    assert "recall runs local+holographic" in out and "fact_store" in out
    for step in ("1. a turn (stored by local)", "2. the next session: a hit from each provider"):
        assert step in out, step
    # The four checks: both providers run, one fence, local's turn and holographic's fact in it.
    assert out.count("✓") == 4 and "FAILED" not in out
    shown = out[out.index("the user message as sent to the model"):]
    assert shown.count("<memory-context>") == 1
    turn = shown.index("user: I'm planning a kayak trip")
    assert turn < shown.index("## Holographic Memory") < shown.index("Maré, is 4.2 m long")
    assert not (user_home / ".silcrow").exists()
    assert [p.name for p in scratch.iterdir() if p.name != ".ses"] == []
