"""silcrow as the memory provider of the Hermes agent (``hermes-agent`` on PyPI).

Hermes loads user-installed memory providers from ``$HERMES_HOME/plugins/<name>/``.
``silcrow hermes install`` writes a package there whose ``__init__.py`` only
subclasses Hermes's own ``agent.memory_provider.MemoryProvider`` with
:class:`HermesBridge`; every hook's behaviour lives in this package.

* :mod:`.bridge`: the provider Hermes drives (its hooks mapped onto silcrow's
  configured recall provider).
* :mod:`.plugin`: install, uninstall and doctor.
"""

from __future__ import annotations

from silcrow.integrations.hermes.bridge import PLUGIN_NAME, HermesBridge, plugin_settings
from silcrow.integrations.hermes.plugin import (
    Check,
    default_hermes_home,
    doctor,
    hermes_importable,
    install,
    plugin_dir,
    uninstall,
)

__all__ = [
    "PLUGIN_NAME",
    "Check",
    "HermesBridge",
    "default_hermes_home",
    "doctor",
    "hermes_importable",
    "install",
    "plugin_dir",
    "plugin_settings",
    "uninstall",
]
