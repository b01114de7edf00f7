"""A hosted provider redacts at its own entry points: a caller that skips the manager (a script, a
host that drives the provider itself, the outbox replaying a write an older version queued) still
sends no secret. Each HTTP provider against its loopback stand-in (tests/testing_services)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hosted_support import each_case, make, serving

SECRET = "sk-proj-Q7rT2xW9kL4mN8pB3vC6zY1aD5fG0hJ and redis://:Rz9hunterQ7x@cache:6379/0"
LEAKS = ("Q7rT2xW9kL4mN8pB3vC6", "Rz9hunterQ7x")


@each_case
def test_direct_calls_on_a_hosted_provider_send_no_secret(case: Any, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path / "home", service)
        provider.initialize("s1", home=str(tmp_path / "home"))
        provider.on_turn_start(1, "hello " + SECRET)
        provider.prefetch("what is " + SECRET)
        provider.sync_turn("keep " + SECRET, "noted " + SECRET, session_id="s1")
        provider.on_memory_write("add", "user", "Deploy with " + SECRET)
        name, args = case.write_tool
        answer = provider.call_tool(name, {**args, next(iter(args)): "remember " + SECRET})
        assert answer.error is None, answer.error
        provider.shutdown()
        sent = json.dumps(service.requests)
    assert "[REDACTED:" in sent
    for leak in LEAKS:
        assert leak not in sent, (case.name, leak)


@each_case
def test_a_write_queued_unredacted_is_redacted_when_it_is_sent(case: Any, tmp_path: Path) -> None:
    """An outbox entry kept by an earlier version (before a rule existed) goes out redacted."""
    with serving(case) as service:
        provider = make(case, tmp_path / "home", service)
        provider.initialize("s1", home=str(tmp_path / "home"))
        kind, payload = _last_write(provider)  # the shape of one write, as this version queues it
        raw = json.loads(json.dumps(payload).replace("first turn", SECRET.replace('"', "")))
        provider.outbox.put(kind, raw)
        provider.flush_outbox(wait=True)
        provider.shutdown()
        sent = json.dumps(service.requests)
    for leak in LEAKS:
        assert leak not in sent, (case.name, leak)


def _last_write(provider: Any) -> tuple[str, dict[str, Any]]:
    kind, payload = "", {}
    original = provider.send_write

    def capture(k: str, p: dict[str, Any]) -> None:
        nonlocal kind, payload
        kind, payload = k, p
        original(k, p)


    provider.send_write = capture
    try:
        provider.sync_turn("first turn", "ok", session_id="s1")
    finally:
        del provider.send_write
    assert payload, f"{provider.name}: sync_turn sent no write"
    return kind, payload
