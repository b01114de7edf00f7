"""Shared fixtures: a real PostgreSQL server for the tests that need one (see pg_support)."""

from __future__ import annotations

from collections.abc import Iterator

import pg_support
import pytest


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg_support.PgServer]:
    server = pg_support.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_dsn(pg_server: pg_support.PgServer) -> Iterator[str]:
    """The DSN of a fresh, migrated database on the test server."""
    dsn = pg_server.new_database()
    try:
        yield dsn
    finally:
        pg_server.drop(dsn)
