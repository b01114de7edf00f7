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
            module, package = extra.replace("-", "_"), name.split(".")[0]
            raise ExtraNotInstalledError(
                f"silcrow.integrations.{module} needs the {package!r} package, which is not installed or "
                f"cannot be imported ({exc}): pip install 'silcrow[{extra}]'"
            ) from exc
    return loaded
