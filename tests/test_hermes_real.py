"""silcrow inside the real Hermes agent (hermes-agent, pinned in the Makefile), in its own virtualenv.

`make test` builds `.venv-hermes` (hermes-agent + this silcrow, editable) once; each test runs a
script from tests/hermes_support with that interpreter. The model is silcrow's
ScriptedModelServer over loopback HTTP (no hosted LLM here); everything else is real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from silcrow.integrations.hermes import install
from silcrow.store import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
HERMES_PYTHON = ROOT / ".venv-hermes" / "bin" / "python"
SUPPORT = Path(__file__).with_name("hermes_support")
HERMES_VERSION = "0.19.0"

pytestmark = pytest.mark.hermes


@pytest.fixture(scope="module", autouse=True)
def _hermes_venv() -> None:
    if not (HERMES_PYTHON.parent.parent / ".installed").exists():
        pytest.fail("the Hermes virtualenv is missing: run `make .venv-hermes/.installed` (or `make test`)")
    code = "import importlib.metadata as m; print(m.version('hermes-agent'))"
    version = subprocess.run([str(HERMES_PYTHON), "-c", code], capture_output=True, text=True, timeout=120)
    assert version.stdout.strip() == HERMES_VERSION, version.stderr


@pytest.fixture
def hermes_home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes"
    (home / "silcrow").mkdir(parents=True)
    (home / "silcrow" / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    (home / "config.yaml").write_text("memory:\n  provider: silcrow\n", encoding="utf-8")
    install(home)
    return home


def _env(hermes_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "SILCROW_"))}
    env.update(HERMES_HOME=str(hermes_home), HOME=str(hermes_home.parent))  # never the real ~/.hermes
    env["PYTHONPATH"] = str(ROOT / "src")  # this tree's silcrow, wherever the venv's editable install points
    return env


def _run(cmd: list[str], hermes_home: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", env=_env(hermes_home),
                          cwd=hermes_home.parent, timeout=timeout)


def _script(name: str, hermes_home: Path, *args: str, timeout: float = 300) -> dict[str, Any]:
    proc = _run([str(HERMES_PYTHON), str(SUPPORT / name), str(hermes_home), *args], hermes_home, timeout)
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def _hermes_entries(hermes_home: Path) -> list[str]:
    """MEMORY.md's entries as Hermes's own MemoryStore reads them."""
    read = ("import json, sys; from pathlib import Path; from tools.memory_tool import MemoryStore; "
            "print(json.dumps(MemoryStore._read_file(Path(sys.argv[1]))))")
    proc = _run([str(HERMES_PYTHON), "-c", read, str(hermes_home / "memories" / "MEMORY.md")], hermes_home)
    assert proc.returncode == 0, proc.stderr
    return list(json.loads(proc.stdout))


def test_doctor_asks_the_real_hermes(hermes_home: Path) -> None:
    silcrow = str(HERMES_PYTHON.with_name("silcrow"))
    proc = _run([silcrow, "hermes", "doctor", "--json", "--hermes-home", str(hermes_home)], hermes_home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert [c["name"] for c in report["checks"]] == ["hermes", "plugin", "loader", "config"]
    assert f"hermes-agent {HERMES_VERSION}" in report["checks"][0]["detail"]
    (hermes_home / "config.yaml").write_text("memory:\n  provider: holographic\n", encoding="utf-8")
    proc = _run([silcrow, "hermes", "doctor", "--json", "--hermes-home", str(hermes_home)], hermes_home)
    assert proc.returncode == 1
    config = json.loads(proc.stdout)["checks"][-1]
    assert config["ok"] is False and "memory.provider is 'holographic'" in config["detail"]
    assert "provider: silcrow" in config["fix"]


def test_full_lifecycle_through_hermes_loader_and_memory_manager(hermes_home: Path) -> None:
    out = _script("lifecycle.py", hermes_home)
    assert out["discovered"] == [["silcrow", out["discovered"][0][1], True]]
    assert out["class"] == ["_hermes_user_memory.silcrow.SilcrowMemoryProvider",
                            "silcrow.integrations.hermes._bridge.HermesBridge",
                            "agent.memory_provider.MemoryProvider"]
    assert out["is_hermes_provider"] is True
    assert "recall_search" in out["system_prompt"]
    assert out["prefetch_empty"] == ""  # nothing stored yet
    assert out["flushed"] and out["flushed_again"]
    assert out["tool_names"] == ["recall_add", "recall_forget", "recall_search"]
    assert any("Porto" in r["text"] for r in out["tool_result"]["results"])
    assert "User's sister is Ana." in out["pre_compress"]  # on_memory_write mirrored the built-in write
    # Every silcrow hook a Hermes call maps to was reached (initialize via on_session_switch).
    # Hermes's get_tool_schemas / handle_tool_call reach the provider's typed tools (the bridge
    # makes the JSON at silcrow's edge).
    assert out["reached_session_1"] == sorted([
        "call_tool", "tool_specs", "initialize", "on_memory_write", "on_pre_compress",
        "on_session_end", "on_turn_start", "prefetch", "queue_prefetch", "shutdown", "sync_turn",
        "system_prompt_block"])
    # Session 2 (new manager, new provider): session 1's turn and the delegation come back.
    assert "My sister Ana moved to Porto last spring." in out["prefetch_session_2"]
    assert "[delegated task] Find Ana's new address format" in out["prefetch_session_2"]
    assert out["fenced"].startswith("<memory-context>\n[System note:") and "Porto" in out["fenced"]
    assert out["subagent_write_recalled"] == ""  # the subagent's sync was skipped
    assert out["reached_session_2"] == ["on_turn_start", "prefetch", "shutdown"]


def test_a_whole_hermes_agent_recalls_session_one_in_session_two(hermes_home: Path) -> None:
    (hermes_home / "silcrow" / "config.toml").unlink()  # silcrow's defaults: the real ONNX embedder
    out = _script("agent_run.py", hermes_home)
    assert out["first"]["provider_active"] and out["second"]["provider_active"]
    assert out["requests"] == 3 and out["second"]["final"] == "She lives in Porto."
    first, second, _after_tool = out["last_user_messages"]
    assert first == "Remember this: my sister Ana moved to Porto last spring."
    question, _, recalled = second.partition("\n\n<memory-context>\n")
    assert question == "Where does my sister Ana live now?"
    assert "user: Remember this: my sister Ana moved to Porto last spring." in recalled
    assert recalled.endswith("</memory-context>")
    assert all({"recall_search", "memory"} <= set(tools) for tools in out["tools"])
    # The model's recall_search call went through Hermes's dispatch to silcrow and back.
    (tool_result,) = out["tool_results"]
    assert json.loads(tool_result)["success"] is True and "Porto" in tool_result
    # What Hermes stored through the plugin is silcrow's: the silcrow CLI finds it.
    cli = [sys.executable, "-c", "from silcrow.cli.main import main; main()"]
    proc = _run([*cli, "--home", str(hermes_home / "silcrow"), "recall", "search", "sister Porto", "--json"],
                hermes_home)
    assert proc.returncode == 0, proc.stderr
    assert "Porto" in proc.stdout


def test_hermes_and_silcrow_writers_share_one_memories_dir(hermes_home: Path) -> None:
    per_writer = 100
    writers = []
    for kind in ("hermes", "silcrow"):
        for n in range(4):
            python = str(HERMES_PYTHON) if kind == "hermes" else sys.executable
            writers.append(subprocess.Popen(
                [python, str(SUPPORT / "writer.py"), kind, str(hermes_home), str(n), str(per_writer)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                encoding="utf-8", env=_env(hermes_home), cwd=hermes_home.parent))
    try:
        for proc in writers:  # every writer imported its store and waits
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in writers:  # then all start at once
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        results = []
        for proc in writers:
            stdout, stderr = proc.communicate(timeout=600)
            assert proc.returncode == 0, stderr[-3000:]
            results.append(json.loads(stdout.strip().splitlines()[-1]))
    finally:
        for proc in writers:
            if proc.poll() is None:
                proc.kill()
    assert [r["ok"] for r in results] == [per_writer] * 8, [r["failed"] for r in results]
    expected = {f"Entry {n} from {kind} writer {w}: the build server is build-{n}.example."
                for kind in ("hermes", "silcrow") for w in range(4) for n in range(per_writer)}
    # The file parses for both: silcrow's store...
    silcrow_entries = MemoryStore(hermes_home, memory_char_limit=1_000_000).entries("memory")
    assert set(silcrow_entries) == expected and len(silcrow_entries) == len(expected)
    # ...and Hermes's own reader.
    hermes_entries = _hermes_entries(hermes_home)
    assert set(hermes_entries) == expected and len(hermes_entries) == len(expected)


def test_silcrow_manages_the_notes_hermes_wrote_in_place(hermes_home: Path) -> None:
    entries = ["The user's name is Zoë; she prefers tabs.",
               "Deploys: `make release` on the build host\nthen `make verify`.",
               "Ports: 8080 (API), 5432 (PostgreSQL)."]
    write = ("import json, sys; from tools.memory_tool import MemoryStore; s = MemoryStore(); "
             "print(json.dumps([s.add('memory', e)['success'] for e in json.loads(sys.argv[1])] "
             "+ [s.add('user', 'The user works in Lisbon.')['success']]))")
    proc = _run([str(HERMES_PYTHON), "-c", write, json.dumps(entries)], hermes_home)
    assert proc.returncode == 0 and json.loads(proc.stdout) == [True] * 4, proc.stderr
    cli = [sys.executable, "-c", "from silcrow.cli.main import main; main()"]
    env = {**_env(hermes_home), "SILCROW_HOME": str(hermes_home)}
    shown = subprocess.run([*cli, "memory", "show", "--json"], capture_output=True, text=True,
                           encoding="utf-8", env=env, timeout=120)
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["memory"]["entries"] == entries
    assert report["user"]["entries"] == ["The user works in Lisbon."]
    removed = subprocess.run([*cli, "memory", "remove", "Ports: 8080"], capture_output=True, text=True,
                             encoding="utf-8", env=env, timeout=120)
    assert removed.returncode == 0, removed.stderr
    assert _hermes_entries(hermes_home) == entries[:2]
