"""Running the real CLI in-process, as a person's shell would: its exit code and its output with
the colours taken out, and never a traceback."""

from __future__ import annotations

import re

import pytest

from silcrow.cli.main import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `silcrow ARGS`; return (exit code, stdout, stderr). Fails the test on a traceback."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    out, err = ANSI.sub("", out), ANSI.sub("", err)
    assert "Traceback" not in out + err
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err
