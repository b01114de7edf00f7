"""When the hosted service fails: HTTP errors, timeouts, malformed answers, outages, restarts.

The stand-ins answer scripted failures over real HTTP; the providers' real
clients (SDKs and httpx) see them exactly as they would see a real service's.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
from hosted_support import Case, each_case, make, serving, stored_text

from silcrow.providers._outbox import Outbox, outbox_path

FAST = {"failure_threshold": 2, "cooldown": 0.2, "timeout": 2.0}


def _tool_error(provider: object, case: Case) -> str:
    name, args = case.search_tool
    result = json.loads(provider.handle_tool_call(name, args))  # type: ignore[attr-defined]
    assert result["success"] is False, result
    return str(result["error"])


@each_case
def test_a_refused_key_is_an_error_naming_the_variable(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, key="wrong-key")
        provider.initialize("s-1", home=tmp_path)
        error = _tool_error(provider, case)
        assert "401" in error and case.key_var in error
        assert provider.prefetch("Where did I move, Lyon?") == ""  # the turn goes on without recall
        assert any("401" in v or "Authorization" in v or "X-API-Key" in v for v in service.violations)


@each_case
@pytest.mark.parametrize("status", [404, 500])
def test_http_errors_become_tool_errors_and_the_next_call_works(
    case: Case, tmp_path: Path, status: int
) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s-1", home=tmp_path)
        provider.sync_turn("I moved to Lyon last spring.", "Noted.", session_id="s-1")
        provider.on_session_end([])
        service.fail(status)
        assert f"HTTP {status}" in _tool_error(provider, case)
        name, args = case.search_tool
        assert json.loads(provider.handle_tool_call(name, args))["success"] is True


@each_case
def test_malformed_json_is_an_error_not_a_crash(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s-1", home=tmp_path)
        service.malformed(times=5)
        assert "malformed" in _tool_error(provider, case)
        service.clear_faults()
        service.malformed(times=5)
        assert provider.prefetch("Which city did I move to?") == ""


@each_case
def test_a_slow_service_times_out(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, timeout=0.3)
        provider.initialize("s-1", home=tmp_path)
        service.delay(1.5, times=3)
        assert "did not answer in time" in _tool_error(provider, case)


@each_case
def test_rate_limit_opens_the_breaker_for_retry_after_and_logs_once(
    case: Case, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, **FAST)
        provider.initialize("s-1", home=tmp_path)
        service.fail(429, retry_after=30, times=2)
        with caplog.at_level(logging.WARNING, logger="silcrow.providers._resilience"):
            for _ in range(2):
                assert "429" in _tool_error(provider, case)
            sent = len(service.requests)
            time.sleep(0.3)  # longer than the 0.2 s cooldown, far shorter than Retry-After
            assert "paused" in _tool_error(provider, case)
            assert provider.prefetch("Which city did I move to?") == ""
        assert len(service.requests) == sent  # short-circuited: nothing was sent
        warnings = [r for r in caplog.records if "failed" in r.getMessage()]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]


@each_case
def test_writes_made_during_an_outage_are_replayed_in_order(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, **FAST)
        provider.initialize("s-1", home=tmp_path, user_id="u1")
        service.down = True
        for word in ("alpha", "bravo", "charlie"):
            provider.sync_turn(f"Turn {word}: I collect {word} stamps.", "Noted.", session_id="s-1")
        assert len(provider.outbox) == 3
        assert "alpha" not in stored_text(service)
        service.down = False
        time.sleep(0.3)  # the breaker's cooldown
        provider.on_turn_start(4, "next message")  # starts the replay on its own thread
        provider.join_replay(10)
        assert len(provider.outbox) == 0
        text = stored_text(service)
        assert text.index("alpha") < text.index("bravo") < text.index("charlie")
        assert service.violations == []


@each_case
def test_queued_writes_survive_a_restart(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        first = make(case, tmp_path, service, **FAST)
        first.initialize("s-1", home=tmp_path)
        service.down = True
        first.sync_turn("My passport number ends in 4471.", "Noted.", session_id="s-1")
        first.on_memory_write("add", "user", "The user's dog is called Pixel")
        first.shutdown()  # the process ends while the service is still down
        assert len(Outbox(outbox_path(tmp_path, case.name))) == 2
        service.down = False
        second = make(case, tmp_path, service, **FAST)
        second.initialize("s-2", home=tmp_path)  # starts delivering what the first one left
        second.join_replay(10)
        assert len(second.outbox) == 0
        text = stored_text(service)
        assert "4471" in text and "Pixel" in text and text.index("4471") < text.index("Pixel")


@each_case
def test_a_write_refused_for_good_is_set_aside(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, **FAST)
        provider.initialize("s-1", home=tmp_path)
        service.fail(422)  # a malformed write: sending it again would fail the same way
        provider.on_memory_write("add", "user", "first note")
        provider.on_memory_write("add", "user", "The user's dog is called Pixel")
        assert len(provider.outbox) == 0
        assert "Pixel" in stored_text(service)
        assert [kind for _, kind, _, _ in provider.outbox.dead()] != []


@each_case
def test_a_write_still_undelivered_at_start_goes_out_at_the_next_turn(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        first = make(case, tmp_path, service, **FAST)
        first.initialize("s-1", home=tmp_path)
        service.down = True
        first.on_memory_write("add", "user", "The user's dog is called Pixel")
        first.shutdown()
        second = make(case, tmp_path, service, **FAST)
        second.initialize("s-2", home=tmp_path)  # still down: the replay it starts fails, the write stays
        second.join_replay(10)
        assert len(second.outbox) == 1
        service.down = False
        time.sleep(0.3)  # the breaker's cooldown
        second.on_turn_start(1, "hello again")
        second.join_replay(10)
        assert "Pixel" in stored_text(service)
        assert len(second.outbox) == 0
