"""The openviking provider against the REAL OpenViking server (PyPI ``openviking``, see
openviking_support), in dev mode, api-key mode and trusted mode: `silcrow providers check`
passes on a fresh server, and a curated note written through silcrow is recalled from it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import cpu_support
import httpx
import openviking_support
import pytest
from test_cli_recall import run

from silcrow.providers.openviking import OpenVikingProvider

pytestmark = pytest.mark.openviking

NOTE = "The user keeps bees on a rooftop in Lyon"


@pytest.fixture(scope="module", params=["dev", "api_key", "trusted"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
    openviking_support.OpenVikingServer
]:
    workspace = tmp_path_factory.mktemp(f"openviking-{request.param}")
    try:
        running = openviking_support.start(workspace, mode=request.param)
    except cpu_support.CpuUnsupported as exc:  # a prebuilt binary, not silcrow, needs more of the CPU
        pytest.skip(str(exc))
    try:
        yield running
    finally:
        running.stop()


def _env(server: openviking_support.OpenVikingServer, user: str) -> dict[str, str]:
    """The provider's settings for a user of its own on ``server`` (a fresh tenant per test)."""
    env = {"OPENVIKING_ENDPOINT": server.base_url, "OPENVIKING_USER": user}
    if server.mode == "api_key":
        env["OPENVIKING_API_KEY"] = server.user_key(f"acct-{user}", user)
        env["OPENVIKING_ACCOUNT"] = f"acct-{user}"
    elif server.mode == "trusted":
        env["OPENVIKING_API_KEY"] = openviking_support.ROOT_KEY  # the root key and the tenant headers
    return env


def test_the_server_is_the_pinned_real_one(server: openviking_support.OpenVikingServer) -> None:
    reply = httpx.get(server.base_url + "/health", timeout=10)
    assert reply.status_code == 200 and "x-silcrow-stand-in" not in reply.headers
    lib = openviking_support.OPENVIKING_BIN.parent / "lib"
    installed = lib.glob("python*/site-packages/openviking-*.dist-info")
    assert any(p.name == f"openviking-{openviking_support.OPENVIKING_VERSION}.dist-info" for p in installed)


def test_providers_check_passes_on_a_fresh_server(
    server: openviking_support.OpenVikingServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in _env(server, "checker").items():
        monkeypatch.setenv(key, value)
    code, out, err = run("--home", str(tmp_path), "providers", "check", "openviking", "--json")
    assert code == 0, err + server.log_tail()
    result = json.loads(out)
    assert result["ok"] is True and result["found"] is True, result


def test_a_curated_note_is_stored_as_a_memory_and_recalled(
    server: openviking_support.OpenVikingServer, tmp_path: Path
) -> None:
    provider = OpenVikingProvider(tmp_path, environ=_env(server, "noter"))
    provider.initialize("session one/with spaces", home=str(tmp_path))
    try:
        provider.on_memory_write("add", "user", NOTE)
        assert len(provider.outbox) == 0 and not provider.outbox.dead(), provider.outbox.dead()
        recalled = ""
        for _ in range(20):  # the server embeds the new file in the background
            recalled = provider.recall("Where does the user keep bees?")
            if NOTE in recalled:
                break
            time.sleep(0.5)
        assert NOTE in recalled, recalled
        assert ".overview.md" not in recalled and "Overview" not in recalled  # no directory summaries
        listing = json.loads(provider.handle_tool_call("viking_browse", {"action": "list", "path": "viking://~/"}))
        assert "error" not in listing, listing
        # a turn and the session commit go through too (the session id is percent-encoded)
        provider.sync_turn("I moved the hives to the roof garden", "Noted.")
        provider.on_session_end([])
        assert len(provider.outbox) == 0 and not provider.outbox.dead(), provider.outbox.dead()
    finally:
        provider.shutdown()


def test_viking_remember_then_forget_through_the_tools(
    server: openviking_support.OpenVikingServer, tmp_path: Path
) -> None:
    provider = OpenVikingProvider(tmp_path, environ=_env(server, "tooler"))
    provider.initialize("s1", home=str(tmp_path))
    try:
        stored = json.loads(provider.handle_tool_call("viking_remember", {"content": "The user's cat is Miso",
                                                                          "category": "entity"}))
        assert stored.get("status") == "stored", stored
        uri = stored["uri"]
        read = json.loads(provider.handle_tool_call("viking_read", {"uri": uri, "level": "full"}))
        assert "Miso" in read.get("content", ""), read
        forgotten = {}
        for _ in range(20):  # 409 "being processed" while the server indexes it
            forgotten = json.loads(provider.handle_tool_call("viking_forget", {"uri": uri}))
            if forgotten.get("status") == "deleted":
                break
            assert "busy" in forgotten.get("error", ""), forgotten
            time.sleep(0.5)
        assert forgotten.get("status") == "deleted", forgotten
    finally:
        provider.shutdown()
