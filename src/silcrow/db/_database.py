"""One connection pool per database and process, transactions with bounded retries, clear errors.

Every use of the database goes through :meth:`Database.transaction` (or, for a read
that needs no transaction and runs under :meth:`Database.retrying`, :meth:`Database.reading`):

* taking a connection and starting the transaction is retried with backoff
  for up to :data:`RETRY_SECONDS` when the server is unreachable or
  restarting, and at once when the pooled connection was dropped (nothing has
  been done yet, so a retry cannot apply anything twice). A pooled connection
  is not tested before use: ``BEGIN`` is that test, and a round trip less on
  every transaction (with the owning profile named in the same one);
* a failure after that (inside the block, or at COMMIT) rolls back and is
  raised as the caller's :class:`SilcrowError` subclass, saying whether the
  change may have been saved; the database itself guarantees there is no
  half-write;
* :func:`retrying` re-runs a whole read-only or idempotent operation on
  serialization failures, deadlocks and dropped connections.

The pool is opened only after the schema check (:mod:`silcrow.db._migrations`)
passed, so its connections can register the pgvector type.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import unquote

from silcrow.db._migrations import SCHEMA, Migrations, check_schema, owned_by
from silcrow.errors import ConfigError, SilcrowError

log = logging.getLogger(__name__)

#: How long a transaction keeps trying to get a working connection.
RETRY_SECONDS = 30.0
#: How long a writer waits for a row another writer holds before giving up.
LOCK_TIMEOUT = "10s"
#: Connections a process keeps open at most. A recall ingest's two writers each hold one while
#: their batch is embedded (seconds, for a large batch of long turns): the others leave room
#: for searches and a second ingest beside it.
POOL_SIZE = 6

T = TypeVar("T")


def _psycopg() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the extra is part of the dev install
        raise ConfigError(
            "the PostgreSQL backend needs psycopg 3 and psycopg_pool: pip install 'silcrow[postgres]'"
        ) from exc
    return psycopg


UNPARSEABLE_DSN = "(a DSN that cannot be parsed, not shown)"


def redact(dsn: str) -> str:
    """``dsn`` without its passwords, for messages: parsed as libpq parses it (URL or key=value,
    quoted values with spaces too), every ``*password`` value replaced; shown as written when it has
    none, and not at all when it cannot be parsed (no one can tell where its password is)."""
    dsn = _mask_loose_userinfo(dsn)
    try:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        params = conninfo_to_dict(dsn)
    except Exception:  # psycopg missing, or a malformed DSN: its error text may quote the password
        return UNPARSEABLE_DSN
    secret = [key for key in params if "password" in key.lower()]
    if not secret:
        return dsn
    return str(make_conninfo("", **{key: "***" if key in secret else value for key, value in params.items()}))


def misread(dsn: str) -> str:
    """Why libpq would split the URI ``dsn`` otherwise than the person who wrote it meant ('' when
    it would not): an unencoded ``@`` in the user name or password ends them early for libpq, and
    the rest of the password becomes the host name (which a connection error then quotes)."""
    scheme, sep, rest = dsn.partition("://")
    if not sep or scheme.lower() not in ("postgresql", "postgres"):
        return ""
    if rest.partition("/")[0].count("@") < 2:  # libpq's user info never runs past a "/"
        return ""
    return ("the PostgreSQL DSN's user name or password holds an '@' that is not percent-encoded, so libpq "
            "would end it at that '@' and take the rest for the host name; write each '@' in them as %40 "
            "(postgresql://user:p%40ss@host/db) in [storage] dsn in config.toml or SILCROW_DATABASE_URL")


def password_pieces(dsn: str) -> list[str]:
    """Every password ``dsn`` holds, as libpq reads it and as its writer meant it (raw and
    percent-decoded), with the parts an ``@``, ``:``, ``/`` or a space splits them into: what a driver's
    message must never quote. Longest first; parts under 3 characters are left out (they
    would mask ordinary words of the message and tell little)."""
    found: set[str] = set()
    try:
        from psycopg.conninfo import conninfo_to_dict

        found.update(str(v) for k, v in conninfo_to_dict(dsn).items() if "password" in k.lower() and v)
    except Exception:  # psycopg missing or a DSN it cannot parse: the writer's reading below still counts
        pass
    scheme, sep, rest = dsn.partition("://")
    if sep and scheme.lower() in ("postgresql", "postgres"):
        userinfo = rest.split("?", 1)[0].rpartition("@")[0]
        if ":" in userinfo:
            found.add(userinfo.split(":", 1)[1])
    found.update({unquote(p) for p in found})
    pieces = found | {part for p in found for part in re.split(r"[@:/\s]", p)}
    return sorted((p for p in pieces if len(p) >= 3), key=len, reverse=True)


def _mask_loose_userinfo(dsn: str) -> str:
    """A URI whose password holds an unencoded ``@`` (``postgresql://u:Sup3r@Secret@host/db``)
    with that password masked whole: libpq ends the user info at the first ``@`` and would take
    the rest of the password for the host, but a person means everything up to the last one."""
    scheme, sep, rest = dsn.partition("://")
    if not sep or scheme.lower() not in ("postgresql", "postgres"):
        return dsn
    authority, slash, tail = rest.partition("/")  # libpq's user info never runs past a "/"
    if authority.count("@") < 2:
        return dsn
    userinfo, _, hosts = authority.rpartition("@")
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{hosts}{slash}{tail}"


def is_transient(exc: BaseException) -> bool:
    """Whether trying again later may succeed: a lost or refused connection, a serialization
    failure or deadlock (the transaction was rolled back), or no connection free in time."""
    psycopg = _psycopg()
    from psycopg_pool import PoolTimeout

    if isinstance(exc, PoolTimeout | psycopg.OperationalError):
        return True
    errors = psycopg.errors
    return isinstance(exc, errors.SerializationFailure | errors.DeadlockDetected)


class Database:
    """A PostgreSQL database reached through a small pool; one per DSN and process.

    ``migrations`` is the numbered plan its schema must be at (see :mod:`silcrow.schema`).
    """

    def __init__(self, dsn: str, migrations: Migrations) -> None:
        self.dsn = dsn
        self.migrations = migrations
        self.where = redact(dsn)
        self._secrets = password_pieces(dsn)
        self._pool: Any = None
        self._lock = threading.Lock()

    def _usable(self) -> None:
        """Refuse a DSN whose connection errors could quote its password (ConfigError)."""
        if self.where == UNPARSEABLE_DSN:  # libpq's own message would quote the DSN, password and all
            raise ConfigError("the PostgreSQL DSN cannot be parsed: check its quoting and 'key=value' pairs "
                              "([storage] dsn in config.toml or SILCROW_DATABASE_URL)")
        why = misread(self.dsn)
        if why:
            raise ConfigError(why)

    def said(self, exc: BaseException) -> str:
        """The first line of a driver error, any part of this DSN's passwords in it masked."""
        text = _first_line(exc)
        for piece in self._secrets:
            text = text.replace(piece, "***")
        return text

    def connect(self) -> Any:
        """One plain autocommit connection (migrations, import/export), errors made clear."""
        psycopg = _psycopg()
        self._usable()
        try:
            return psycopg.connect(self.dsn, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise ConfigError(
                f"cannot connect to PostgreSQL at {self.where}: {self.said(exc)}; check the DSN "
                "([storage] dsn in config.toml or SILCROW_DATABASE_URL) and that the server is running"
            ) from exc

    def _get_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                self._usable()
                from psycopg.rows import dict_row
                from psycopg_pool import ConnectionPool

                check_schema(self)

                def configure(conn: Any) -> None:
                    from pgvector.psycopg import register_vector

                    register_vector(conn)

                self._pool = ConnectionPool(
                    self.dsn,
                    min_size=1,
                    max_size=POOL_SIZE,
                    kwargs={
                        "autocommit": True,
                        "row_factory": dict_row,
                        "connect_timeout": 10,
                        "options": f"-c search_path={SCHEMA},public",
                    },
                    configure=configure,
                    timeout=5.0,
                    open=True,
                    name=f"silcrow-{os.getpid()}",
                )
            return self._pool

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    @contextmanager
    def transaction(
        self, error: type[SilcrowError], what: str, *, lock_error: type[SilcrowError] | None = None,
        owner: str | None = None,
    ) -> Iterator[Any]:
        """A connection inside ``BEGIN`` ... ``COMMIT``; see the module docstring for the retries.

        With ``lock_error``, waiting for a row lock is bounded by :data:`LOCK_TIMEOUT` and
        raises that error. With ``owner``, the transaction belongs to that profile
        (:func:`~silcrow.db.owned_by`), named in the round trip that begins it.
        """
        psycopg = _psycopg()
        pool = self._get_pool()
        conn = self._begin(pool, error, what, lock_error is not None, owner)
        try:
            try:
                yield conn
            except BaseException:
                _rollback(conn)
                raise
            try:
                conn.execute("COMMIT")
            except psycopg.Error as exc:
                raise error(
                    f"the {what} at {self.where} failed while committing ({self.said(exc)}); the change "
                    "may or may not have been saved: check, then retry"
                ) from exc
        except psycopg.errors.LockNotAvailable as exc:
            raise (lock_error or error)(
                f"the {what} at {self.where} stayed locked by another writer for more than {LOCK_TIMEOUT}; "
                "nothing was changed: retry in a moment"
            ) from exc
        except psycopg.Error as exc:
            raise self._failed(error, what, exc) from exc
        finally:
            pool.putconn(conn)

    def _failed(self, error: type[SilcrowError], what: str, exc: Exception) -> SilcrowError:
        """A statement's driver error ``exc`` as ``error``: what failed, and what to do."""
        return error(
            f"the {what} at {self.where} failed ({self.said(exc)}); nothing was changed: "
            + ("retry in a moment" if is_transient(exc) else "check the server and the schema")
        )

    @contextmanager
    def reading(self, error: type[SilcrowError], what: str) -> Iterator[Any]:
        """A pooled connection outside any transaction, for a read that needs no snapshot of its
        own and runs under :meth:`retrying`: no ``BEGIN`` and no ``COMMIT``, two round trips
        less (each waits for the server to be scheduled on busy cores). Its statements name
        their profile themselves. Taking it is retried as a transaction's start is; a failure
        is raised as ``error``."""
        psycopg = _psycopg()
        pool = self._get_pool()
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            try:
                conn = pool.getconn()
                break
            except _pool_timeout() as exc:
                if time.monotonic() > deadline:
                    raise error(f"cannot reach the {what} at {self.where} ({self.said(exc)}); "
                                "check that the server is up") from exc
        try:
            yield conn
        except psycopg.Error as exc:
            raise self._failed(error, what, exc) from exc
        finally:
            pool.putconn(conn)

    def _begin(
        self, pool: Any, error: type[SilcrowError], what: str, lock_timeout: bool, owner: str | None = None
    ) -> Any:
        psycopg = _psycopg()
        deadline = time.monotonic() + RETRY_SECONDS
        delay = 0.05
        while True:
            conn = None
            try:
                conn = pool.getconn()
                with conn.pipeline():  # one round trip
                    conn.execute("BEGIN")
                    if lock_timeout:
                        conn.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
                    if owner is not None:
                        owned_by(conn, owner)
                return conn
            except Exception as exc:
                dropped = conn is not None and conn.broken
                if conn is not None:
                    _rollback(conn)
                    pool.putconn(conn)  # a broken one is discarded
                if not isinstance(exc, psycopg.Error | _pool_timeout()) or not is_transient(exc):
                    raise
                if dropped and time.monotonic() < deadline:
                    continue  # the server may be fine: try the next connection at once
                if time.monotonic() + delay > deadline:
                    raise error(
                        f"cannot reach the {what} at {self.where} ({self.said(exc)}) after "
                        f"{RETRY_SECONDS:g}s of retries; nothing was changed: check that the server is up"
                    ) from exc
                log.info("silcrow db: %s; retrying in %.2fs", self.said(exc), delay)
                time.sleep(delay)
                delay = min(delay * 2, 1.0)

    def retrying(self, operation: Callable[[], T]) -> T:
        """Run an operation that is safe to repeat, again after a transient failure, within
        :data:`RETRY_SECONDS`."""
        deadline = time.monotonic() + RETRY_SECONDS
        delay = 0.05
        while True:
            try:
                return operation()
            except SilcrowError as exc:
                cause = exc.__cause__
                if cause is None or not is_transient(cause) or time.monotonic() + delay > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)


def _pool_timeout() -> type[Exception]:
    from psycopg_pool import PoolTimeout

    return PoolTimeout


def _rollback(conn: Any) -> None:
    try:
        conn.execute("ROLLBACK")
    except Exception:  # a dead connection has nothing to roll back; the pool discards it
        log.debug("rollback on a broken connection", exc_info=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


_DATABASES: dict[tuple[int, str], Database] = {}
_DATABASES_LOCK = threading.Lock()


def database(dsn: str, migrations: Migrations) -> Database:
    """The shared :class:`Database` for ``dsn`` in this process (a forked child gets its own),
    whose schema must be at the end of ``migrations``."""
    key = (os.getpid(), dsn)
    with _DATABASES_LOCK:
        db = _DATABASES.get(key)
        if db is None:
            db = _DATABASES[key] = Database(dsn, migrations)
        return db
