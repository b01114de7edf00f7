"""A label a caller chooses (its claimed session, its client name, a token name) can never pass
for other output: the server refuses a session header that is not visible ASCII (400, naming
the header), and every CLI and inspector surface shows such labels quoted and escaped."""

from __future__ import annotations

import html
import json
import os
import socket
import subprocess
from pathlib import Path

import httpx
import pytest
from serve_support import CONFIG, make_home

from silcrow._paths import resolve_home
from silcrow.serve import ServerProcess, create_token, silcrow_command
from silcrow.store import MemoryStore, Proposer, current_proposer

# Each would act on a terminal or a page instead of printing: C1 NEL and CSI, a right-to-left
# override, an escape sequence, a line separator, and line breaks that forge lines of a diff.
SESSION = "s-1\x85- Deploys on Fridays\x9b2K\u202etxt.exe\n+ Deploys on Mondays"
CLIENT = "rest\x1b[2J\r+ forged"
TOKEN = "agent\u2028+ forged"
RAW = ("\x85", "\x9b", "\u202e", "\x1b", "\u2028", "\r")
FORGED = ("+ Deploys on Mondays", "+ forged", "- Deploys on Fridays")


def cli(*args: str) -> str:
    done = subprocess.run([*silcrow_command(), *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, check=False, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "400"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_escaped(shown: str, where: str) -> None:
    assert not any(c in shown for c in RAW), (where, shown)
    starts = [line.strip() for line in shown.splitlines()]
    assert not any(line.startswith(FORGED) for line in starts), (where, shown)  # no forged line of its own
    assert "<U+0085>" in shown and "<U+202E>" in shown and "<U+2028>" in shown, (where, shown)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A profile whose proposal, journal and archive were written by a caller with hostile labels
    (as a server wrote them before it refused such headers, or a library caller may)."""
    root = make_home(tmp_path / "home", profiles=("a",))
    profile = resolve_home(root, "a")
    (profile / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    store = MemoryStore(profile)
    label = current_proposer.set(Proposer(claimed_session=SESSION, client=CLIENT, token=TOKEN,
                                          token_id="1a2b3c4d"))
    try:
        assert store.add("memory", "Uses vim for quick edits", origin="rest")["pending"]  # waits
        approved = store.add("memory", "Prefers short answers", origin="rest")
        assert store.approve(str(approved["proposal_id"]))["success"]
        assert store.add("user", "Lives in Lisbon", origin="api")["success"]
        assert store.remove("user", "Lisbon", origin="api")["success"]  # archived, by the same caller
    finally:
        current_proposer.reset(label)
    return root


def test_the_cli_shows_callers_labels_quoted_and_escaped(home: Path) -> None:
    where = ("--home", str(home), "--profile", "a", "memory")
    for command in (("pending",), ("history",), ("show", "--details"), ("archive",)):
        assert_escaped(cli(*where, *command), " ".join(command))
    pending = cli(*where, "pending")
    assert json.dumps(SESSION.replace("\x85", "<U+0085>").replace("\x9b", "<U+009B>")
                      .replace("\u202e", "<U+202E>"), ensure_ascii=False) in pending, pending
    listed = cli(*where, "pending", "--json")
    assert not any(c in listed for c in RAW), listed
    assert json.dumps(SESSION) in json.dumps(json.loads(listed))  # the data itself, escaped as JSON


def test_the_inspector_shows_callers_labels_quoted_and_escaped(home: Path) -> None:
    person = create_token(home, profile="a", scope="review", name="me")[0]
    with ServerProcess(home, "--profile", "a") as server:
        auth = {"Authorization": f"Bearer {person}"}
        for page in ("/ui/pending", "/ui/notes", "/ui/archive"):
            shown = httpx.get(f"{server.url}{page}", headers=auth, timeout=60)
            assert shown.status_code == 200, shown.text
            assert_escaped(html.unescape(shown.text), page)


RAW_REQUEST = ("POST /v1/memory/user HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
               "Content-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n")


@pytest.mark.parametrize("header", ["X-Silcrow-Session", "Mcp-Session-Id"])
def test_a_session_header_that_is_not_visible_ascii_is_refused(tmp_path: Path, header: str) -> None:
    root = make_home(tmp_path / "home", profiles=("a",))
    profile = resolve_home(root, "a")
    (profile / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    token = create_token(root, profile="a", scope="write", name="agent")[0]
    body = b'{"content": "Prefers tea"}'
    values = [b"s-1\x85x", b"s-1\xc2\x85x", b"\x9b2K", "s\u202eexe".encode(), b"s\x1b[2J", b"s\tx", b"s 1",
              b"s\x7f"]
    ours = 0
    with ServerProcess(root, "--profile", "a") as server:
        for value in values:
            head = RAW_REQUEST.format(port=server.port, token=token, length=len(body)).encode()
            with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
                sock.sendall(head + header.encode() + b": " + value + b"\r\n\r\n" + body)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            status, text = int(answer.split(b" ", 2)[1]), answer.split(b"\r\n\r\n", 1)[1].decode()
            assert status == 400, (value, answer)
            if text != "Invalid HTTP request received.":  # what the HTTP parser refuses itself
                error = json.loads(text)["error"]
                assert header in error and "visible ASCII" in error, (value, answer)
                ours += 1
        assert ours >= 4  # C1, UTF-8, bidi and tab reach silcrow's own check
        assert MemoryStore(profile).pending() == []  # nothing was proposed
        fine = httpx.post(f"{server.url}/v1/memory/user", json={"content": "Prefers tea"},
                          headers={"Authorization": f"Bearer {token}", header: "s-42"})
        assert fine.status_code == 200 and fine.json()["pending"], fine.text
