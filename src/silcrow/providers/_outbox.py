"""A durable, ordered queue of writes for a hosted service: ``<home>/recall_outbox/<name>.db``.

Every write a provider makes (a turn, a mirrored note, a conclusion) is put
here first and then sent; it leaves the outbox only once the service took it.
While the service is down the writes wait on disk, across restarts, and are
replayed oldest first when it answers again, so nothing the user said is
lost because a service had a bad minute. A write the service refuses for
good (``ServiceError.permanent``, e.g. a 400) is moved to the ``dead`` table
with the reason instead of blocking every write behind it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from silcrow._locking import ExclusiveLock, LockWaitTimeout
from silcrow._sqlite import connect, statements
from silcrow.errors import RecallError, ServiceError

log = logging.getLogger(__name__)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS dead (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    failed REAL NOT NULL,
    error TEXT NOT NULL
);
"""
# Version 1 is the schema outboxes had before migrations were recorded (IF NOT EXISTS: it
# adopts such a file as it is).
_MIGRATIONS = ((1, "pending and dead writes", statements(_SCHEMA)),)

Sender = Callable[[str, dict[str, Any]], None]
DRAIN_WAIT = 300.0  # seconds a waiting drain waits for another process's (each send has its own timeout)


def outbox_path(home: Path, name: str) -> Path:
    return home / "recall_outbox" / f"{name}.db"


class Outbox:
    """Pending writes of one provider in SQLite (WAL; safe across threads and processes)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._drain_lock = threading.Lock()
        self._conn = connect(path, _MIGRATIONS, error=RecallError, what="recall outbox")

    def put(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue one write; returns its id. The payload must be JSON-serialisable."""
        text = json.dumps(payload, ensure_ascii=False)
        with self._lock:
            try:
                cur = self._conn.execute(
                    "INSERT INTO pending (kind, payload, created) VALUES (?, ?, ?)", (kind, text, time.time())
                )
            except sqlite3.Error as exc:
                raise RecallError(f"cannot queue a write in {self.path}: {exc}; check the disk") from exc
        return int(cur.lastrowid or 0)

    def pending(self) -> list[tuple[int, str, dict[str, Any]]]:
        """Queued writes, oldest first."""
        with self._lock:
            rows = self._conn.execute("SELECT id, kind, payload FROM pending ORDER BY id").fetchall()
        return [(int(i), str(k), json.loads(p)) for i, k, p in rows]

    def dead(self) -> list[tuple[int, str, dict[str, Any], str]]:
        """Writes the service refused for good, with its reason."""
        with self._lock:
            rows = self._conn.execute("SELECT id, kind, payload, error FROM dead ORDER BY id").fetchall()
        return [(int(i), str(k), json.loads(p), str(e)) for i, k, p, e in rows]

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM pending").fetchone()[0])

    def drain(self, send: Sender, *, limit: int | None = None, wait: bool = False) -> int:
        """Send queued writes in order until one fails; returns how many were delivered.

        A retryable failure stops the drain (later writes must not overtake it)
        and is raised; a permanent one is moved to ``dead`` and the drain goes
        on. Only one drain runs at a time, across threads and processes (a
        sidecar lock file): a concurrent call returns 0 at once, or with
        ``wait`` first waits for the running one to finish.
        """
        if not self._drain_lock.acquire(blocking=wait):
            return 0
        sidecar = ExclusiveLock(self.path.with_suffix(".drain.lock"), DRAIN_WAIT if wait else 0.0)
        try:
            sidecar.acquire()
        except LockWaitTimeout:
            self._drain_lock.release()
            return 0  # another process is delivering these writes
        except OSError as exc:
            self._drain_lock.release()
            raise RecallError(
                f"cannot lock the recall outbox {self.path}: {exc}; check the directory"
            ) from exc
        delivered = 0
        try:
            while limit is None or delivered < limit:
                with self._lock:
                    row = self._conn.execute(
                        "SELECT id, kind, payload, created FROM pending ORDER BY id LIMIT 1"
                    ).fetchone()
                if row is None:
                    break
                row_id, kind, payload, created = row
                try:
                    send(str(kind), json.loads(payload))
                except ServiceError as exc:
                    if not exc.permanent:
                        with self._lock:
                            self._conn.execute(
                                "UPDATE pending SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                                (str(exc), row_id),
                            )
                        raise
                    log.error(
                        "recall outbox %s: %s write %d refused for good (%s); kept in the dead table",
                        self.path.name,
                        kind,
                        row_id,
                        exc,
                    )
                    with self._lock:
                        self._conn.execute("BEGIN IMMEDIATE")
                        self._conn.execute(
                            "INSERT INTO dead (id, kind, payload, created, failed, error) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (row_id, kind, payload, created, time.time(), str(exc)),
                        )
                        self._conn.execute("DELETE FROM pending WHERE id = ?", (row_id,))
                        self._conn.execute("COMMIT")
                    continue
                with self._lock:
                    self._conn.execute("DELETE FROM pending WHERE id = ?", (row_id,))
                delivered += 1
        finally:
            sidecar.release()
            self._drain_lock.release()
        return delivered

    def close(self) -> None:
        with self._lock:
            try:
                self._conn.close()
            except sqlite3.Error:  # pragma: no cover - closing never matters for correctness
                pass
