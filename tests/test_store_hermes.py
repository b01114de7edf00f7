"""Hermes parity and file safety: line endings, repeated entries, exact matches, a Hermes home,
memory files outside the home, the lock file."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from silcrow.errors import StoreError
from silcrow.store import MemoryStore


def _memories(home: Path) -> Path:
    directory = home / "memories"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _write_like_hermes(path: Path, entries: list[str], newline: str | None = None) -> None:
    """What Hermes's memory tool does: join with the delimiter, text-mode write through mkstemp,
    fsync, os.replace, next to a sidecar lock file it opens with "a+" (so with the umask's mode).
    ``newline="\\r\\n"`` is what text mode writes on Windows."""
    with open(path.with_name(path.name + ".lock"), "a+", encoding="utf-8"):
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".mem_", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            handle.write("\n§\n".join(entries))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)


# ------------------------------------------------------------------ line endings


def test_crlf_reads_as_hermes_reads_it_and_stays_crlf(tmp_path: Path) -> None:
    path = _memories(tmp_path) / "MEMORY.md"
    path.write_bytes("a\r\n§\r\nb\r\n".encode())
    store = MemoryStore(tmp_path)
    assert store.entries("memory") == ["a", "b"]
    assert store.doctor()[0]["ok"] is True
    assert store.add("memory", "c\nd")["success"]
    assert path.read_bytes() == "a\r\n§\r\nb\r\n§\r\nc\r\nd".encode()
    assert store.replace("memory", "b", "b2")["success"]
    assert path.read_bytes() == "a\r\n§\r\nb2\r\n§\r\nc\r\nd".encode()
    assert store.entries("memory") == ["a", "b2", "c\nd"]
    store.load()
    assert "a\n§\nb2\n§\nc\nd" in store.system_prompt_section()


def test_mixed_and_lone_cr_endings(tmp_path: Path) -> None:
    path = _memories(tmp_path) / "MEMORY.md"
    mixed = "unix one\nline 2\n§\nwindows one\r\nline 2\r\n§\r\nold mac\rline 2\r§\rlast"
    path.write_bytes(mixed.encode())
    store = MemoryStore(tmp_path)
    assert store.entries("memory") == [
        "unix one\nline 2", "windows one\nline 2", "old mac\nline 2", "last"
    ]
    assert store.remove("memory", "last")["success"]
    # Every kept entry keeps its own bytes; the delimiters take the dominant ending (CR here).
    written = path.read_bytes().decode()
    for kept in ("unix one\nline 2", "windows one\r\nline 2", "old mac\rline 2"):
        assert kept in written
    assert store.entries("memory") == ["unix one\nline 2", "windows one\nline 2", "old mac\nline 2"]


# ------------------------------------------------------------------ repeated entries


def test_repeated_entries_are_shown_and_counted_once(tmp_path: Path) -> None:
    (_memories(tmp_path) / "MEMORY.md").write_text("same\n§\nother\n§\nsame", encoding="utf-8")
    store = MemoryStore(tmp_path, memory_char_limit=100)
    store.load()
    section = store.system_prompt_section()
    assert section.count("same") == 1
    assert "[12% — 12/100 chars]" in section  # len("same\n§\nother")


# ------------------------------------------------------------------ exact matches


@pytest.mark.parametrize("old_text", ["Uses zsh", "  Uses zsh\n"])
def test_an_exact_entry_wins_over_entries_containing_it(tmp_path: Path, old_text: str) -> None:
    store = MemoryStore(tmp_path)
    for entry in ("Uses zsh on macOS", "Uses zsh", "Uses zsh at work"):
        assert store.add("memory", entry)["success"]
    assert store.replace("memory", old_text, "Uses fish")["success"]
    assert store.entries("memory") == ["Uses zsh on macOS", "Uses fish", "Uses zsh at work"]
    assert store.add("memory", "Uses zsh")["success"]
    assert store.remove("memory", old_text)["success"]
    assert store.entries("memory") == ["Uses zsh on macOS", "Uses fish", "Uses zsh at work"]
    # A substring that is no whole entry is still ambiguous.
    assert store.remove("memory", "zsh")["success"] is False


def test_an_exact_entry_wins_in_a_batch(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for entry in ("Likes tea", "Likes tea with milk"):
        assert store.add("memory", entry)["success"]
    result = store.apply_batch("memory", [
        {"action": "replace", "old_text": "Likes tea", "content": "Likes coffee"},
        {"action": "remove", "old_text": "Likes tea with milk"},
    ])
    assert result["success"], result
    assert store.entries("memory") == ["Likes coffee"]


# ------------------------------------------------------------------ outside the home


def test_a_memory_file_linked_outside_the_home_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "elsewhere" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash", encoding="utf-8")
    home = tmp_path / "home"
    (_memories(home) / "MEMORY.md").symlink_to(secret)
    store = MemoryStore(home)
    for call in (lambda: store.entries("memory"), store.load, lambda: store.add("memory", "x")):
        with pytest.raises(StoreError, match="outside the silcrow home") as caught:
            call()
        assert "SILCROW_MEMORY_OUTSIDE_HOME=1" in str(caught.value)
    assert secret.read_text(encoding="utf-8") == "root:x:0:0:root:/root:/bin/bash"
    assert not (home / "memories" / "MEMORY.md.lock").exists()

    monkeypatch.setenv("SILCROW_MEMORY_OUTSIDE_HOME", "1")
    assert MemoryStore(home).entries("memory") == ["root:x:0:0:root:/root:/bin/bash"]


def test_a_file_or_directory_linked_outside_later_is_refused_by_the_same_store(tmp_path: Path) -> None:
    # A write keeps how the file resolved: the next one must still see a link put in its place.
    secret = tmp_path / "elsewhere" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash", encoding="utf-8")
    home = tmp_path / "home"
    memories = _memories(home)
    store = MemoryStore(home)
    assert store.add("memory", "first")["success"]
    (memories / "MEMORY.md").unlink()
    (memories / "MEMORY.md").symlink_to(secret)
    with pytest.raises(StoreError, match="outside the silcrow home"):
        store.add("memory", "second")
    assert secret.read_text(encoding="utf-8") == "root:x:0:0:root:/root:/bin/bash"
    # The memories directory itself swapped for a link to a directory outside the home.
    (memories / "MEMORY.md").unlink()
    assert store.add("memory", "third")["success"]
    memories.rename(home / "old-memories")
    memories.symlink_to(secret.parent)
    with pytest.raises(StoreError, match="outside the silcrow home"):
        store.add("memory", "fourth")
    assert sorted(p.name for p in secret.parent.iterdir()) == ["passwd"]


def test_a_link_that_stays_inside_the_home_is_fine(tmp_path: Path) -> None:
    kept = tmp_path / "notes" / "memory.md"
    kept.parent.mkdir()
    kept.write_text("kept in notes", encoding="utf-8")
    (_memories(tmp_path) / "MEMORY.md").symlink_to(kept)
    store = MemoryStore(tmp_path)
    assert store.add("memory", "more")["success"]
    assert kept.read_text(encoding="utf-8") == "kept in notes\n§\nmore"


def test_the_cli_refuses_a_file_outside_the_home_in_one_line(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("not a memory", encoding="utf-8")
    home = tmp_path / "home"
    (_memories(home) / "USER.md").symlink_to(outside)
    done = subprocess.run(
        [sys.executable, "-c", "from silcrow.cli.main import main; main()", "memory", "show"],
        env={**os.environ, "SILCROW_HOME": str(home)}, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and "outside the silcrow home" in done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ the lock file


def test_a_symlinked_lock_file_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    memories = _memories(tmp_path / "home")
    (memories / "MEMORY.md.lock").symlink_to(victim)
    store = MemoryStore(tmp_path / "home")
    with pytest.raises(StoreError, match="symbolic link"):
        store.add("memory", "x")
    assert not victim.exists()
    assert store.entries("memory") == []


def test_the_lock_file_is_private(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    assert store.add("memory", "x")["success"]
    lock = tmp_path / "memories" / "MEMORY.md.lock"
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    user_lock = tmp_path / "memories" / "USER.md.lock"
    user_lock.touch()
    user_lock.chmod(0o666)
    assert store.add("user", "y")["success"]
    assert stat.S_IMODE(user_lock.stat().st_mode) == 0o600


# ------------------------------------------------------------------ a Hermes home


@pytest.mark.parametrize("newline", [None, "\r\n"], ids=["linux", "windows"])
def test_silcrow_memory_show_reads_a_hermes_home(tmp_path: Path, newline: str | None) -> None:
    hermes = tmp_path / ".hermes"
    memories = _memories(hermes)
    (hermes / "config.yaml").write_text("model:\n  default: some-model\n", encoding="utf-8")
    (hermes / "sessions").mkdir()
    notes = [
        "User's project is a Rust web service at ~/code/api (Axum + SQLx)",
        "Prefers concise answers\nUses fish shell on macOS",
        "Costs are quoted in € and §-numbered clauses refer to the 2024 contract",
    ]
    _write_like_hermes(memories / "MEMORY.md", notes, newline)
    _write_like_hermes(memories / "USER.md", ["Name: Sam", "Timezone: Europe/Berlin"], newline)
    done = subprocess.run(
        [sys.executable, "-c", "from silcrow.cli.main import main; main()", "memory", "show", "--json"],
        env={**os.environ, "SILCROW_HOME": str(hermes)}, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["memory"]["entries"] == notes
    assert shown["user"]["entries"] == ["Name: Sam", "Timezone: Europe/Berlin"]
    assert shown["memory"]["path"] == str(memories / "MEMORY.md")
    # A write keeps the file Hermes-shaped (and in its line endings) for Hermes to read back.
    store = MemoryStore(hermes)
    assert store.add("memory", "Deploys on Fridays are frozen")["success"]
    raw = (memories / "MEMORY.md").read_bytes().decode()
    delimiter = "\r\n§\r\n" if newline else "\n§\n"
    joined = delimiter.join(n.replace("\n", newline or "\n") for n in notes)
    assert raw == joined + delimiter + "Deploys on Fridays are frozen"


def test_doctor_says_repeated_entries_are_read_once(tmp_path: Path) -> None:
    (_memories(tmp_path) / "MEMORY.md").write_text("same\n§\nother\n§\nsame", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "from silcrow.cli.main import main; main()", "memory", "doctor"],
        env={**os.environ, "SILCROW_HOME": str(tmp_path)}, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "note: 1 repeated entry: each is read once" in done.stdout
