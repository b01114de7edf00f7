"""A DSN's password never reaches a message: parsed as libpq parses it, not matched by a pattern."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import httpx
import psycopg
import pytest
from pg_support import PgServer
from serve_support import CONFIG, make_home

from silcrow._paths import resolve_home
from silcrow.db import Database, redact
from silcrow.db._database import UNPARSEABLE_DSN, misread
from silcrow.errors import ConfigError
from silcrow.serve import ServerProcess, create_token


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


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # nothing listens here once closed


LOOSE_AT = ["postgresql://admin:Sup3r@Secret@127.0.0.1:{port}/db",
            "postgresql://admin:Pa55@W0rd@X9z@127.0.0.1:{port}/db?sslmode=disable",
            "postgres://corp@admin:Qx7Zz9@127.0.0.1:{port}/db"]  # an @ in the user name too


def _pieces(dsn: str) -> list[str]:
    userinfo = dsn.split("://", 1)[1].rsplit("@", 1)[0]
    return [p for p in re.split(r"[@:]", userinfo.split(":", 1)[1]) if len(p) >= 3]


@pytest.mark.parametrize("dsn", LOOSE_AT)
def test_a_dsn_libpq_would_split_at_an_unencoded_at_sign_is_refused(dsn: str) -> None:
    """libpq ends the user info at the first '@' and takes the rest of the password for the host,
    which its 'failed to resolve host' message then quoted."""
    dsn = dsn.format(port=_closed_port())
    with pytest.raises(ConfigError) as caught:
        Database(dsn, []).connect()
    said = str(caught.value)
    assert "'@'" in said and "%40" in said, said
    assert not any(piece in said for piece in _pieces(dsn)), said


@pytest.mark.parametrize("dsn", LOOSE_AT[:2])
def test_the_drivers_own_message_is_masked_too(dsn: str) -> None:
    """What libpq itself says of such a DSN (a real connection attempt, not through silcrow)
    quotes part of the password; silcrow masks every part of it before it shows the text."""
    dsn = dsn.format(port=_closed_port())
    with pytest.raises(psycopg.Error) as caught:
        psycopg.connect(dsn, connect_timeout=5)
    raw = str(caught.value)
    assert any(piece in raw for piece in _pieces(dsn)), raw  # the leak being guarded against
    said = Database(dsn, []).said(caught.value)
    assert not any(piece in said for piece in _pieces(dsn)) and "***" in said, said


def test_a_percent_encoded_at_sign_reaches_the_server(pg_server: PgServer) -> None:
    """The advice the refusal gives works: the same password with %40 connects (a real
    PostgreSQL, a role whose password holds an '@')."""
    with psycopg.connect(pg_server.uri, autocommit=True) as conn:
        conn.execute("CREATE ROLE at_user LOGIN PASSWORD 'Sup3r@Secret'")
    try:
        dsn = pg_server.uri.replace("postgres:@", "at_user:Sup3r%40Secret@", 1)
        assert misread(dsn) == ""
        with Database(dsn, []).connect() as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == "at_user"
    finally:
        with psycopg.connect(pg_server.uri, autocommit=True) as conn:
            conn.execute("DROP ROLE at_user")


def test_a_token_of_the_profile_is_told_what_to_fix_not_the_password(tmp_path: Path) -> None:
    root = make_home(tmp_path / "home", profiles=("a",))
    dsn = LOOSE_AT[0].format(port=_closed_port())
    (resolve_home(root, "a") / "config.toml").write_text(
        CONFIG + f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n', encoding="utf-8")
    token = create_token(root, profile="a", scope="read", name="r")[0]
    with ServerProcess(root) as server:
        for path in ("/v1/memory/user", "/v1/prompt", "/v1/memory/history"):
            answer = httpx.get(f"{server.url}{path}", headers={"Authorization": f"Bearer {token}"},
                               timeout=60)
            error = answer.json()["error"]
            assert answer.status_code >= 400 and "%40" in error, (path, answer.text)
            assert not any(piece in answer.text for piece in _pieces(dsn)), (path, answer.text)
        assert not any(piece in server.output() for piece in _pieces(dsn)), server.output()
