"""Long-term recall: the provider interface, its manager, and provider discovery.

Providers register under the entry-point group ``silcrow.providers``; the
built-in ``local`` provider is registered the same way as any third-party
one (``local = "silcrow.recall.local:LocalProvider"`` in pyproject.toml).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from silcrow._lazy import lazy_getattr
from silcrow.errors import ProviderNotFoundError, RecallError
from silcrow.recall.provider import MemoryProvider

if TYPE_CHECKING:
    from silcrow.recall.manager import MemoryManager
    from silcrow.recall.policy import is_trivial_prompt

ENTRY_POINT_GROUP = "silcrow.providers"

__all__ = [
    "ENTRY_POINT_GROUP",
    "MemoryManager",
    "MemoryProvider",
    "available_providers",
    "is_trivial_prompt",
    "load_provider",
    "provider_names",
]


# The manager and the policy pull in the safety scanners; importing a provider class must not.
__getattr__ = lazy_getattr(__name__, {"MemoryManager": "silcrow.recall.manager",
                                      "is_trivial_prompt": "silcrow.recall.policy"})


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def provider_names() -> list[str]:
    """Names of every installed provider, sorted."""
    return sorted(_entry_points())


def _instantiate(ep: EntryPoint, kwargs: dict[str, Any]) -> MemoryProvider:
    try:
        factory = ep.load()
    except Exception as exc:
        raise RecallError(
            f"recall provider {ep.name!r} ({ep.value}) could not be imported: {type(exc).__name__}: {exc}; "
            "reinstall the package that provides it"
        ) from exc
    if not callable(factory):
        raise RecallError(
            f"entry point {ep.name!r} ({ep.value}) is not a class or factory; fix its packaging"
        )
    try:
        provider = factory(**kwargs)
    except TypeError as exc:
        raise RecallError(
            f"recall provider {ep.name!r} does not accept {sorted(kwargs)}: {exc}"
        ) from exc
    if not isinstance(provider, MemoryProvider):
        raise RecallError(
            f"entry point {ep.name!r} ({ep.value}) made a {type(provider).__name__}, "
            "not a silcrow MemoryProvider; the plugin is broken or outdated"
        )
    return provider


def load_provider(name: str, **kwargs: Any) -> MemoryProvider:
    """Create the provider registered as ``name``, passing ``kwargs`` to its constructor."""
    eps = _entry_points()
    ep = eps.get(name)
    if ep is None:
        installed = ", ".join(sorted(eps)) or "none"
        raise ProviderNotFoundError(
            f"no recall provider named {name!r} is installed (available: {installed}); set `provider` "
            "in <home>/config.toml or pass --provider with one of those, or install the package "
            f"that registers {name!r} under the {ENTRY_POINT_GROUP!r} entry points"
        )
    return _instantiate(ep, kwargs)


def available_providers(**kwargs: Any) -> list[tuple[str, bool, str]]:
    """``(name, available, why_not)`` for every installed provider, sorted by name.

    Instantiating and asking ``is_available`` must not touch the network
    (part of the provider contract); a provider that fails to load is
    reported as unavailable with the reason rather than raising.
    """
    rows: list[tuple[str, bool, str]] = []
    for name, ep in sorted(_entry_points().items()):
        try:
            provider = _instantiate(ep, kwargs)
            ok = bool(provider.is_available())
            reason = "" if ok else (provider.unavailable_reason() or "is_available() returned False")
        except Exception as exc:
            ok, reason = False, f"{type(exc).__name__}: {exc}"
        rows.append((name, ok, reason))
    return rows
