"""The external recall providers (Hermes' eight) and what they share.

Each provider is a package ``silcrow.recall.providers.<name>`` registered
under the ``silcrow.providers`` entry points, whose client library is an
optional extra (``pip install "silcrow[<name>]"``), imported lazily.

How a provider uses the shared parts: subclass
:class:`~silcrow.recall.providers.base.HostedProvider` and set

* ``name``, ``extra`` and ``modules``: ``is_available()`` then says
  ``pip install "silcrow[<extra>]"`` when a module is missing, without
  importing it or touching the network; override ``missing_settings()`` to
  name the environment variable to set (``key_hint(key)`` words it);
* ``defaults`` and ``env``: ``self.config`` merges the defaults, the
  ``[recall.<name>]`` table of ``<home>/config.toml`` and the environment
  (env wins), converted to the defaults' types (``config.py``);
* network reads go through ``self.call(op, fn)`` (``resilience.py``): the
  client is built with ``self.resilient.timeout``; any failure becomes a
  :class:`~silcrow.errors.ServiceError` (SDK and httpx errors translated
  by ``http.service_error``), logged once per outage, and after repeated
  failures a circuit breaker pauses calls. ``prefetch`` calls
  ``self.recall(query)`` that way and answers "" on failure;
* writes go through ``self.queue_write(kind, payload)``: the payload is kept
  in a SQLite outbox (``<home>/recall_outbox/<name>.db``, ``outbox.py``)
  and ``self.send_write(kind, payload)`` delivers it, oldest first, now or
  when the service is back (at the next write, ``flush_outbox()`` or
  shutdown); a write refused for good is set aside, never retried forever;
* responses are checked with ``validate.py`` (``as_dict``, ``as_list``,
  ``field``): a malformed answer is a ServiceError, never a crash;
* tools: ``tools()`` returns ``(schema, handler)`` pairs; ``handle_tool_call``
  dispatches and turns every error into a JSON error (built by
  :mod:`silcrow.toolcall`, like every other tool's);
* ``probe_write`` / ``probe_search`` / ``probe_forget`` make
  ``silcrow providers check <name>`` do one real round trip.

Providers without an SDK speak HTTP through ``http.JsonHttp``. Recalled text needs no
extra care here: the MemoryManager fences and threat-scans what a provider
returns from ``prefetch`` and from its tools.
"""

from __future__ import annotations

# Hermes' eight, by entry-point name (the `local` provider lives in silcrow.recall.local).
EXTERNAL_PROVIDERS = (
    "honcho", "mem0", "hindsight", "supermemory", "openviking", "retaindb", "holographic", "byterover",
)
