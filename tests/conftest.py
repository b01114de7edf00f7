"""Shared fixtures: a real PostgreSQL server for the tests that need one (see pg_support)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pg_support


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[pg_support.PgServer]:
    server = pg_support.start(tmp_path_factory.mktemp("pg") / "data")
    try:
        yield server
    finally:
        server.handle.cleanup_mode = "delete"
        server.handle._cleanup()


@pytest.fixture
def pg_dsn(pg_server: pg_support.PgServer) -> Iterator[str]:
    """The DSN of a fresh, migrated database on the test server."""
    dsn = pg_server.new_database()
    try:
        yield dsn
    finally:
        pg_server.drop(dsn)
