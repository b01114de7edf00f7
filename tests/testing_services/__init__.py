"""Loopback STAND-INS for the hosted recall services silcrow's providers talk to.

These are not Honcho, Supermemory, OpenViking, RetainDB, the Mem0 platform
or Hindsight: they are small in-memory HTTP servers on 127.0.0.1 that
implement the documented REST routes and JSON shapes the adapters use (their
search is a plain word overlap), so the real clients (the ``honcho-ai``,
``supermemory``, ``mem0ai`` and ``hindsight-client`` SDKs, httpx) can be
tested on a machine with no internet. Every response carries
``X-Silcrow-Stand-In: true``. ``brv.py`` is the stand-in ``brv`` executable
of the byterover tests.

They are strict, so a wrong adapter cannot pass: an unknown route, a
missing required field or a wrong auth header is refused (404/422/401) and
recorded in ``violations``. Failures are scripted per request:
``fail(status, retry_after=...)`` (401, 404, 429 with Retry-After, 500...),
``malformed()`` (200 with a body that is not JSON), ``delay(seconds)``
(client timeouts) and ``down = True`` (connections dropped: an outage).
"""

from __future__ import annotations

from testing_services.base import STAND_IN_HEADER, StandInService
from testing_services.hindsight import HindsightStandIn
from testing_services.honcho import HonchoStandIn
from testing_services.mem0 import Mem0PlatformStandIn
from testing_services.openviking import OpenVikingStandIn
from testing_services.retaindb import RetainDBStandIn
from testing_services.supermemory import SupermemoryStandIn

__all__ = [
    "HindsightStandIn",
    "Mem0PlatformStandIn",
    "STAND_IN_HEADER",
    "HonchoStandIn",
    "OpenVikingStandIn",
    "RetainDBStandIn",
    "StandInService",
    "SupermemoryStandIn",
]
