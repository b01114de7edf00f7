"""silcrow as the memory provider of the Hermes agent (``hermes-agent`` on PyPI).

Hermes loads user-installed memory providers from ``$HERMES_HOME/plugins/<name>/``.
``silcrow hermes install`` writes a package there whose ``__init__.py`` only
subclasses Hermes's own ``agent.memory_provider.MemoryProvider`` with
:class:`HermesBridge`; every hook's behaviour lives in this package.

* :class:`HermesBridge` (``_bridge.py``): the provider Hermes drives (its hooks mapped onto
  silcrow's configured recall provider).
* :func:`install`, :func:`uninstall`, :func:`doctor` (``_plugin.py``); where the plugin
  and its settings live (``_settings.py``).

A shim an earlier build wrote (it imported ``silcrow.integrations.hermes.bridge``) is
recognised and replaced by ``silcrow hermes install``.
"""

from __future__ import annotations

from silcrow.integrations.hermes._bridge import HermesBridge
from silcrow.integrations.hermes._plugin import (
    Check,
    default_hermes_home,
    doctor,
    hermes_importable,
    install,
    uninstall,
)
from silcrow.integrations.hermes._settings import PLUGIN_NAME, plugin_dir, plugin_settings

__all__ = [
    "Check",
    "HermesBridge",
    "PLUGIN_NAME",
    "default_hermes_home",
    "doctor",
    "hermes_importable",
    "install",
    "plugin_dir",
    "plugin_settings",
    "uninstall",
]
