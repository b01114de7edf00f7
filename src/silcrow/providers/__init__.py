"""The external recall providers (Hermes' eight) and what they share.

Each provider is a package ``silcrow.providers.<name>`` registered
under the ``silcrow.providers`` entry points, whose client library is an
optional extra (``pip install "silcrow[<name>]"``), imported lazily.

How a provider uses the shared parts: subclass
:class:`HostedProvider` and set

* ``name``, ``extra`` and ``modules``: ``is_available()`` then says
  ``pip install "silcrow[<extra>]"`` when a module is missing, without
  importing it or touching the network; override ``missing_settings()`` to
  name the environment variable to set (``key_hint(key)`` words it);
* ``defaults`` and ``env``: ``self.config`` merges the defaults, the
  ``[recall.<name>]`` table of ``<home>/config.toml`` and the environment
  (env wins), converted to the defaults' types (``_config.py``);
* network reads go through ``self.call(op, fn)`` (``_resilience.py``): the
  client is built with ``self.resilient.timeout``; any failure becomes a
  :class:`~silcrow.errors.ServiceError` (SDK and httpx errors translated
  by :func:`service_error`), logged once per outage, and after repeated
  failures a circuit breaker pauses calls. ``prefetch`` calls
  ``self.recall(query)`` that way and answers "" on failure;
* writes go through ``self.queue_write(kind, payload)``: the payload is kept
  in a SQLite outbox (``<home>/recall_outbox/<name>.db``, ``_outbox.py``)
  and ``self.send_write(kind, payload)`` delivers it, oldest first, now or
  when the service is back (at the next write, ``flush_outbox()`` or
  shutdown); a write refused for good is set aside, never retried forever;
* responses are checked with :func:`as_dict`, :func:`as_list` and
  :func:`field`: a malformed answer is a ServiceError, never a crash;
* tools: ``tools()`` returns ``(spec, handler)`` pairs, each spec a
  :class:`~silcrow.recall.ToolSpec` (a schema dict is still read) and each handler
  answering a :class:`~silcrow.recall.ToolResult` (or the fields of a successful one);
  :meth:`HostedProvider.call_tool` dispatches and turns every error into a failed
  ToolResult that says what to do. No JSON here: the manager works on the typed
  answer and the model's edge (:func:`silcrow.recall.answer_json`) writes it;
* ``probe_write`` / ``probe_search`` / ``probe_forget`` make
  ``silcrow providers check <name>`` do one real round trip.

Providers without an SDK speak HTTP through :class:`JsonHttp`. Recalled text needs no
extra care here: the MemoryManager fences and threat-scans what a provider
returns from ``prefetch`` and from its tools.

The names in ``__all__`` are this kit's public API (imported on first use, so naming one
provider does not load the HTTP client of another); the modules behind them are internal.
Each provider package exports its provider class only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr

if TYPE_CHECKING:
    from silcrow._toolcall import function_schema as function_schema
    from silcrow.providers._base import HostedProvider
    from silcrow.providers._base import ToolHandler as ToolHandler
    from silcrow.providers._http import JsonHttp
    from silcrow.providers._http import service_error as service_error
    from silcrow.providers._http import status_error as status_error
    from silcrow.providers._sdk import SdkProvider
    from silcrow.providers._sdk import required_text as required_text
    from silcrow.providers._validate import as_dict as as_dict
    from silcrow.providers._validate import as_list as as_list
    from silcrow.providers._validate import field as field
    from silcrow.providers._validate import parse_json as parse_json
    from silcrow.providers._validate import text_of as text_of
    from silcrow.providers._warm import WarmPrefetch as WarmPrefetch

# Hermes' eight, by entry-point name (the `local` provider lives in silcrow.recall.local).
EXTERNAL_PROVIDERS = (
    "honcho", "mem0", "hindsight", "supermemory", "openviking", "retaindb", "holographic", "byterover",
)

_LAZY = {
    "HostedProvider": "silcrow.providers._base",
    "JsonHttp": "silcrow.providers._http",
    "SdkProvider": "silcrow.providers._sdk",
    "ToolHandler": "silcrow.providers._base",
    "WarmPrefetch": "silcrow.providers._warm",
    "as_dict": "silcrow.providers._validate",
    "as_list": "silcrow.providers._validate",
    "field": "silcrow.providers._validate",
    "function_schema": "silcrow._toolcall",
    "parse_json": "silcrow.providers._validate",
    "required_text": "silcrow.providers._sdk",
    "service_error": "silcrow.providers._http",
    "status_error": "silcrow.providers._http",
    "text_of": "silcrow.providers._validate",
}

__all__ = [
    "HostedProvider",
    "JsonHttp",
    "SdkProvider",
]

__getattr__ = lazy_getattr(__name__, _LAZY)


def __dir__() -> list[str]:
    return sorted(__all__)
