"""The shape of the code (ARCHITECTURE.md): no two modules import each other, counting imports
under TYPE_CHECKING and inside functions (a circle means a shared part that belongs in a module
both import), and no module is over 600 lines (a longer one has more than one job)."""

from pathlib import Path

import grimp

import silcrow

MAX_LINES = 600


def test_no_two_modules_import_each_other() -> None:
    graph = grimp.build_graph("silcrow")
    circles = sorted(
        (a, b) for a in graph.modules for b in graph.find_modules_directly_imported_by(a)
        if a < b and a in graph.find_modules_directly_imported_by(b)
    )
    assert not circles, f"move what these share into a module both import: {circles}"


def test_no_module_is_over_600_lines() -> None:
    root = Path(silcrow.__file__).parent
    long = {str(path.relative_to(root)): count for path in root.rglob("*.py")
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"split these by job: {long}"
