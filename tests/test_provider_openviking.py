"""The openviking adapter's handling of what the real server answers (the stand-in follows it;
tests/test_openviking_real.py runs the same against the real server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_recall import run
from testing_services import OpenVikingStandIn

from silcrow.errors import ServiceError
from silcrow.providers.openviking._provider import _unwrap, session_key


def _check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, service: OpenVikingStandIn
) -> tuple[int, str, str]:
    monkeypatch.setenv("OPENVIKING_ENDPOINT", service.base_url)
    monkeypatch.setenv("OPENVIKING_API_KEY", "k")
    return run("--home", str(tmp_path), "providers", "check", "openviking", "--json")


def test_check_waits_out_a_retryable_409(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenVikingStandIn("k") as service:
        service.busy(times=2, only="/api/v1/fs")  # the forget step: the file is still being indexed
        code, out, err = _check(tmp_path, monkeypatch, service)
    assert code == 0, err
    result = json.loads(out)
    assert result["ok"] and result["found"] and result["retries"] == 2
    assert not service.files  # the probe was deleted in the end


def test_check_fails_at_once_on_a_permanent_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenVikingStandIn("k") as service:
        service.fail(400, only="/content/write")
        code, _, err = _check(tmp_path, monkeypatch, service)
        writes = service.paths("POST")
    assert code == 1 and "HTTP 400" in err
    assert writes == []  # the refused write (a scripted fault, not recorded) was not sent again


def test_a_200_carrying_an_error_is_raised() -> None:
    with pytest.raises(ServiceError, match="INVALID_URI") as caught:
        _unwrap({"status": "error", "error": {"code": "INVALID_URI", "message": "bad"}})
    assert caught.value.permanent
    with pytest.raises(ServiceError) as busy:
        _unwrap({"status": "error", "error": {"code": "CONFLICT", "message": "Resource is being processed",
                                              "details": {"retryable": True}}})
    assert not busy.value.permanent
    assert _unwrap({"status": "ok", "result": [1]}) == [1]


def test_curated_notes_go_to_the_callers_own_space(tmp_path: Path) -> None:
    from silcrow.providers.openviking import OpenVikingProvider

    with OpenVikingStandIn("k") as service:
        env = {"OPENVIKING_ENDPOINT": service.base_url, "OPENVIKING_API_KEY": "k", "OPENVIKING_USER": "ana"}
        provider = OpenVikingProvider(tmp_path, environ=env)
        provider.initialize("s", home=str(tmp_path))
        provider.on_memory_write("add", "user", "Ana likes green tea")
        provider.shutdown()
        assert not service.violations
        [uri] = service.files
    assert uri.startswith("viking://user/ana/peers/hermes/memories/preferences/mem_")


def test_session_ids_become_one_safe_path_segment() -> None:
    assert session_key("20260101_abc-1") == "20260101_abc-1"
    odd = session_key("a/b c")
    assert "/" not in odd and " " not in odd and odd.startswith("a-b-c-")
    assert session_key("a/b c") != session_key("a b/c")
