"""The reusable provider contract, run against a small in-test provider."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from silcrow.recall import Answer, MemoryProvider, ToolResult, ToolSpec
from silcrow.recall.contract import check_provider_contract


class KeywordProvider(MemoryProvider):
    """A tiny real provider: stores turns in a list, recalls by shared words."""

    name = "keyword"

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.lock = threading.Lock()
        self.closed = 0

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **context: Any) -> None:
        self.session_id = session_id

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        with self.lock:
            self.rows.append(f"{user} / {assistant}")

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        with self.lock:
            self.rows.append(content)

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        words = {w.strip("?.,").lower() for w in query.split() if len(w) > 3}
        with self.lock:
            hits = [r for r in self.rows if words & {w.strip("?.,").lower() for w in r.split()}]
        return "\n".join(hits)

    def tool_specs(self) -> list[ToolSpec]:
        return [ToolSpec.of("keyword_search", "Search stored turns by keyword.",
                            {"query": {"type": "string"}, "k": {"type": "integer"}}, ["query"])]

    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        if name != "keyword_search":
            return ToolResult.failed(f"unknown tool {name!r}")
        return ToolResult.done(results=self.prefetch(str(args.get("query", ""))).split("\n"))

    def shutdown(self) -> None:
        self.closed += 1


def test_contract_passes_for_keyword_provider(tmp_path: Path) -> None:
    provider = KeywordProvider()
    check_provider_contract(provider, tmp_path)
    assert any("Ana" in row for row in provider.rows)  # the manager really synced
    assert provider.closed >= 2


class NonJsonTools(KeywordProvider):
    def call_tool(self, name: str, args: Mapping[str, Any]) -> Any:
        return "not json"


class NotJsonValues(KeywordProvider):
    def call_tool(self, name: str, args: Mapping[str, Any]) -> Answer:
        return ToolResult.done(results={1, 2})


class BadSchema(KeywordProvider):
    def tool_specs(self) -> list[ToolSpec]:
        # A spec whose arguments are not an object schema.
        return [ToolSpec("flat_search", "Search.", schema_extra={"type": "array"})]


class SchemaDicts(KeywordProvider):
    def tool_specs(self) -> Any:
        return [{"name": "keyword_search", "description": "Search.", "parameters": {"type": "object"}}]


class SilentlyUnavailable(KeywordProvider):
    def is_available(self) -> bool:
        return False


class NetworkProbe(KeywordProvider):
    def is_available(self) -> bool:
        import socket

        socket.create_connection(("127.0.0.1", 9))
        return True


@pytest.mark.parametrize(
    ("provider", "message"),
    [
        (NonJsonTools(), "must return a ToolResult"),
        (NotJsonValues(), "what JSON cannot hold"),
        (BadSchema(), "parameters not an object"),
        (SchemaDicts(), "must return ToolSpec values"),
        (SilentlyUnavailable(), "must say why"),
        (NetworkProbe(), "network"),
    ],
)
def test_contract_catches_broken_providers(provider: MemoryProvider, message: str, tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match=message):
        check_provider_contract(provider, tmp_path)


@pytest.mark.parametrize("embedder", ["none", "onnx"])
def test_contract_passes_for_the_builtin_local_provider(embedder: str, tmp_path: Path) -> None:
    from silcrow.recall import load_provider

    provider = load_provider("local", home=tmp_path, embedder=embedder)
    check_provider_contract(provider, tmp_path)
    assert (tmp_path / "recall.db").exists()


def test_the_contract_is_installed_and_needs_no_test_framework(tmp_path: Path) -> None:
    # A plugin's suite imports it from the package; its checks also run under python -O.
    script = (
        "import sys, tempfile\n"
        "from pathlib import Path\n"
        "from silcrow.recall.contract import check_provider_contract\n"
        "from silcrow.recall import MemoryProvider\n"
        "class Lazy(MemoryProvider):\n"
        "    name = 'lazy'\n"
        "    def is_available(self): return False\n"
        "    def initialize(self, session_id, **context): pass\n"
        "try:\n"
        "    check_provider_contract(Lazy(), Path(tempfile.mkdtemp()))\n"
        "except AssertionError as exc:\n"
        "    print('caught:', exc)\n"
        "print('pytest loaded:', 'pytest' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "caught: an unavailable provider must say why" in proc.stdout
    assert "pytest loaded: False" in proc.stdout
