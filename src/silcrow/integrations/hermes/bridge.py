"""Deprecated alias of :class:`silcrow.integrations.hermes.HermesBridge` for the plugin shims
earlier releases wrote (they import it from here); ``silcrow hermes install`` rewrites such a
shim to import the package instead."""

from __future__ import annotations

import warnings

from silcrow.integrations.hermes._bridge import HermesBridge

__all__ = ["HermesBridge"]

warnings.warn(
    "silcrow.integrations.hermes.bridge is deprecated: import HermesBridge from "
    "silcrow.integrations.hermes (run `silcrow hermes install` to update an installed plugin)",
    DeprecationWarning,
    stacklevel=2,
)
