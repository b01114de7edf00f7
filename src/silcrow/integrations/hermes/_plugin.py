"""Install, check and remove the silcrow plugin in a Hermes home.

``install`` writes ``<hermes-home>/plugins/silcrow/`` (the shim ``__init__.py``,
``plugin.yaml`` for Hermes's listing, ``config.json`` with the plugin's
settings); ``uninstall`` removes exactly those files (and the byte-code
Python made of the shim), never the recall data in the silcrow home.
``doctor`` asks Hermes itself, from this interpreter, whether it finds and
loads the plugin and whether ``config.yaml`` selects it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from silcrow._atomic import replace_file
from silcrow._private import private_dir
from silcrow.errors import ConfigError
from silcrow.integrations.hermes._bridge import HermesBridge
from silcrow.integrations.hermes._settings import (
    CONFIG_FILE,
    PLUGIN_NAME,
    hermes_home_from_env,
    plugin_dir,
    write_settings,
)

SHIM = '''"""silcrow as Hermes's memory provider.

Written by `silcrow hermes install`; `silcrow hermes uninstall` removes it. Every hook's
behaviour lives in the silcrow package (silcrow.integrations.hermes), so upgrading silcrow
upgrades this plugin. Hermes uses it when config.yaml has `memory: {provider: silcrow}`.
"""

from agent.memory_provider import MemoryProvider

from silcrow.integrations.hermes import HermesBridge


class SilcrowMemoryProvider(HermesBridge, MemoryProvider):
    """Hermes's MemoryProvider with every hook delegated to silcrow."""
'''

PLUGIN_YAML = f"""name: {PLUGIN_NAME}
description: "silcrow long-term recall (local SQLite + embeddings by default, or any silcrow provider)"
"""

#: Files install writes, in the plugin directory.
WRITTEN = ("__init__.py", "plugin.yaml", CONFIG_FILE)


def _foreign(init: Path) -> bool:
    """Whether ``init`` is a file silcrow did not write (not its shim)."""
    return init.read_text(encoding="utf-8", errors="replace") != SHIM


def default_hermes_home() -> Path:
    """``$HERMES_HOME``, else ``~/.hermes`` (Hermes's own rule)."""
    return hermes_home_from_env()


def install(hermes_home: Path, *, silcrow_home: str | Path | None = None, provider: str | None = None,
            force: bool = False) -> list[Path]:
    """Write the plugin into ``hermes_home``; returns the files written."""
    hermes_home = Path(hermes_home).expanduser()
    if not hermes_home.is_dir():
        raise ConfigError(f"no Hermes home at {hermes_home}: run Hermes once to create it, or pass "
                          "--hermes-home with the right directory (default $HERMES_HOME, else ~/.hermes)")
    target = plugin_dir(hermes_home)
    init = target / "__init__.py"
    if init.exists() and not force and _foreign(init):
        raise ConfigError(f"{init} exists and is not silcrow's plugin; it was left alone. Move it away, "
                          "or pass --force to replace it")
    private_dir(target)
    replace_file(init, SHIM)  # atomic: Hermes never imports half a file
    replace_file(target / "plugin.yaml", PLUGIN_YAML)
    config = target / CONFIG_FILE
    if force or silcrow_home is not None or provider is not None or not config.exists():
        write_settings(hermes_home, silcrow_home=silcrow_home, provider=provider)
    return [target / name for name in WRITTEN]


def uninstall(hermes_home: Path, *, force: bool = False) -> list[Path]:
    """Remove what :func:`install` wrote; returns the paths removed."""
    target = plugin_dir(Path(hermes_home).expanduser())
    init = target / "__init__.py"
    if not target.is_dir():
        raise ConfigError(f"no silcrow plugin installed at {target}; nothing to remove")
    if init.exists() and not force and _foreign(init):
        raise ConfigError(f"{init} is not silcrow's plugin (it was changed or replaced); nothing was "
                          "removed. Pass --force to remove it anyway")
    removed = []
    for name in WRITTEN:
        path = target / name
        if path.exists():
            path.unlink()
            removed.append(path)
    cache = target / "__pycache__"
    for pyc in sorted(cache.glob("__init__.*.pyc")) if cache.is_dir() else []:
        pyc.unlink()
        removed.append(pyc)
    for directory in (cache, target):
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
            removed.append(directory)
    return removed


# --------------------------------------------------------------------------------- doctor


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@contextmanager
def _hermes_home_env(hermes_home: Path) -> Iterator[None]:
    """Hermes reads its home from the environment: point it at ``hermes_home`` for the check."""
    old = os.environ.get("HERMES_HOME")
    os.environ["HERMES_HOME"] = str(hermes_home)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HERMES_HOME", None)
        else:
            os.environ["HERMES_HOME"] = old


def _hermes_version() -> str | None:
    if importlib.util.find_spec("agent") is None or importlib.util.find_spec("plugins") is None:
        return None
    try:
        return importlib.metadata.version("hermes-agent")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (Hermes run from a source checkout)"


def hermes_importable() -> bool:
    """True when this interpreter can import Hermes (so Hermes's interpreter can import silcrow)."""
    return _hermes_version() is not None


def doctor(hermes_home: Path) -> list[Check]:
    """Every check, in order; later ones are skipped (not run) when Hermes is missing."""
    import silcrow

    hermes_home = Path(hermes_home).expanduser()
    checks: list[Check] = []
    version = _hermes_version()
    here = f"{sys.executable} (silcrow {silcrow.__version__})"
    if version is None:
        checks.append(Check(
            "hermes", False, f"no hermes-agent importable from {here}",
            "run this command with Hermes's own Python, or install silcrow there: "
            "`<hermes venv>/bin/python -m pip install silcrow`"))
        return checks
    checks.append(Check("hermes", True, f"hermes-agent {version} and silcrow {silcrow.__version__} "
                                         f"both import in {sys.executable}"))

    init = plugin_dir(hermes_home) / "__init__.py"
    if not init.exists():
        checks.append(Check("plugin", False, f"{init} does not exist",
                            f"run `silcrow hermes install --hermes-home {hermes_home}`"))
        return checks
    if init.read_text(encoding="utf-8", errors="replace") == SHIM:
        checks.append(Check("plugin", True, f"{init} is silcrow's plugin"))
    else:
        checks.append(Check("plugin", False, f"{init} differs from the one this silcrow writes",
                            f"run `silcrow hermes install --force --hermes-home {hermes_home}`"))

    with _hermes_home_env(hermes_home):
        checks.append(_loader_check(hermes_home))
        checks.append(_config_check(hermes_home))
    return checks


def _loader_check(hermes_home: Path) -> Check:
    try:
        from agent.memory_provider import MemoryProvider
        from plugins.memory import find_provider_dir, load_memory_provider
    except Exception as exc:  # a Hermes we do not know: report, do not crash
        return Check("loader", False, f"cannot import Hermes's plugin loader: {type(exc).__name__}: {exc}",
                     "this silcrow was tested with hermes-agent 0.19; upgrade or pin Hermes")
    found = find_provider_dir(PLUGIN_NAME)
    if found is None or found.resolve() != plugin_dir(hermes_home).resolve():
        return Check("loader", False, f"Hermes resolves {PLUGIN_NAME!r} to {found}, not the installed plugin",
                     "a bundled Hermes provider of the same name takes precedence; report this to silcrow")
    provider = load_memory_provider(PLUGIN_NAME)
    if not isinstance(provider, MemoryProvider) or not isinstance(provider, HermesBridge):
        return Check("loader", False, f"Hermes's load_memory_provider({PLUGIN_NAME!r}) returned {provider!r}",
                     "run `python -c 'import silcrow.integrations.hermes'` with Hermes's Python to see why "
                     "the plugin does not import")
    home = provider.silcrow_home(hermes_home)
    if not provider.is_available():
        return Check("loader", False, f"Hermes loads the plugin but it is not available: "
                                      f"{provider.unavailable_reason()}",
                     f"fix the silcrow home {home} (see `silcrow --home {home} providers`)")
    return Check("loader", True, f"Hermes loads the plugin; recall data lives in {home}")


def _config_check(hermes_home: Path) -> Check:
    config_path = hermes_home / "config.yaml"
    try:
        from hermes_cli.config import load_config

        memory = load_config().get("memory") or {}
        selected = memory.get("provider") if isinstance(memory, dict) else None
    except Exception as exc:
        return Check("config", False, f"cannot read {config_path}: {type(exc).__name__}: {exc}",
                     f"fix the YAML in {config_path}")
    if selected == PLUGIN_NAME:
        return Check("config", True, f"{config_path} selects it (memory.provider: {PLUGIN_NAME})")
    now = f"memory.provider is {selected!r}" if selected else "memory.provider is not set"
    return Check("config", False, f"{config_path}: {now}, so Hermes does not use silcrow",
                 f"in {config_path} set\n  memory:\n    provider: {PLUGIN_NAME}\n"
                 f"(or run `HERMES_HOME={hermes_home} hermes config set memory.provider {PLUGIN_NAME}`)")
