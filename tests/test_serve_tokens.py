"""Tokens: stored hashed in a 0600 file, one profile each, and the CLI that manages them."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from silcrow.errors import ConfigError
from silcrow.serve import create_token, is_loopback, list_tokens, revoke_token, silcrow_command, tokens_path
from silcrow.serve._tokens import TokenBook


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*silcrow_command(), *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=60, check=False)


def test_tokens_are_stored_hashed_in_a_private_file(tmp_path: Path) -> None:
    secret, record = create_token(tmp_path, profile="work", scope="read", name="laptop")
    path = tokens_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text(encoding="utf-8")
    assert secret not in text and record.sha256 in text
    assert (record.profile, record.scope, record.name) == ("work", "read", "laptop")
    book = TokenBook(tmp_path)
    assert book.verify(secret) == record
    assert book.verify(secret + "x") is None and book.verify("") is None
    assert "sha256" not in list_tokens(tmp_path)[0].public()


def test_revoke_by_id_or_name_and_a_running_book_notices(tmp_path: Path) -> None:
    first, one = create_token(tmp_path, profile=None)
    second, two = create_token(tmp_path, profile="b", name="two")
    book = TokenBook(tmp_path)
    assert book.verify(first) and book.verify(second)
    revoke_token(tmp_path, one.id)
    revoke_token(tmp_path, "two")
    assert book.verify(first) is None and book.verify(second) is None and not book.any()
    with pytest.raises(ConfigError, match="tokens list"):
        revoke_token(tmp_path, "two")


@pytest.mark.parametrize("kwargs,message", [
    ({"profile": "../escape"}, "invalid profile name"),
    ({"profile": "a", "scope": "admin"}, "use 'read', 'write' or 'review'"),
])
def test_bad_token_requests_are_refused(tmp_path: Path, kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        create_token(tmp_path, **kwargs)  # type: ignore[arg-type]
    assert not tokens_path(tmp_path).exists()


def test_duplicate_name_and_corrupt_file_are_explained(tmp_path: Path) -> None:
    create_token(tmp_path, profile="a", name="same")
    with pytest.raises(ConfigError, match="exists already"):
        create_token(tmp_path, profile="a", name="same")
    tokens_path(tmp_path).write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="silcrow tokens create"):
        TokenBook(tmp_path).any()


def test_tokens_cli_create_list_revoke(tmp_path: Path) -> None:
    home = str(tmp_path)
    made = run("tokens", "create", "--home", home, "--profile", "work", "--scope", "read", "--name", "ci")
    assert made.returncode == 0, made.stderr
    secret = made.stdout.strip()
    assert secret.startswith("slc_") and "\n" not in secret  # stdout is the token alone, for scripts
    assert "shown only now" in made.stderr
    listed = json.loads(run("tokens", "list", "--home", home, "--json").stdout)
    assert [(t["name"], t["profile"], t["scope"]) for t in listed] == [("ci", "work", "read")]
    assert secret not in json.dumps(listed)
    assert run("tokens", "revoke", "--home", home, "ci").returncode == 0
    again = run("tokens", "revoke", "--home", home, "ci")
    assert again.returncode == 1 and "no token" in again.stderr and "Traceback" not in again.stderr
    bad = run("tokens", "create", "--home", home, "--scope", "admin")
    assert bad.returncode == 2


def test_serve_refuses_a_public_address_without_tokens(tmp_path: Path) -> None:
    refused = run("serve", "--home", str(tmp_path), "--host", "0.0.0.0", "--port", "1")
    assert refused.returncode == 1
    assert "refusing to serve on 0.0.0.0 with no token" in refused.stderr
    assert "silcrow tokens create" in refused.stderr and "Traceback" not in refused.stderr


def test_loopback_addresses() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.9.9.9", "localhost", "::1", "[::1]"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.5", "::", "example.com"))


def test_token_names_cannot_drive_the_terminal(tmp_path: Path) -> None:
    for name in ("evil\x1b]0;owned\x07", "a\nb", "right\u202eleft", "  "):
        with pytest.raises(ConfigError, match="control characters"):
            create_token(tmp_path, profile="a", name=name)
    refused = run("tokens", "create", "--home", str(tmp_path), "--name", "x\x1b[2J")
    assert refused.returncode == 1 and "\x1b" not in refused.stderr and "Traceback" not in refused.stderr
    # a name written into tokens.json by hand (or by an older silcrow) is shown inert
    create_token(tmp_path, profile="a", name="laptop")
    path = tokens_path(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"laptop"', '"lap\\u001b[31mtop\\u0007"'),
                    encoding="utf-8")
    listed = run("tokens", "list", "--home", str(tmp_path))
    assert listed.returncode == 0 and "lap" in listed.stdout
    assert "\x1b" not in listed.stdout and "\x07" not in listed.stdout
    assert "\x1b" not in run("tokens", "revoke", "--home", str(tmp_path), "lap\x1b[31mtop\x07").stdout


def test_a_file_replaced_with_the_same_size_and_mtime_is_reloaded(tmp_path: Path) -> None:
    secret, record = create_token(tmp_path, profile="a", name="one")
    path = tokens_path(tmp_path)
    book = TokenBook(tmp_path)
    assert book.verify(secret) == record
    before = path.stat()
    # Another process replaces the file atomically within the clock's granularity: the same
    # size and mtime, a different file (the token's hash changed by one character).
    flipped = "0" if record.sha256[0] != "0" else "1"
    text = path.read_text(encoding="utf-8").replace(record.sha256, flipped + record.sha256[1:])
    replacement = tmp_path / "tokens.new"
    replacement.write_text(text, encoding="utf-8")
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, path)
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert book.verify(secret) is None
