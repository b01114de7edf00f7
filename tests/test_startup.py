"""Cheap start-up: what `import silcrow` and a quick CLI command load (timings: bench/startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("silcrow.agent", "silcrow.recall._manager", "silcrow.recall.local", "silcrow.safety",
         "numpy", "onnxruntime", "openai", "httpx")


def _loaded_after(code: str, tmp_path: Path) -> set[str]:
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          encoding="utf-8", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(HEAVY))


def test_import_silcrow_loads_nothing_heavy(tmp_path: Path) -> None:
    assert _heavy(_loaded_after("import silcrow", tmp_path)) == []


def test_a_provider_module_does_not_load_the_manager_or_the_scanners(tmp_path: Path) -> None:
    loaded = _loaded_after("from silcrow.recall import MemoryProvider, load_provider", tmp_path)
    assert _heavy(loaded) == []
    # ...and the lazy names still resolve
    loaded = _loaded_after("from silcrow.recall import MemoryManager\nimport silcrow\nsilcrow.MemoryProvider",
                           tmp_path)
    assert "silcrow.recall._manager" in loaded


def test_memory_show_imports_only_its_own_command_group(tmp_path: Path) -> None:
    code = ("import sys\nfrom silcrow.cli.main import main\n"
            f"sys.argv = ['silcrow', '--home', {str(tmp_path)!r}, 'memory', 'show']\n"
            "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code")
    loaded = _loaded_after(code, tmp_path)
    assert "silcrow.cli._memory" in loaded
    assert not {"silcrow.cli._chat", "silcrow.cli._recall", "silcrow.cli._sessions"} & loaded
    assert not [m for m in loaded if m.startswith(("silcrow.agent", "silcrow.recall", "numpy", "openai"))]


def test_the_notes_store_does_not_load_the_postgresql_layer(tmp_path: Path) -> None:
    postgres = ("silcrow.store._postgres", "silcrow.db", "silcrow.schema", "psycopg")
    loaded = _loaded_after("from silcrow.store import FileBackend, MemoryStore, StoreBackend", tmp_path)
    assert sorted(m for m in loaded if m.startswith(postgres)) == []
    # ...and the lazy name still resolves
    loaded = _loaded_after("import silcrow.store\nsilcrow.store.PostgresBackend", tmp_path)
    assert "silcrow.store._postgres" in loaded
