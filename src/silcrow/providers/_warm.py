"""A prefetch started early: search for a message in the background, pick the answer up later.

Hermes providers start their search before the model call (``on_turn_start``
or ``queue_prefetch``) so that ``prefetch`` finds the answer ready. One slot
is enough: only the latest message matters, and a ``take`` for another
message gets nothing (the caller then searches itself).
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class WarmPrefetch:
    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._query = ""
        self._done = threading.Event()
        self._text: str | None = None

    def start(self, query: str, fetch: Callable[[str], str]) -> None:
        """Run ``fetch(query)`` on a daemon thread; its failures count as nothing found."""
        done = threading.Event()
        with self._lock:
            self._query, self._done, self._text = query, done, None

        def run() -> None:
            text = ""
            try:
                text = fetch(query)
            except Exception:  # the caller's fetch reports its own errors; a warm-up only misses
                text = ""
            finally:
                with self._lock:
                    if self._done is done:
                        self._text = text
                done.set()

        threading.Thread(target=run, name=f"silcrow-{self._name}-prefetch", daemon=True).start()

    def take(self, query: str, wait: float) -> str | None:
        """The warmed answer for ``query`` (waiting up to ``wait`` s), or None if there is none."""
        with self._lock:
            if self._query != query:
                return None
            done = self._done
        if not done.wait(wait):
            return None
        with self._lock:
            text, self._query, self._text = self._text, "", None
        return text
