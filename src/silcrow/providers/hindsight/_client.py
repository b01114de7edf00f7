"""The official ``hindsight-client`` on one event loop of its own.

The client is asynchronous (aiohttp); its sync wrappers run each call on the
calling thread's event loop, but silcrow calls from several threads (the
manager's worker, timed prefetch threads) and an aiohttp session must stay
on the loop that made it. So every call is sent to one loop thread owned by
the provider, as the Hermes plugin does.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from silcrow.errors import ServiceError
from silcrow.providers._http import service_error, status_error

T = TypeVar("T")
SERVICE = "hindsight"


def translate(exc: BaseException, key_hint: str = "") -> ServiceError:
    """The client's ApiException carries ``status``/``body``/``headers``; the rest as usual."""
    status = getattr(exc, "status", None)
    if isinstance(status, int) and status >= 400:
        body = getattr(exc, "body", None) or getattr(exc, "reason", None) or str(exc)
        headers = getattr(exc, "headers", None)
        return status_error(SERVICE, status, str(body), dict(headers) if headers else None, key_hint=key_hint)
    if isinstance(exc, ValueError) and "validation error" in str(exc).lower():
        return ServiceError(f"{SERVICE} answered a malformed response ({str(exc)[:200]}); the server and "
                            "hindsight-client versions may not match")
    return service_error(SERVICE, exc, key_hint=key_hint)


class LoopClient:
    """A ``HindsightClient`` whose calls all run on one private event-loop thread."""

    def __init__(self, base_url: str, api_key: str | None, timeout: float) -> None:
        from hindsight_client import Hindsight

        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="silcrow-hindsight-loop",
                                        daemon=True)
        self._thread.start()
        self.client: Any = Hindsight(base_url=base_url, api_key=api_key or None, timeout=timeout,
                                     user_agent="silcrow", max_attempts=1)

    def run(self, make: Callable[[Any], Awaitable[T]]) -> T:
        """``await make(client)`` on the loop; waits at most the timeout (plus a second)."""
        async def call() -> T:
            return await make(self.client)

        future = asyncio.run_coroutine_threadsafe(call(), self._loop)
        try:
            return future.result(self.timeout + 1.0)
        except TimeoutError:
            future.cancel()
            raise

    def close(self) -> None:
        try:
            self.run(lambda c: c.aclose())
        except Exception:  # closing a client whose server is gone must not fail a shutdown
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()
