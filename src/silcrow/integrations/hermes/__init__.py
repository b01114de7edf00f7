"""silcrow as the memory provider of the Hermes agent (``hermes-agent`` on PyPI).

Hermes loads user-installed memory providers from ``$HERMES_HOME/plugins/<name>/``.
``silcrow hermes install`` writes a package there whose ``__init__.py`` only
subclasses Hermes's own ``agent.memory_provider.MemoryProvider`` with
:class:`HermesBridge`; every hook's behaviour lives in this package.

* :class:`HermesBridge` (``_bridge.py``): the provider Hermes drives (its hooks mapped onto
  silcrow's configured recall provider).
* :func:`install`, :func:`uninstall`, :func:`doctor` (``_plugin.py``); where the plugin
  and its settings live (``_settings.py``).
"""

from __future__ import annotations

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow.integrations.hermes._bridge import HermesBridge
from silcrow.integrations.hermes._plugin import Check as Check
from silcrow.integrations.hermes._plugin import default_hermes_home as default_hermes_home
from silcrow.integrations.hermes._plugin import (
    doctor,
    install,
    uninstall,
)
from silcrow.integrations.hermes._plugin import hermes_importable as hermes_importable
from silcrow.integrations.hermes._settings import PLUGIN_NAME as PLUGIN_NAME
from silcrow.integrations.hermes._settings import plugin_dir as plugin_dir
from silcrow.integrations.hermes._settings import plugin_settings as plugin_settings

__all__ = [
    "HermesBridge",
    "doctor",
    "install",
    "uninstall",
]
