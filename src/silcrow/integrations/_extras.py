"""The one check each framework integration runs before importing its SDK."""

from __future__ import annotations

import importlib
from types import ModuleType

from silcrow.errors import ExtraNotInstalledError


def require(extra: str, *modules: str) -> list[ModuleType]:
    """Import ``modules`` (the SDK of the integration ``extra``), or raise one error that names
    the extra to install."""
    loaded = []
    for name in modules:
        try:
            loaded.append(importlib.import_module(name))
        except ImportError as exc:
            raise ExtraNotInstalledError(
                f"silcrow.integrations.{extra.replace('-', '_')} needs the {name!r} package, which is not "
                f"installed ({exc}): pip install 'silcrow[{extra}]'"
            ) from exc
    return loaded
