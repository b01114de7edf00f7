"""Where the Hermes plugin lives and its settings (``config.json`` beside it): read by the bridge
Hermes drives, written by ``silcrow hermes install`` and by Hermes's own setup wizard."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from silcrow._atomic import replace_file  # atomic: Hermes never reads half a file
from silcrow._private import private_dir
from silcrow.errors import ConfigError

PLUGIN_NAME = "silcrow"
CONFIG_FILE = "config.json"


def hermes_home_from_env() -> Path:
    """The Hermes home as Hermes resolves it: Hermes's own rule inside Hermes, else
    ``$HERMES_HOME``, else ``~/.hermes``."""
    if "hermes_constants" in sys.modules:  # inside Hermes: honour its per-profile override too
        return Path(sys.modules["hermes_constants"].get_hermes_home())
    env = os.environ.get("HERMES_HOME", "").strip()
    return Path(env).expanduser() if env else Path.home() / ".hermes"


def plugin_settings(hermes_home: Path) -> dict[str, str]:
    """The plugin's settings for ``hermes_home`` with defaults filled in."""
    path = Path(hermes_home) / "plugins" / PLUGIN_NAME / CONFIG_FILE
    stored: dict[str, Any] = {}
    if path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path} is not valid JSON ({exc}); fix it or run `silcrow hermes install "
                              "--force` to rewrite it") from exc
        if not isinstance(stored, dict):
            raise ConfigError(f"{path} must hold a JSON object; run `silcrow hermes install --force`")
    home = str(stored.get("silcrow_home") or Path(hermes_home) / "silcrow")
    return {"silcrow_home": str(Path(home).expanduser()), "provider": str(stored.get("provider") or "")}


def plugin_dir(hermes_home: Path) -> Path:
    return Path(hermes_home) / "plugins" / PLUGIN_NAME


def write_settings(hermes_home: Path, *, silcrow_home: str | Path | None = None,
                   provider: str | None = None) -> Path:
    """Update the plugin's ``config.json`` (keys not given keep their value)."""
    target = plugin_dir(hermes_home) / CONFIG_FILE
    current = plugin_settings(hermes_home) if target.parent.is_dir() else {}
    settings = {"silcrow_home": str(Path(silcrow_home).expanduser().resolve()) if silcrow_home
                else current.get("silcrow_home") or str(Path(hermes_home) / PLUGIN_NAME),
                "provider": provider if provider is not None else current.get("provider", "")}
    private_dir(target.parent)
    replace_file(target, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
    return target
