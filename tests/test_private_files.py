"""Everything silcrow writes under a home is private: files 0600, directories 0700, SQLite's
-wal/-shm included; looser ones left by older versions are tightened once, with a notice.

The commands run as real processes under the usual umask 022; a real other user (``nobody``,
through setpriv) then tries to read what they wrote."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli_recall import MESSAGES, write_jsonl

from silcrow._atomic import replace_file
from silcrow.models import get_embedder
from silcrow.providers._outbox import Outbox
from silcrow.providers.holographic._store import FactStore
from silcrow.recall.local import RecallStore
from silcrow.serve import silcrow_command
from silcrow.sessions import SessionStore


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    old = os.umask(0o022)  # what most systems give: without care, files come out 0644
    yield
    os.umask(old)


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A directory every user may enter, as a home's parent usually is."""
    base = Path(tempfile.mkdtemp(prefix="silcrow-private-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def silcrow(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*silcrow_command(), *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, check=False, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == code, done.stderr
    return done


def loose(root: Path) -> list[str]:
    """Every path under ``root`` (itself included) that anyone but its owner may use."""
    found = []
    for path in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode & 0o077 or (path.is_dir() and mode != want):
            found.append(f"{oct(mode)} {path}")
    return found


def fill(home: Path, tmp: Path) -> None:
    """A home used through the CLI: notes of two profiles, recall, tokens."""
    silcrow("--home", str(home), "memory", "add", "Deploys need a green CI run.")
    silcrow("--home", str(home), "memory", "add", "--target", "user", "Prefers tea.")
    silcrow("--home", str(home), "memory", "replace", "green CI", "Deploys need a green CI run first.")
    with open(home / "memories" / "MEMORY.md", "ab") as notes:  # a hand edit: doctor backs the file up
        notes.write(b"\n\xa7\nbroken \xff byte\n")
    silcrow("--home", str(home), "memory", "doctor", code=1)
    silcrow("--home", str(home), "--profile", "work", "memory", "add", "The VPN is WireGuard.")
    silcrow("--home", str(home), "recall", "ingest", str(write_jsonl(tmp / "chat.jsonl", MESSAGES)),
            "--embedder", "none")
    silcrow("--home", str(home), "tokens", "create", "--profile", "work", "--name", "laptop")


def test_what_the_commands_create_is_private(shared_tmp: Path, tmp_path: Path) -> None:
    home = shared_tmp / "home"
    fill(home, tmp_path)
    with SessionStore(home / "sessions.db") as store:
        store.append(store.create(), {"role": "user", "content": "my bank PIN hint is the cat's name"})
    hermes = shared_tmp / "hermes"
    hermes.mkdir()
    silcrow("hermes", "install", "--hermes-home", str(hermes))
    made = {p.name for p in home.rglob("*")}
    assert {"recall.db", "sessions.db", "tokens.json", "MEMORY.md", "USER.md", "profiles"} <= made
    assert any(".bak." in name for name in made), made
    assert loose(home) == []
    assert loose(hermes / "plugins" / "silcrow") == []
    # A real other user cannot read any of it.
    nobody = shutil.which("setpriv")
    if nobody is None or os.geteuid() != 0:
        pytest.skip("needs setpriv and root to act as another user")
    for path in (home / "recall.db", home / "sessions.db", home / "memories" / "MEMORY.md",
                 home / "tokens.json"):
        peek = subprocess.run(
            [nobody, "--reuid=nobody", "--regid=nogroup", "--clear-groups", "cat", str(path)],
            capture_output=True, timeout=30, check=False,
        )
        assert peek.returncode != 0 and b"Permission denied" in peek.stderr, path


def test_sqlite_journal_files_are_private_too(tmp_path: Path) -> None:
    home = tmp_path / "home"
    stores = [
        RecallStore(home / "recall.db", get_embedder("none")),
        SessionStore(home / "sessions.db"),
        FactStore(home / "holographic" / "facts.db", dim=64),
        Outbox(home / "outbox" / "mem0.db"),
    ]
    try:
        stores[1].append(stores[1].create(), {"role": "user", "content": "hello"})
        stores[2].add_fact("The cat is called Miso.")
        stores[3].put("add", {"text": "x"})
        stores[0].ingest([], (None, None))
        journals = [p for p in home.rglob("*") if p.name.endswith(("-wal", "-shm"))]
        assert len(journals) >= 6, journals  # each store's WAL and shared memory, open right now
        assert loose(home) == []
    finally:
        for store in stores:
            store.close()


def test_looser_files_of_an_older_home_are_tightened_once_with_a_notice(
    shared_tmp: Path, tmp_path: Path
) -> None:
    home = shared_tmp / "home"
    fill(home, tmp_path)
    opened = [home, home / "memories", home / "profiles", home / "recall.db", home / "tokens.json",
              home / "memories" / "MEMORY.md", home / "memories" / ".journal.jsonl"]
    for path in opened:
        path.chmod(0o755 if path.is_dir() else 0o644)
    first = silcrow("--home", str(home), "memory", "add", "A new note.")
    first_notes = [line for line in first.stderr.splitlines() if "made it private" in line]
    assert any("MEMORY.md" in line for line in first_notes), first.stderr
    silcrow("--home", str(home), "recall", "search", "kitten", "--embedder", "none")
    silcrow("--home", str(home), "tokens", "list")
    silcrow("--home", str(home), "--profile", "work", "memory", "add", "Another.")
    assert loose(home) == []
    again = silcrow("--home", str(home), "memory", "add", "And one more.")
    assert "made it private" not in again.stderr  # once: nothing left to tighten


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o277])
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o700])
def test_an_atomic_replace_leaves_the_mode_asked_for_whatever_the_umask(
    tmp_path: Path, umask: int, mode: int
) -> None:
    # The temporary file is created 0600 and chmodded only when that is not the mode asked for:
    # a umask that strips the owner's bits must still get a chmod.
    target = tmp_path / "notes.md"
    old = os.umask(umask)
    try:
        replace_file(target, "text", mode=mode)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(target).st_mode) == mode
    assert target.read_text(encoding="utf-8") == "text"
