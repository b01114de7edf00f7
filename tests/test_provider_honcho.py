"""The honcho adapter, and the official honcho-ai client, against the Honcho stand-in rebuilt from
the server's routes (plastic-labs/honcho): first use, a note before the first turn, a message over
the 25,000-character limit, notes read back from the AI peer's perspective, contextTokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hosted_support import CASES, KEY, make
from test_cli_recall import run
from testing_services import HonchoStandIn

from silcrow.providers.honcho._provider import _chunks

CASE = next(c for c in CASES if c.name == "honcho")
NOTE = "The user keeps bees on a rooftop in Lyon"


def test_first_use_check_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with HonchoStandIn(KEY) as service:
        monkeypatch.setenv("HONCHO_API_KEY", KEY)
        monkeypatch.setenv("HONCHO_BASE_URL", service.base_url)
        code, out, err = run("--home", str(tmp_path), "providers", "check", "honcho", "--json")
        assert code == 0, err
        assert json.loads(out)["found"] is True and not service.conclusions
        assert service.violations == []


@pytest.mark.parametrize("save_messages", [True, False])
def test_a_note_before_the_first_turn_is_kept_and_recalled(tmp_path: Path, save_messages: bool) -> None:
    with HonchoStandIn(KEY) as service:
        provider = make(CASE, tmp_path, service, saveMessages=save_messages)
        provider.initialize("s-1", home=str(tmp_path))
        provider.on_memory_write("add", "user", NOTE)  # no turn was synced yet
        assert len(provider.outbox) == 0 and provider.outbox.dead() == []
        [note] = service.conclusions.values()
        assert (note["content"], note["observer_id"], note["observed_id"]) == (NOTE, "hermes", "user")
        recalled = provider.prefetch("Where are the bees?")
        context = json.loads(provider.handle_tool_call("honcho_context", {}))
        reasoning = json.loads(provider.handle_tool_call("honcho_reasoning", {"query": "Where are bees?"}))
        provider.shutdown()
    assert NOTE in recalled and "User Representation" in recalled
    assert NOTE in context["result"] and NOTE in reasoning["result"]


def test_a_30000_character_message_arrives_in_pieces_within_the_limit(tmp_path: Path) -> None:
    words = " ".join(f"word{i}" for i in range(5000))  # about 44,000 characters
    long = words[:30_000]
    with HonchoStandIn(KEY) as service:
        provider = make(CASE, tmp_path, service)
        provider.initialize("s-1", home=str(tmp_path))
        provider.sync_turn(long, "ok")
        provider.shutdown()
        assert provider.outbox.dead() == []
        sent = [m["content"] for m in service.messages if m["peer_id"] == "user"]
    assert len(sent) == 2 and all(len(piece) <= 25_000 for piece in sent)
    assert sent[0].endswith(" [continued]")
    assert sent[0].removesuffix(" [continued]") + " " + sent[1] == long
    assert all(len(p) <= 1000 for p in _chunks(long, 1000))


def test_a_context_budget_over_the_servers_maximum_is_clamped(tmp_path: Path) -> None:
    with HonchoStandIn(KEY) as service:
        provider = make(CASE, tmp_path, service, contextTokens=500_000)
        provider.initialize("s-1", home=str(tmp_path))
        provider.on_memory_write("add", "user", NOTE)
        recalled = provider.prefetch("Where are the bees?")
        provider.shutdown()
        assert service.violations == []
    assert NOTE in recalled


def test_the_official_client_meets_the_servers_rules() -> None:
    """Contract: honcho-ai 2.7 against the stand-in, where the real server refuses."""
    from honcho import Honcho, NotFoundError, UnprocessableEntityError
    from honcho.api_types import SessionPeerConfig

    with HonchoStandIn(KEY) as service:
        client = Honcho(api_key=KEY, base_url=service.base_url, workspace_id="ws", max_retries=0)
        ai, user = client.peer("ai"), client.peer("user")
        with pytest.raises(NotFoundError, match="Session nope not found"):  # never created
            ai.conclusions_of("user").create([{"content": "x", "session_id": "nope"}])
        session = client.session("s", peers=[("user", SessionPeerConfig()), ("ai", SessionPeerConfig())])
        made = ai.conclusions_of("user").create([{"content": NOTE, "session_id": "s"}])
        assert made[0].content == NOTE
        with pytest.raises(UnprocessableEntityError):
            session.add_messages([user.message("x" * 25_001)])
        session.add_messages([user.message("x" * 25_000)])
        with pytest.raises(UnprocessableEntityError):
            session.context(tokens=100_001)
        own = session.context(peer_target="user")
        theirs = session.context(peer_target="user", peer_perspective="ai")
        assert NOTE not in (own.peer_representation or "") and NOTE in (theirs.peer_representation or "")
