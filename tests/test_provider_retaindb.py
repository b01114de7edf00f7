"""The retaindb adapter against the stand-in rebuilt from RetainDB's server routes (memory.ts,
routes.ts): zod datetime timestamps, the add/search answer shapes, the dialectic route, and the
302 to a presigned URL for file content."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from hosted_support import KEY
from test_cli_recall import run
from testing_services import RetainDBStandIn

from silcrow.errors import ServiceError
from silcrow.providers.retaindb import RetainDBProvider
from silcrow.providers.retaindb._provider import memory_id, utc_timestamp


def _provider(tmp_path: Path, service: RetainDBStandIn) -> RetainDBProvider:
    env = {"RETAINDB_BASE_URL": service.base_url, "RETAINDB_API_KEY": KEY}
    provider = RetainDBProvider(tmp_path, environ=env)
    provider.initialize("s-1", home=str(tmp_path))
    return provider


def _service() -> RetainDBStandIn:
    return RetainDBStandIn(KEY)


def test_the_stand_in_refuses_an_offset_timestamp_as_zod_does() -> None:
    with _service() as service:
        url = service.base_url + "/v1/memory/ingest/session"
        body = {"session_id": "s", "messages": [{"role": "user", "content": "hi",
                                                "timestamp": "2026-01-01T00:00:00+00:00"}]}
        headers = {"Authorization": f"Bearer {KEY}", "X-API-Key": KEY}
        reply = httpx.post(url, json=body, headers=headers)
        assert reply.status_code == 400 and "Invalid datetime" in reply.text
        body["messages"][0]["timestamp"] = "2026-01-01T00:00:00.123Z"  # type: ignore[index]
        assert httpx.post(url, json=body, headers=headers).is_success


def test_turns_are_sent_with_utc_z_timestamps_and_land(tmp_path: Path) -> None:
    assert utc_timestamp().endswith("Z") and "+" not in utc_timestamp()
    with _service() as service:
        provider = _provider(tmp_path, service)
        provider.sync_turn("I moved to Lyon in May", "Noted.")
        provider.shutdown()
        assert service.violations == []
        assert [m["content"] for m in service.sessions["s-1"]] == ["I moved to Lyon in May", "Noted."]


def test_check_reads_the_servers_answer_shapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _service() as service:
        monkeypatch.setenv("RETAINDB_API_KEY", KEY)
        monkeypatch.setenv("RETAINDB_BASE_URL", service.base_url)
        code, out, err = run("--home", str(tmp_path), "providers", "check", "retaindb", "--json")
        assert code == 0, err
        assert json.loads(out)["found"] is True  # found inside the nested {"memory": {...}} hit
        assert not service.memories and service.violations == []


def test_the_add_answer_gives_the_id_or_a_job() -> None:
    assert memory_id({"success": True, "memory_id": "m1", "memory": {"id": "m1"}}) == "m1"
    assert memory_id({"memory": {"id": "m2"}}) == "m2"
    assert memory_id({"success": True, "mode": "async", "job_id": "j1"}) == ""
    with pytest.raises(ServiceError, match="malformed"):
        memory_id({"id": "old-shape"})


def test_the_synthesis_comes_from_the_dialectic_route_into_the_next_prefetch(tmp_path: Path) -> None:
    with _service() as service:
        provider = _provider(tmp_path, service)
        provider.on_memory_write("add", "user", "The user keeps bees in Lyon")
        provider.queue_prefetch("Where are the bees kept?")
        recalled = provider.prefetch("Where are the bees kept?")
        provider.shutdown()
        assert "/v1/memory/dialectic" in service.paths("POST")
        assert "[RetainDB User Synthesis]\nThe user keeps bees in Lyon" in recalled
        assert service.violations == []


def test_file_content_follows_the_redirect_without_the_key(tmp_path: Path) -> None:
    with _service() as service:
        file_id = service.add_file("/notes/a.md", b"Aisle seat, always.")
        provider = _provider(tmp_path, service)
        read = json.loads(provider.handle_tool_call("retaindb_read_file", {"file_id": file_id}))
        provider.shutdown()
        assert read["content"] == "Aisle seat, always."
        assert service.violations == []  # the presigned URL got no Authorization / X-API-Key
