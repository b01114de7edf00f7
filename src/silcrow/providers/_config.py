"""Settings of one external recall provider: ``[recall.<name>]`` in config.toml, then env vars.

The keys are those of the Hermes plugin of the same name, so a user moving
over keeps their settings::

    [recall]
    provider = "honcho"

    [recall.honcho]
    workspace = "my-app"
    timeout = 10

An environment variable, when set and not empty, wins over the table
(``HONCHO_API_KEY`` over ``api_key``), so a secret never has to be written
to a file. Values are checked against the type of each key's default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from silcrow._paths import config_file
from silcrow.config import Settings, profile_settings
from silcrow.errors import ConfigError


def provider_table(home: Path, name: str, settings: Settings | None = None) -> dict[str, Any]:
    """The ``[recall.<name>]`` table of the profile's settings when given, else of the profile
    ``home`` as :func:`~silcrow.config.profile_settings` reads it; {} when absent."""
    return (settings or profile_settings(home).settings).table(f"recall.{name}")


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _coerce(key: str, value: Any, default: Any, where: str) -> Any:
    """``value`` converted to the type of ``default`` (env values arrive as strings)."""
    if default is None or isinstance(default, str):
        if isinstance(value, str):
            return value
        expected = "a string"
    elif isinstance(default, bool):
        if isinstance(value, bool):
            return value
        word = value.strip().lower() if isinstance(value, str) else ""
        if word in _TRUE | _FALSE:
            return word in _TRUE
        expected = "true or false"
    elif isinstance(default, int | float):
        kind = type(default)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return kind(value)
        if isinstance(value, str):
            try:
                return kind(value.strip())
            except ValueError:
                pass
        expected = "a number"
    elif isinstance(default, list):
        if isinstance(value, list):
            return value
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        expected = "a list"
    else:
        return value
    raise ConfigError(f"bad setting {key} = {value!r} ({where}): expected {expected}; fix it")


def load_provider_config(
    name: str,
    home: Path,
    defaults: Mapping[str, Any],
    env: Mapping[str, str | tuple[str, ...]],
    environ: Mapping[str, str] | None = None,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """Defaults < ``[recall.<name>]`` < environment; a table key that is not a setting of the
    provider (not in ``defaults``) is a ConfigError naming it, as for the core tables.

    ``env`` maps a key to its environment variable, or to several tried in
    order (a provider may honour an old name too). ``settings``: the opened profile's, so
    config.toml is not read again.
    """
    environ = os.environ if environ is None else environ
    where = f"[recall.{name}] in {config_file(home)}"
    config = dict(defaults)
    table = provider_table(home, name, settings)
    unknown = sorted(set(table) - set(defaults))
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} in {where}: the settings there are "
                          f"{', '.join(sorted(defaults))}; fix or remove that line")
    for key, value in table.items():
        config[key] = _coerce(key, value, defaults.get(key), where)
    for key, names in env.items():
        for var in (names,) if isinstance(names, str) else names:
            raw = environ.get(var, "")
            if raw.strip():
                config[key] = _coerce(key, raw, defaults.get(key), f"environment variable {var}")
                break
    return config
