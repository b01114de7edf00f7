"""The backend interface is all MemoryStore needs: a non-file backend behaves the same.

This is the seam a PostgreSQL backend will use (DESIGN.md, "Growing past one
machine"); an in-process backend proves no file detail leaks into the store.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from silcrow.store import MemoryStore, StoreBackend, Transaction


class _DictTransaction(Transaction):
    def __init__(self, backend: DictBackend, name: str) -> None:
        self.backend, self.name = backend, name

    def read(self) -> str:
        return self.backend.texts.get(self.name, "")

    def write(self, text: str) -> None:
        self.backend.texts[self.name] = text

    def journal(self, record: dict[str, Any]) -> None:
        self.backend.records.append(record)

    def last_record(self, target: str) -> dict[str, Any] | None:
        return next((r for r in reversed(self.backend.records) if r["target"] == target), None)

    def records(self, target: str) -> list[dict[str, Any]]:
        return [r for r in self.backend.records if r["target"] == target]

    def backup(self, text: str) -> str:
        self.backend.backups.append(text)
        return f"backups[{len(self.backend.backups) - 1}]"


class DictBackend(StoreBackend):
    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.records: list[dict[str, Any]] = []
        self.backups: list[str] = []
        self.lock = threading.Lock()

    def location(self, target_file: str) -> str:
        return f"dict://{target_file}"

    def read(self, target_file: str, *, strict: bool = False) -> str:
        return self.texts.get(target_file, "")

    @contextmanager
    def transaction(self, target_file: str) -> Iterator[Transaction]:
        with self.lock:
            yield _DictTransaction(self, target_file)

    def journal_records(self) -> Iterator[dict[str, Any]]:
        return iter(list(self.records))

    def leftovers(self, target_file: str) -> list[str]:
        return []


def test_the_store_runs_on_any_backend() -> None:
    backend = DictBackend()
    store = MemoryStore(backend=backend, memory_char_limit=100)
    assert store.add("memory", "fact one")["success"]
    assert store.add("memory", "fact two")["success"]
    assert store.replace("memory", "two", "fact 2")["success"]
    assert backend.texts["MEMORY.md"] == "fact one\n§\nfact 2"
    assert store.remove("memory", "fact")["success"] is False  # ambiguous, same message as on files
    assert store.undo("memory")["success"]
    assert store.entries("memory") == ["fact one", "fact two"]
    assert [r["action"] for r in store.history()] == ["add", "add", "replace", "undo"]
    store.load()
    assert "MEMORY (your personal notes) [" in store.system_prompt_section()


def test_drift_backups_go_through_the_backend() -> None:
    backend = DictBackend()
    backend.texts["USER.md"] = "Name: Sam\n§ \nTZ: UTC"
    store = MemoryStore(backend=backend)
    result = store.remove("user", "Sam")
    assert result["success"] is False and result["backup"] == "backups[0]"
    assert backend.backups == ["Name: Sam\n§ \nTZ: UTC"]
    assert "dict://USER.md" in result["error"]
