"""Calls to a hosted service that fail quietly, once, and pause when the service is down.

:class:`Resilient` wraps each network operation of a provider:

* the operation itself carries the timeout (``resilient.timeout`` is handed
  to the HTTP client or SDK), so a hung service costs at most that long;
* any exception becomes a :class:`~silcrow.errors.ServiceError`; the first
  failure of an outage is logged as a warning, the following ones only at
  debug level, and the recovery is logged once;
* after ``threshold`` consecutive failures the circuit opens: calls raise
  :class:`~silcrow.errors.ServiceUnavailableError` at once, without touching
  the network, for ``cooldown`` seconds (or as long as a 429/503 asked, up to
  ``max_cooldown``); then one trial call is let through (half-open).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from silcrow.errors import ServiceError, ServiceUnavailableError
from silcrow.providers._http import service_error

log = logging.getLogger(__name__)

T = TypeVar("T")
Translate = Callable[[BaseException], ServiceError]


class Resilient:
    """Timeout, log-once and circuit breaker for one service (see module doc)."""

    def __init__(
        self,
        service: str,
        *,
        timeout: float = 10.0,
        threshold: int = 3,
        cooldown: float = 30.0,
        max_cooldown: float = 300.0,
        translate: Translate | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.timeout = timeout
        self.threshold = max(1, threshold)
        self.cooldown = cooldown
        self.max_cooldown = max_cooldown
        self.translate = translate or (lambda exc: service_error(service, exc))
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._open_until = 0.0
        self._trial_running = False
        self._logged_outage = False
        self.last_error = ""
        self.counters = {"calls": 0, "failures": 0, "short_circuited": 0}

    @property
    def is_open(self) -> bool:
        """True while calls are paused (no trial call allowed yet)."""
        with self._lock:
            return self._failures >= self.threshold and self._clock() < self._open_until

    def _admit(self, op: str) -> None:
        with self._lock:
            self.counters["calls"] += 1
            if self._failures < self.threshold:
                return
            now = self._clock()
            if now < self._open_until or self._trial_running:
                self.counters["short_circuited"] += 1
                wait = max(0.0, self._open_until - now)
                raise ServiceUnavailableError(
                    f"{self.service}: calls paused for {wait:.0f}s more after {self._failures} failures in a "
                    f"row (last: {self.last_error}); {op} skipped. Check the service and its settings, or "
                    f"run `silcrow providers check {self.service}`",
                    retry_after=wait,
                )
            self._trial_running = True  # half-open: this call decides

    def reset(self) -> None:
        """Close the circuit (a caller that retries on purpose, e.g. `silcrow providers check`)."""
        with self._lock:
            self._failures = 0
            self._trial_running = False
            self._open_until = 0.0

    def _succeeded(self) -> None:
        with self._lock:
            if self._logged_outage:
                log.warning("recall service %s answers again", self.service)
            self._failures = 0
            self._trial_running = False
            self._logged_outage = False
            self._open_until = 0.0

    def _failed(self, op: str, error: ServiceError) -> None:
        with self._lock:
            self.counters["failures"] += 1
            self._failures += 1
            self._trial_running = False
            self.last_error = str(error)
            if self._failures >= self.threshold:
                pause = max(self.cooldown, error.retry_after or 0.0)
                self._open_until = self._clock() + min(pause, self.max_cooldown)
            first = not self._logged_outage
            self._logged_outage = True
        if first:
            log.warning("recall service %s failed in %s: %s; going on without it (later failures are "
                        "logged at debug level until it answers again)", self.service, op, error)
        else:
            log.debug("recall service %s failed in %s again: %s", self.service, op, error)

    def call(self, op: str, fn: Callable[[], T]) -> T:
        """Run ``fn`` (one network operation) under the breaker; raises ServiceError."""
        self._admit(op)
        try:
            value = fn()
        except ServiceError as exc:
            if exc.permanent:  # the service answered; this request is what is wrong
                self._succeeded()
                raise
            self._failed(op, exc)
            raise
        except Exception as exc:
            error = self.translate(exc)
            if error.permanent:
                self._succeeded()
                raise error from exc
            self._failed(op, error)
            raise error from exc
        self._succeeded()
        return value
