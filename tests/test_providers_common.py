"""The shared parts of the external recall providers: config, breaker, outbox, validation."""

from __future__ import annotations

import logging
import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest

from silcrow.errors import ConfigError, ServiceError, ServiceUnavailableError
from silcrow.providers import as_dict, as_list, field, parse_json
from silcrow.providers._config import load_provider_config
from silcrow.providers._http import retry_after_seconds, service_error, status_error
from silcrow.providers._outbox import Outbox
from silcrow.providers._resilience import Resilient

DEFAULTS = {"api_key": "", "workspace": "hermes", "timeout": 10.0, "recall_k": 5, "auto": True}
ENV = {"api_key": "DEMO_API_KEY", "workspace": ("DEMO_WORKSPACE", "DEMO_WS_OLD")}


def _write_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_config_defaults_then_table_then_env(tmp_path: Path) -> None:
    assert load_provider_config("demo", tmp_path, DEFAULTS, ENV, {}) == DEFAULTS
    _write_config(tmp_path, '[recall]\nprovider = "demo"\n[recall.demo]\napi_key = "from-file"\n'
                  'workspace = "w1"\nrecall_k = 7\n')
    cfg = load_provider_config("demo", tmp_path, DEFAULTS, ENV, {})
    got = (cfg["api_key"], cfg["workspace"], cfg["recall_k"])
    assert got == ("from-file", "w1", 7)
    cfg = load_provider_config("demo", tmp_path, DEFAULTS, ENV,
                               {"DEMO_API_KEY": "from-env", "DEMO_WS_OLD": "old", "DEMO_WORKSPACE": " "})
    assert cfg["api_key"] == "from-env"
    assert cfg["workspace"] == "old"  # a blank variable does not count; the fallback name does


def test_config_types_are_checked_and_converted(tmp_path: Path) -> None:
    cfg = load_provider_config("demo", tmp_path, DEFAULTS, {"timeout": "T", "auto": "A"},
                               {"T": "2.5", "A": "off"})
    assert cfg["timeout"] == 2.5 and cfg["auto"] is False
    with pytest.raises(ConfigError, match="T.*expected a number"):
        load_provider_config("demo", tmp_path, DEFAULTS, {"timeout": "T"}, {"T": "soon"})
    _write_config(tmp_path, "[recall.demo]\nrecall_k = \"many\"\n")
    with pytest.raises(ConfigError, match=r"recall_k.*\[recall.demo\]"):
        load_provider_config("demo", tmp_path, DEFAULTS, {}, {})
    _write_config(tmp_path, "[recall\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_provider_config("demo", tmp_path, DEFAULTS, {}, {})


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _boom() -> None:
    raise ConnectionError("refused")


def test_breaker_opens_after_threshold_and_half_opens(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    breaker = Resilient("demo", threshold=2, cooldown=30, clock=clock)
    calls = {"n": 0}

    def ok() -> str:
        calls["n"] += 1
        return "fine"

    with caplog.at_level(logging.DEBUG, logger="silcrow.providers._resilience"):
        for _ in range(2):
            with pytest.raises(ServiceError, match="cannot reach demo"):
                breaker.call("search", _boom)
        with pytest.raises(ServiceUnavailableError, match="paused"):
            breaker.call("search", ok)
        assert calls["n"] == 0  # short-circuited: the service was not called
        clock.now += 31
        assert breaker.call("search", ok) == "fine"  # the trial call goes through and closes it
        assert breaker.call("search", ok) == "fine"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len([r for r in warnings if "failed" in r.getMessage()]) == 1  # logged once per outage
    assert any("answers again" in r.getMessage() for r in warnings)


def test_breaker_honours_retry_after_and_permanent_errors() -> None:
    clock = Clock()
    breaker = Resilient("demo", threshold=1, cooldown=5, clock=clock)

    def limited() -> None:
        raise ServiceError("429", status=429, retry_after=120)

    with pytest.raises(ServiceError):
        breaker.call("write", limited)
    clock.now += 60
    assert breaker.is_open  # 120 s asked, more than the 5 s cooldown
    clock.now += 61
    assert not breaker.is_open

    def refused() -> None:
        raise ServiceError("400", status=400, permanent=True)

    for _ in range(3):  # a bad request is not an outage
        with pytest.raises(ServiceError):
            breaker.call("write", refused)
    assert not breaker.is_open


def test_outbox_keeps_order_across_outage_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "recall_outbox" / "demo.db"
    box = Outbox(path)
    for i in range(3):
        box.put("turn", {"i": i})
    sent: list[int] = []
    down = {"flag": True}

    def send(kind: str, payload: dict[str, Any]) -> None:
        if down["flag"] and payload["i"] == 1:
            raise ServiceError("down")
        sent.append(payload["i"])

    with pytest.raises(ServiceError):
        box.drain(send)
    assert sent == [0] and len(box) == 2
    box.close()
    box = Outbox(path)  # a restart keeps what was queued
    box.put("turn", {"i": 3})
    down["flag"] = False
    assert box.drain(send) == 3
    assert sent == [0, 1, 2, 3] and len(box) == 0


def test_outbox_sets_aside_permanently_refused_writes(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.db")
    box.put("turn", {"i": 0, "bad": True})
    box.put("turn", {"i": 1})
    sent: list[int] = []

    def send(kind: str, payload: dict[str, Any]) -> None:
        if payload.get("bad"):
            raise ServiceError("HTTP 422", status=422, permanent=True)
        sent.append(payload["i"])

    assert box.drain(send) == 1
    assert sent == [1]
    [(_, kind, payload, why)] = box.dead()
    assert kind == "turn" and payload["i"] == 0 and "422" in why


def test_validation_helpers_raise_service_errors() -> None:
    assert as_dict("svc", "body", {"a": 1}) == {"a": 1}
    with pytest.raises(ServiceError, match="svc answered a malformed body: expected a JSON object"):
        as_dict("svc", "body", [1])
    with pytest.raises(ServiceError, match="expected a JSON array"):
        as_list("svc", "results", {"x": 1})
    with pytest.raises(ServiceError, match="expected JSON"):
        parse_json("svc", "body", b"<html>oops")
    assert field("svc", "hit", {"score": 0.5}, "score", float) == 0.5
    assert field("svc", "hit", {}, "score", float, default=0.0) == 0.0
    with pytest.raises(ServiceError, match="'score'"):
        field("svc", "hit", {"score": "high"}, "score", float)
    with pytest.raises(ServiceError, match="a field 'id'"):
        field("svc", "hit", {}, "id", str)


class _FakeResponse:
    status_code = 429
    headers = {"retry-after": "7"}


class _SdkError(Exception):
    def __init__(self) -> None:
        super().__init__("rate limit")
        self.response = _FakeResponse()


def test_status_and_sdk_errors_are_translated() -> None:
    err = status_error("svc", 401, "bad key", key_hint="set SVC_API_KEY")
    assert err.status == 401 and "set SVC_API_KEY" in str(err) and not err.permanent
    assert status_error("svc", 422, "missing field").permanent
    translated = service_error("svc", _SdkError())
    assert translated.status == 429 and translated.retry_after == 7.0
    assert "timeout" not in str(service_error("svc", ValueError("x"))).lower()
    assert "did not answer in time" in str(service_error("svc", TimeoutError()))
    assert retry_after_seconds({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({}) is None


def _drain_into(path: str, log: str) -> None:
    """A subprocess's drain: each delivery is appended to ``log`` (slowly, to overlap the other)."""
    def send(kind: str, payload: dict[str, Any]) -> None:
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{payload['i']}\n")
        time.sleep(0.01)

    Outbox(Path(path)).drain(send, wait=True)


def test_two_processes_draining_one_outbox_deliver_each_write_once(tmp_path: Path) -> None:
    path = tmp_path / "recall_outbox" / "demo.db"
    box = Outbox(path)
    for i in range(30):
        box.put("turn", {"i": i})
    log = tmp_path / "delivered.txt"
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_drain_into, args=(str(path), str(log))) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    delivered = [int(line) for line in log.read_text(encoding="utf-8").split()]
    assert delivered == list(range(30))  # once each, in order
    assert len(box) == 0
