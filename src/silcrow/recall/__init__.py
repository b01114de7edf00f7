"""Long-term recall: the provider interface, its manager, and provider discovery.

Providers register under the entry-point group ``silcrow.providers``; the
built-in ``local`` provider is registered the same way as any third-party
one (``local = "silcrow.recall.local:LocalProvider"`` in pyproject.toml).

The public names are listed in ``__all__``: the provider interface
(:class:`MemoryProvider`: its typed recall ``search`` / ``remember`` / ``forget`` and its typed
tools :class:`ToolSpec` and :class:`ToolResult`), the manager that runs one
(:class:`MemoryManager`; several providers selected at once run as one, a
``ProviderSet``), the typed results (:class:`Found`, :class:`Remembered`,
:class:`Forgotten`, the hits :class:`RecallHit` and what is stored, :class:`RecallRecord`), the
``recall_*`` tools' specs (:data:`TOOL_SPECS`) and provider discovery (:func:`load_provider`,
:func:`open_provider`). The embedders are :mod:`silcrow.models`'. The modules behind them
(``_provider``, ``_spec``, ``_edge``, ``_manager``, ``_api``, ``_records``, ``_tools``,
``_formats``, ``_coding`` the Claude Code and Codex transcript readers, ...) are internal;
:mod:`silcrow.recall.contract` (the check a third-party provider runs) and
:mod:`silcrow.recall.policy` are public modules.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr
from silcrow.errors import ProviderNotFoundError, RecallError, SilcrowError
from silcrow.recall._provider import MemoryProvider
from silcrow.recall._spec import ToolResult, ToolSpec

if TYPE_CHECKING:
    from silcrow.config import ProfileSettings, Settings
    from silcrow.models import Embedder
    from silcrow.recall._api import Answer as Answer
    from silcrow.recall._api import Forgotten, Found, Remembered
    from silcrow.recall._api import RecallAPI as RecallAPI
    from silcrow.recall._check import round_trip as round_trip
    from silcrow.recall._coding import CLIENTS as CLIENTS
    from silcrow.recall._coding import default_dir as default_dir
    from silcrow.recall._coding import load_transcripts as load_transcripts
    from silcrow.recall._coding import parse_claude_code as parse_claude_code
    from silcrow.recall._coding import transcript_files as transcript_files
    from silcrow.recall._edge import answer_dict as answer_dict
    from silcrow.recall._edge import answer_json as answer_json
    from silcrow.recall._edge import as_openai_tool as as_openai_tool
    from silcrow.recall._edge import bare_tool as bare_tool
    from silcrow.recall._formats import STDIN as STDIN
    from silcrow.recall._formats import load_records as load_records
    from silcrow.recall._formats import parse_locomo as parse_locomo
    from silcrow.recall._formats import read_records as read_records
    from silcrow.recall._limits import MAX_FACT_CHARS as MAX_FACT_CHARS
    from silcrow.recall._limits import MAX_QUERY_CHARS as MAX_QUERY_CHARS
    from silcrow.recall._limits import MAX_RECORD_CHARS as MAX_RECORD_CHARS
    from silcrow.recall._limits import MAX_RESULTS as MAX_RESULTS
    from silcrow.recall._manager import MemoryManager
    from silcrow.recall._multi import ProviderSet as ProviderSet
    from silcrow.recall._records import RecallHit, RecallRecord
    from silcrow.recall._tools import TOOL_NAMES as TOOL_NAMES
    from silcrow.recall._tools import TOOL_SPECS
    from silcrow.recall._tools import call_recall_tool as call_recall_tool
    from silcrow.recall._tools import run_tool as run_tool
    from silcrow.recall._tools import tool_schemas as tool_schemas
    from silcrow.recall.policy import context_block as context_block
    from silcrow.recall.policy import hits_block as hits_block
    from silcrow.recall.policy import is_trivial_prompt as is_trivial_prompt

ENTRY_POINT_GROUP = "silcrow.providers"

__all__ = [
    "Forgotten",
    "Found",
    "MemoryManager",
    "MemoryProvider",
    "RecallHit",
    "RecallRecord",
    "Remembered",
    "TOOL_SPECS",
    "ToolResult",
    "ToolSpec",
    "load_provider",
    "open_provider",
]

# Importing a provider class must not pull in the manager's threat scanners, numpy (the
# embedders) or the readers: each name is imported from its module on first use. The names here
# that __all__ does not list serve silcrow's own packages (the servers, the CLI, the Hermes
# bridge, the hooks), which may not import recall's private modules: they are not API.
_LAZY = {
    **dict.fromkeys(("Answer", "Forgotten", "Found", "RecallAPI", "Remembered"), "silcrow.recall._api"),
    **dict.fromkeys(("RecallHit", "RecallRecord"), "silcrow.recall._records"),
    **dict.fromkeys(("answer_dict", "answer_json", "as_openai_tool", "bare_tool"), "silcrow.recall._edge"),
    **dict.fromkeys(("STDIN", "load_records", "parse_locomo", "read_records"), "silcrow.recall._formats"),
    # The Claude Code hooks read one transcript; `silcrow recall ingest --from` finds and reads them.
    **dict.fromkeys(("CLIENTS", "default_dir", "load_transcripts", "parse_claude_code", "transcript_files"),
                    "silcrow.recall._coding"),
    **dict.fromkeys(("MAX_FACT_CHARS", "MAX_QUERY_CHARS", "MAX_RECORD_CHARS", "MAX_RESULTS"),
                    "silcrow.recall._limits"),
    "MemoryManager": "silcrow.recall._manager",
    "ProviderSet": "silcrow.recall._multi",
    **dict.fromkeys(("context_block", "hits_block", "is_trivial_prompt"), "silcrow.recall.policy"),
    **dict.fromkeys(("TOOL_NAMES", "TOOL_SPECS", "call_recall_tool", "run_tool", "tool_schemas"),
                    "silcrow.recall._tools"),
    "check_provider_contract": "silcrow.recall.contract",
    "round_trip": "silcrow.recall._check",
}
__getattr__ = lazy_getattr(__name__, _LAZY)


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def provider_names() -> list[str]:
    """Names of every installed provider, sorted."""
    return sorted(_entry_points())


def _instantiate(ep: EntryPoint, kwargs: dict[str, Any], settings: Settings | None = None) -> MemoryProvider:
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
    if settings is not None:
        kwargs = {**kwargs, "settings": settings}
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


def load_provider(name: str, *, settings: Settings | None = None, **kwargs: Any) -> MemoryProvider:
    """Create the provider registered as ``name``, passing ``kwargs`` to its constructor.

    ``settings`` (the opened profile's) is passed on as the keyword ``settings``, so the provider
    reads its ``[recall.<name>]`` table from there instead of reading config.toml again: a
    provider's constructor takes it (or ``**kwargs``)."""
    eps = _entry_points()
    ep = eps.get(name)
    if ep is None:
        installed = ", ".join(sorted(eps)) or "none"
        raise ProviderNotFoundError(
            f"no recall provider named {name!r} is installed (available: {installed}); set `provider` "
            "in <home>/config.toml or pass --provider with one of those, or install the package "
            f"that registers {name!r} under the {ENTRY_POINT_GROUP!r} entry points"
        )
    return _instantiate(ep, kwargs, settings)


def open_provider(where: ProfileSettings, name: str | Sequence[str] | None = None, *,
                  embedder: str | Embedder | None = None) -> MemoryProvider | None:
    """The recall provider ``name`` (default: the configured ones, ``providers`` or
    ``provider``) of an opened profile, or None when it is ``"none"``; not initialised (hand it
    to a :class:`MemoryManager`). Several names give one provider running them all at once
    (a ``ProviderSet``, see :mod:`silcrow.recall._multi`). Each gets the profile's settings,
    and the local provider the storage the profile decided."""
    if name is None:
        names = where.settings.recall_providers
    else:
        names = (name,) if isinstance(name, str) else tuple(name)
    names = tuple(n for n in names if n not in ("", "none"))
    if not names:
        return None
    spec = embedder if embedder is not None else where.settings.embedder_spec()
    if len(names) == 1:
        return _open_one(where, names[0], spec)
    installed = _entry_points()
    unknown = [n for n in names if n not in installed]
    if unknown:
        raise ProviderNotFoundError(
            f"no recall provider named {', '.join(map(repr, unknown))} is installed (selected in "
            f"`providers`: {', '.join(names)}); the installed ones are "
            f"{', '.join(sorted(installed)) or 'none'}. "
            "Fix `providers` in <home>/config.toml (or SILCROW_PROVIDERS), or install the package that "
            f"registers it under the {ENTRY_POINT_GROUP!r} entry points"
        )
    from silcrow.recall._multi import ProviderSet, Unloadable

    members: list[MemoryProvider] = []
    for one in names:
        try:
            members.append(_open_one(where, one, spec))
        except RecallError as exc:  # the others run; its status says why
            members.append(Unloadable(one, str(exc)))
        except SilcrowError:  # a setting to fix (ConfigError...): said at once, as for one provider
            raise
        except Exception as exc:  # a plugin's own bug: it costs that member only
            members.append(Unloadable(one, f"could not be made: {type(exc).__name__}: {exc}; a fault "
                                           "of the plugin: report it to its authors, or leave it out of "
                                           "`providers`"))
    return ProviderSet(members)


def _open_one(where: ProfileSettings, name: str, spec: str | Embedder) -> MemoryProvider:
    if name == "local":  # its storage is the one decided for the profile (a DSN may be an argument)
        from silcrow.recall.local import open_recall

        return load_provider(name, home=where.path, embedder=spec, settings=where.settings,
                             storage=lambda emb: open_recall(where, emb))
    return load_provider(name, home=where.path, embedder=spec, settings=where.settings)


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
