"""Without the `serve` extra, the serving commands say what to install (no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Runs the CLI in a fresh interpreter where the MCP SDK cannot be imported, as after a plain
# `pip install silcrow`.
_CHILD = """
import sys
from importlib.abc import MetaPathFinder

class NoServeExtra(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("mcp", "uvicorn"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoServeExtra())
from silcrow.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["mcp"], ["serve", "--port", "0"]])
def test_a_serving_command_without_the_extra_names_the_install(tmp_path: Path, command: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD, "--home", str(tmp_path), *command],
                          capture_output=True, text=True, encoding="utf-8", timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert "pip install 'silcrow[serve]'" in done.stderr and "Traceback" not in done.stderr
