"""Recall hygiene: secrets never reach an external provider, repeated recalled lines are dropped,
session switches and the provider's status reach the people and providers that need them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hosted_support import CASES, each_case, make, serving

from silcrow.recall import MemoryManager, MemoryProvider
from silcrow.safety import SECRET_PATTERNS, build_memory_context_block, recalled_count, redact_secrets

# One secret of each kind, the way people paste them into a chat.
SECRETS = {
    "api-key": "sk-proj-Q7rT2xW9kL4mN8pB3vC6zY1aD5fG0hJ",
    "aws-key": "AKIAQ3EGRKX7Z5T2MB4N",
    "github-token": "ghp_R8d3Kq1Lm7Nz2Xc5Vb9Aa4Ss6Dd0Ff3Gg1Hh",
    "slack-token": "xoxb-20485-77731-Zq8RkTn3",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzYW0ifQ.c2lnbmF0dXJlLXBhcnQtaGVyZQ",
    "url-password": "postgresql://admin:Sup3r@Secret@db.internal/prod",
    "private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                   "-----END OPENSSH PRIVATE KEY-----",
    "assignment": "OPENAI_API_KEY=abc123def456ghi789",
    "auth-header": "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4",
    "gitlab-token": "glpat-Xk29dLq8ZmPw3RtY7uVn",
    "google-key": "AIzaSyD3kQ9xL2mP7wR4tY8uV1nB6cZ0aS5dF3g",
    "stripe-key": "sk_live_51HqLyjWDarjtT1zdp7dc",
    "huggingface-token": "hf_kQpZrT8mWx3LnY7vB2cD9fG4hJ6sA1eR0uIo",
    "npm-token": "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "silcrow-token": "slc_ab12_Zx9Yw8Vu7Ts6Rq5Po4Nm3",
}
# The part of each that must never leave.
LEAKS = ["Q7rT2xW9kL4mN8pB3vC6zY1aD5fG0hJ", "AKIAQ3EGRKX7Z5T2MB4N", "R8d3Kq1Lm7Nz2Xc5Vb9Aa4Ss6Dd0Ff3Gg1Hh",
         "Zq8RkTn3", "c2lnbmF0dXJlLXBhcnQtaGVyZQ", "Sup3r", "Secret@",
         "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "Xk29dLq8ZmPw3RtY7uVn",
         "D3kQ9xL2mP7wR4tY8uV1nB6cZ0aS5dF3g", "51HqLyjWDarjtT1zdp7dc", "kQpZrT8mWx3LnY7vB2cD9fG4hJ6sA1eR0uIo",
         "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "Zx9Yw8Vu7Ts6Rq5Po4Nm3",
         "abc123def456ghi789", "9f8e7d6c5b4a39281706f5e4"]


@pytest.mark.parametrize("kind", list(SECRETS))
def test_each_documented_pattern_redacts_its_secret(kind: str) -> None:
    text = f"here it is: {SECRETS[kind]} (keep it safe)"
    redacted = redact_secrets(text)
    assert f"[REDACTED:{kind}]" in redacted
    assert not any(leak in redacted for leak in LEAKS), redacted
    assert redacted.startswith("here it is: ") and redacted.endswith("(keep it safe)")
    assert redact_secrets(redacted) == redacted  # idempotent: a placeholder is never redacted again


@pytest.mark.parametrize("text", [
    "I like tokens of appreciation", "The password policy requires 12 characters",
    "Run pytest with --token-limit 5", "skip-navigation link", "See https://example.com/a:b@c",
    "The secret to good bread is time", "api_key: see the README",
])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


def test_every_kind_here_is_a_kind_of_the_pattern_set() -> None:
    # Every kind has a case in tests/test_secrets_shapes.py; these are the ones the turns below carry.
    assert set(SECRETS) <= {kind for kind, _ in SECRET_PATTERNS}


@each_case
def test_a_secret_in_a_turn_never_reaches_an_external_provider(case: Any, tmp_path: Path) -> None:
    secret_turn = "my keys: " + " ".join(SECRETS.values())
    with serving(case) as service:
        provider = make(case, tmp_path / "home", service)
        manager = MemoryManager()
        manager.add_provider(provider)
        manager.initialize("s1", home=str(tmp_path / "home"))
        manager.prefetch("what is " + SECRETS["api-key"] + " for?")
        manager.sync_turn(secret_turn, "Noted. " + SECRETS["aws-key"], session_id="s1")
        manager.on_memory_write("add", "user", "Deploy token " + SECRETS["github-token"])
        manager.on_session_end([{"role": "user", "content": secret_turn}])
        name, args = case.write_tool
        manager.tool_schemas()
        manager.handle_tool_call(name, {**args, next(iter(args)): "keep " + SECRETS["slack-token"]})
        manager.flush(timeout=30)
        manager.shutdown()
        sent = json.dumps(service.requests)
        outbox = "".join(p.read_text(encoding="utf-8", errors="replace")
                         for p in (tmp_path / "home").rglob("*") if p.is_file())
    assert "[REDACTED:" in sent  # the requests were made, with the secrets taken out
    for leak in LEAKS:
        assert leak not in sent, (case.name, leak)
        assert leak not in outbox, (case.name, leak)


def test_the_local_provider_keeps_what_the_user_wrote(tmp_path: Path) -> None:
    from silcrow.recall.local import LocalProvider

    provider = LocalProvider(tmp_path / "home")
    assert provider.external is False
    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize("s1", home=str(tmp_path / "home"))
    manager.sync_turn("the staging password is hunter2hunter2", "ok", session_id="s1")
    manager.flush(timeout=30)
    hits = provider.search("staging password", 3).hits
    manager.shutdown()
    assert any("hunter2hunter2" in h.text for h in hits)


def test_a_recalled_line_repeated_in_one_block_is_dropped() -> None:
    block = build_memory_context_block("[2024-01-01] Sam keeps bees\n[2024-01-02] Sam's dog is Rex\n"
                                       "  [2024-01-01] Sam keeps bees  \n[2024-01-03] Sam moved to Porto")
    assert block.count("Sam keeps bees") == 1
    assert recalled_count(block) == 3


class _Recorder(MemoryProvider):
    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **context: Any) -> None:
        self.calls.append(("initialize", session_id))

    def on_session_switch(self, old_session_id: str, new_session_id: str, **context: Any) -> None:
        self.calls.append(("switch", old_session_id, new_session_id))


def test_the_agent_tells_the_provider_of_a_session_switch(tmp_path: Path) -> None:
    from silcrow.agent import Agent
    from silcrow.testing import ScriptedModelServer

    recorder = _Recorder()
    with ScriptedModelServer(default={"content": "ok"}) as server:
        agent = Agent(home=tmp_path / "home", base_url=server.base_url, provider=recorder)
        first = agent.session_id
        agent.new_session()
        second = agent.session_id
        agent.close()
    assert ("switch", first, second) in recorder.calls
    assert recorder.calls.index(("switch", first, second)) < recorder.calls.index(("initialize", second))


def test_recall_status_names_the_provider_and_its_state(tmp_path: Path) -> None:
    manager = MemoryManager()
    assert manager.recall_status()["available"] is False
    case = CASES[0]
    with serving(case) as service:
        provider = make(case, tmp_path / "home", service)
        manager.add_provider(provider)
        manager.initialize("s1", home=str(tmp_path / "home"))
        status = manager.recall_status()
        manager.shutdown()
    assert status["provider"] == case.name and status["available"] is True and status["external"] is True
    assert status["queued_writes"] == 0 and status["paused"] is False
