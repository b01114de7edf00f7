"""Where silcrow keeps its files.

``SILCROW_HOME`` (default ``~/.silcrow``) holds ``memories/MEMORY.md``,
``memories/USER.md``, ``recall.db``, ``sessions.db`` and ``config.toml``.
A named profile lives under ``<home>/profiles/<name>/`` with the same shape;
the profile ``default`` is the home itself (in files and PostgreSQL mode alike).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from silcrow.errors import ConfigError

HOME_ENV = "SILCROW_HOME"
DEFAULT_PROFILE = "default"  # the home's own profile
_PROFILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def default_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$SILCROW_HOME`` if set (in ``environ``, default the process environment), else
    ``~/.silcrow``."""
    env = (os.environ if environ is None else environ).get(HOME_ENV)
    return Path(env).expanduser() if env else Path.home() / ".silcrow"


def validate_profile(name: str) -> str:
    """Return ``name`` if it is a safe profile name, else raise ConfigError."""
    # fullmatch, not match with "$": "$" also matches before a trailing newline.
    if not isinstance(name, str) or not _PROFILE_RE.fullmatch(name) or ".." in name:
        raise ConfigError(
            f"invalid profile name {name!r}: use 1-64 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit (no path separators, no '..')"
        )
    return name


def resolve_home(home: str | os.PathLike[str] | None = None, profile: str | None = None) -> Path:
    """The directory silcrow works in, for an optional profile ("default": the home itself)."""
    base = Path(home).expanduser() if home is not None else default_home()
    if profile is not None and validate_profile(profile) == DEFAULT_PROFILE:
        legacy = base / "profiles" / DEFAULT_PROFILE
        if legacy.is_dir():  # made when "default" meant that directory: never hide its notes
            raise ConfigError(
                f"{legacy} holds a profile named 'default', but the profile 'default' is the home "
                f"{base} itself; move its files into {base} (or rename the directory to another "
                "profile name) and try again"
            )
    if profile is not None and profile != DEFAULT_PROFILE:
        return base / "profiles" / validate_profile(profile)
    return base


def memories_dir(home: Path) -> Path:
    return home / "memories"


def recall_db(home: Path) -> Path:
    return home / "recall.db"


def sessions_db(home: Path) -> Path:
    return home / "sessions.db"


def config_file(home: Path) -> Path:
    return home / "config.toml"
