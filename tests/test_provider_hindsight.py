"""hindsight: the real ``hindsight-client`` against the loopback Hindsight stand-in.

The open-source server (hindsight-api-slim) was not run here: it needs PostgreSQL with the
pgvector extension (not installed, and not in the Debian package lists this machine reaches),
and its dependencies (litellm, several LLM SDKs, protobuf 7) conflict with mem0's in one
environment. See docs/providers/hindsight.md.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import provider_e2e
import pytest
from testing_services.hindsight import HindsightStandIn

from silcrow.providers.hindsight import HindsightProvider
from silcrow.recall import MemoryProvider
from silcrow.recall.contract import check_provider_contract

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("hindsight_client") is None,
    reason='the hindsight extra is not installed: pip install "silcrow[hindsight]"')

KEY = "hs-test-key"


_made: list[HindsightProvider] = []


@pytest.fixture()
def server() -> Iterator[HindsightStandIn]:
    with HindsightStandIn(KEY) as srv:
        yield srv
        while _made:  # close every client (its aiohttp session) while the server still answers
            _made.pop().shutdown()


def _provider(home: Path, srv: HindsightStandIn, key: str = KEY, **settings: Any) -> HindsightProvider:
    values = {"api_url": srv.base_url, "timeout": 1.0, "failure_threshold": 2, "cooldown": 0.3}
    values.update(settings)
    lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
    (home / "config.toml").write_text(f"[recall.hindsight]\n{lines}\n", encoding="utf-8")
    _made.append(HindsightProvider(home=home, environ={"HINDSIGHT_API_KEY": key}))
    return _made[-1]


def _tool(provider: MemoryProvider, name: str, **args: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(provider.handle_tool_call(name, args))
    return result


def _turn_texts(content: str) -> list[str]:
    return [m["content"] for turn in json.loads(content) for m in turn]


def test_keeps_the_provider_contract(tmp_path: Path, server: HindsightStandIn) -> None:
    check_provider_contract(_provider(tmp_path, server), tmp_path)
    assert server.violations == []


def test_says_what_is_missing(tmp_path: Path) -> None:
    provider = HindsightProvider(home=tmp_path, environ={})
    assert "HINDSIGHT_API_KEY" in provider.unavailable_reason()
    embedded = HindsightProvider(home=tmp_path, environ={"HINDSIGHT_MODE": "local_embedded"})
    assert "local_external" in embedded.unavailable_reason()
    external = HindsightProvider(home=tmp_path, environ={"HINDSIGHT_MODE": "local_external"})
    assert external.is_available() and external.api_url == "http://localhost:8888"


def test_turns_are_retained_as_hermes_does_appending_to_the_session_document(
        tmp_path: Path, server: HindsightStandIn) -> None:
    provider = _provider(tmp_path, server, retain_tags=["silcrow"], retain_source="tests")
    provider.initialize("sess-1", home=tmp_path, user_id="u1", platform="cli")
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    provider.sync_turn("She keeps bees.", "Lovely.")
    first, second = server.retains
    assert _turn_texts(first["content"]) == ["User: My sister Ana lives in Lyon.", "Assistant: Noted."]
    # Only the new turn: the server appends it to the session's document.
    assert _turn_texts(second["content"]) == ["User: She keeps bees.", "Assistant: Lovely."]
    assert first["document_id"] == "sess-1" and first["update_mode"] == "append" and first["async"] is True
    assert first["tags"] == ["silcrow", "session:sess-1"]
    assert first["context"] == "conversation between Hermes Agent and the User"
    meta = first["metadata"]
    keys = ("session_id", "user_id", "platform", "source")
    assert [meta[k] for k in keys] == ["sess-1", "u1", "cli", "tests"]
    assert all(isinstance(v, str) for v in meta.values())


def test_an_older_server_gets_the_whole_session_under_a_per_process_document(
        tmp_path: Path, server: HindsightStandIn) -> None:
    server.api_version = "0.4.2"
    provider = _provider(tmp_path, server)
    provider.initialize("sess-1", home=tmp_path)
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    provider.sync_turn("She keeps bees.", "Lovely.")
    first, second = server.retains
    assert first["document_id"] == second["document_id"] and first["document_id"].startswith("sess-1-")
    assert "update_mode" not in second or second["update_mode"] is None
    assert len(_turn_texts(second["content"])) == 4  # the whole session again, replacing the document


def test_every_n_turns_buffers_and_the_session_end_keeps_the_rest(
        tmp_path: Path, server: HindsightStandIn) -> None:
    provider = _provider(tmp_path, server, retain_every_n_turns=2)
    provider.initialize("sess-1", home=tmp_path)
    for n in range(3):
        provider.sync_turn(f"Turn {n} of the talk.", "ok")
    assert len(server.retains) == 1 and len(_turn_texts(server.retains[0]["content"])) == 4
    provider.on_session_end([])
    assert _turn_texts(server.retains[-1]["content"]) == ["User: Turn 2 of the talk.", "Assistant: ok"]


def test_a_new_session_first_keeps_what_the_previous_one_buffered(
        tmp_path: Path, server: HindsightStandIn) -> None:
    provider = _provider(tmp_path, server, retain_every_n_turns=3)
    provider.initialize("sess-1", home=tmp_path)
    provider.sync_turn("Only turn of the first session.", "ok")
    assert server.retains == []
    provider.initialize("sess-2", home=tmp_path)
    (kept,) = server.retains
    assert kept["document_id"] == "sess-1" and "session:sess-1" in kept["tags"]
    assert _turn_texts(kept["content"]) == ["User: Only turn of the first session.", "Assistant: ok"]


def test_recall_prefetch_and_tools(tmp_path: Path, server: HindsightStandIn) -> None:
    provider = _provider(tmp_path, server, bank_id_template="hermes-{user}")
    provider.initialize("s", home=tmp_path, user_id="u1")
    assert provider.bank_id == "hermes-u1"
    assert _tool(provider, "hindsight_retain", content="The user's sister Ana lives in Lyon",
                 context="family", tags=["people"])["result"] == "Memory stored successfully."
    recalled = provider.prefetch("Where does my sister Ana live?")
    assert recalled.startswith("# Hindsight Memory") and "- The user's sister Ana lives in Lyon" in recalled
    recall_body = [b for m, p, b in server.requests if p.endswith("/memories/recall")][-1]
    assert recall_body["types"] == ["observation"] and recall_body["budget"] == "mid"
    listed = _tool(provider, "hindsight_recall", query="sister Ana")["result"]
    assert listed.startswith("1. The user's sister")
    assert "Lyon" in _tool(provider, "hindsight_reflect", query="sister Ana")["result"]
    nothing = _tool(provider, "hindsight_recall", query="quantum zebras")["result"]
    assert nothing == "No relevant memories found."
    before = len(server.requests)
    provider.queue_prefetch("Tell me about Ana again")
    assert "Lyon" in provider.prefetch("Tell me about Ana again")  # picked up the queued recall
    assert len(server.requests) == before + 1  # one recall, not two
    assert server.violations == []


def test_memory_modes(tmp_path: Path, server: HindsightStandIn) -> None:
    context_only = _provider(tmp_path, server, memory_mode="context")
    context_only.initialize("s", home=tmp_path)
    assert context_only.get_tool_schemas() == [] and "context mode" in context_only.system_prompt_block()
    tools_only = _provider(tmp_path, server, memory_mode="tools")
    tools_only.initialize("s", home=tmp_path)
    tools_only.handle_tool_call("hindsight_retain", {"content": "The user likes jazz"})
    assert tools_only.prefetch("does the user like jazz?") == ""
    assert len(tools_only.get_tool_schemas()) == 3


def test_errors_are_reported_and_an_outage_loses_no_turn(
        tmp_path: Path, server: HindsightStandIn, caplog: pytest.LogCaptureFixture) -> None:
    wrong = _provider(tmp_path, server, key="wrong")
    wrong.initialize("s", home=tmp_path)
    refused = _tool(wrong, "hindsight_recall", query="anything")
    assert refused["success"] is False
    assert "401" in refused["error"] and "HINDSIGHT_API_KEY" in refused["error"]

    provider = _provider(tmp_path, server, failure_threshold=5)
    provider.initialize("s2", home=tmp_path)
    server.fail(429, retry_after=5, only="recall")
    assert "429" in _tool(provider, "hindsight_recall", query="tea")["error"]
    server.malformed(only="recall")
    assert _tool(provider, "hindsight_recall", query="tea")["success"] is False
    server.delay(2.5, only="recall")
    assert _tool(provider, "hindsight_recall", query="tea")["success"] is False
    server.down = True
    with caplog.at_level(logging.WARNING):
        for n in range(3):
            provider.sync_turn(f"Outage turn {n} about the garden.", "ok")
            assert provider.prefetch("What about the garden?") == ""
    assert len(provider.outbox) == 3
    server.down = False
    provider.resilient._open_until = 0.0
    assert provider.flush_outbox() == 3
    # The server's version was unknown during the outage, so each retain carried the whole
    # session under one document (Hermes' safe mode); replayed in order, the last one wins.
    documents = {r["document_id"] for r in server.retains}
    assert len(server.retains) == 3 and len(documents) == 1
    users = [f["text"] for f in server.facts if f["type"] == "world" and f["text"].startswith("User:")]
    assert users == [f"User: Outage turn {n} about the garden." for n in range(3)]


def test_end_to_end_through_the_agent(tmp_path: Path, server: HindsightStandIn) -> None:
    scenario = provider_e2e.Scenario(make=lambda: _provider(tmp_path, server), tool="hindsight_recall",
                                     tool_args={"query": "sister Ana"}, expect_in_tool="Lyon",
                                     outage=provider_e2e.service_down(server))
    provider_e2e.run(tmp_path, scenario)
    later = _provider(tmp_path, server)
    later.initialize("s3", home=tmp_path)
    later.join_replay(timeout=30)  # initialize started delivering the outage turn
    later.flush_outbox()
    assert any(f["text"] == f"User: {provider_e2e.OUTAGE_TURN}" for f in server.facts)
    later.shutdown()
    assert server.violations == []
