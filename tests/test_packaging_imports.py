"""Every third-party package that silcrow's code imports is declared in pyproject.toml.

A package that only arrives as another one's dependency (starlette under fastapi, anyio under
both) can be dropped or re-pinned by that package in any release, and then `silcrow serve`
fails at import on a fresh install. Nothing is installed here: the imports are read from the
source, and matched to distributions through the metadata of this environment.
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "silcrow"
# Modules of the host that loads silcrow's plugin (the Hermes agent), never silcrow's to install.
HOST_MODULES = frozenset({"agent", "hermes_cli", "hermes_constants", "plugins"})
# A namespace package of a framework installed only in a venv of its own (.venv-adk), which this
# environment maps to other distributions (protobuf's google.protobuf): the one its extra declares.
ELSEWHERE = {"google": "google-adk"}


def _imported() -> dict[str, set[str]]:
    """Top-level module -> files of silcrow that import it."""
    found: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for name, extra in project["optional-dependencies"].items():
        if name != "dev":  # test tooling: never what the shipped code may import
            requirements += extra
    return {_normal(re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0]) for req in requirements}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_imported_third_party_package_is_declared() -> None:
    declared = _declared()
    providers = md.packages_distributions()
    missing = {}
    for module, files in _imported().items():
        if module in sys.stdlib_module_names or module in HOST_MODULES or module in ("silcrow", "__future__"):
            continue
        dists = {_normal(d) for d in providers.get(module, [module])}
        if module in ELSEWHERE:
            dists.add(ELSEWHERE[module])
        if not dists & declared:
            missing[module] = sorted(files)
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"
