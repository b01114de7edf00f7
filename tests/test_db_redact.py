"""A DSN's password never reaches a message: parsed as libpq parses it, not matched by a pattern."""

from __future__ import annotations

import re
import socket

import pytest

from silcrow.db import Database, redact
from silcrow.db._database import UNPARSEABLE_DSN
from silcrow.errors import ConfigError


@pytest.mark.parametrize("dsn,secret", [
    ("host=db user=sam password='Super Secret Pw' dbname=silcrow", "Secret"),
    ("host=db password = 'it\\'s a quote' dbname=silcrow", "quote"),
    ("postgresql://sam:Tr0ub%40dor%20x@db:5432/silcrow", "Tr0ub"),
    ("postgresql://sam@db/silcrow?password=hunter2&sslmode=require", "hunter2"),
    ("host=db sslpassword=keypass password=pw1 dbname=silcrow", "keypass"),
])
def test_passwords_are_masked_however_they_are_written(dsn: str, secret: str) -> None:
    shown = redact(dsn)
    assert secret not in shown and "***" in shown
    assert "db" in shown and "pw1" not in shown  # still says where


@pytest.mark.parametrize("dsn", [
    "postgresql://admin:Sup3r@Secret@host/db",  # an unencoded @ in the password
    "postgresql://admin:Pa55@W0rd@X9z@host:5432/db?sslmode=require",
    "postgres://admin:Qx7@Zz:Wq9@Rd8@host/db",
])
def test_a_password_holding_an_unencoded_at_sign_is_masked_whole(dsn: str) -> None:
    shown = redact(dsn)
    password = dsn.split("://", 1)[1].split(":", 1)[1].rsplit("@", 1)[0]
    pieces = [p for p in re.split(r"[@:]", password) if p]
    assert not any(piece in shown for piece in pieces), shown
    assert "admin" in shown and "host" in shown and "***" in shown


def test_a_dsn_without_password_is_shown_as_written_and_a_broken_one_not_at_all() -> None:
    assert redact("postgresql://sam@db/silcrow") == "postgresql://sam@db/silcrow"
    assert redact("host=db password='Super Secret Pw") == UNPARSEABLE_DSN  # unclosed quote


def test_connection_errors_do_not_quote_the_password() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once closed
    for dsn in (f"host=127.0.0.1 port={port} user=sam password='Super Secret Pw' dbname=x connect_timeout=5",
                "host=127.0.0.1 password=Super Secret Pw dbname=x"):  # unquoted spaces: libpq refuses it
        with pytest.raises(ConfigError) as caught:
            Database(dsn, []).connect()
        assert "Secret" not in str(caught.value) and "Super" not in str(caught.value)
