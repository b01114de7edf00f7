"""Turn lifecycle: background sync (not for interrupted turns), nudges, flushes, compression,
resume/branch, and errors."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from agent_support import OK, call, last_user, remember, running_agent

from silcrow.agent import Agent
from silcrow.agent._compress import estimate_tokens
from silcrow.agent._loop import FLUSH_TEXT, NUDGE_TEXT
from silcrow.errors import ModelError, SessionError
from silcrow.recall.local import LocalProvider
from silcrow.safety import sanitize_context
from silcrow.sessions import SUMMARY_MARKER


def test_turns_are_synced_to_the_provider_in_the_background(tmp_path: Path) -> None:
    with running_agent(tmp_path, [{"content": "Noted: the boat is named Andorinha."}]) as (agent, _):
        agent.run_turn("My sailing boat is named Andorinha.")
        agent.manager.flush(10.0)
        recalled = agent.manager.prefetch("what is the sailing boat named", session_id="elsewhere")
        assert "Andorinha" in recalled


def test_an_interrupted_turn_is_not_synced_and_the_transcript_stays_valid(tmp_path: Path) -> None:
    script = [call("recall_search", query="anything"), OK]
    with running_agent(tmp_path, script) as (agent, server):
        synced: list[str] = []
        original_sync = agent.manager.sync_turn
        agent.manager.sync_turn = (  # type: ignore[method-assign]
            lambda user, assistant, session_id="": (synced.append(user), original_sync(
                user, assistant, session_id=session_id))[-1])

        def interrupted(name: str, args: dict[str, Any]) -> str:
            raise KeyboardInterrupt  # Ctrl-C while a slow tool runs

        original_tool = agent.manager.handle_tool_call
        agent.manager.handle_tool_call = interrupted  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            agent.run_turn("The zeppelin hangar code is 4471.")
        assert synced == []
        last = agent.sessions.messages(agent.session_id)[-1]
        assert last["role"] == "tool" and "interrupted" in last["content"]

        agent.manager.handle_tool_call = original_tool  # type: ignore[method-assign]
        assert agent.run_turn("carry on") == "ok"  # the next request is well-formed
        assert synced == ["carry on"]
        roles = [m["role"] for m in server.requests[-1]["messages"]]
        assert roles == ["system", "user", "assistant", "tool", "user"]


def test_model_errors_surface_clearly_and_are_not_synced(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = Agent("m", base_url=f"http://127.0.0.1:{port}/v1", home=tmp_path, embedder="none",
                  max_retries=0, timeout=5)
    try:
        with pytest.raises(ModelError, match="cannot reach"):
            agent.run_turn("hello?")
        agent.manager.flush(10.0)
        assert agent.manager.prefetch("hello", session_id="x") == ""
    finally:
        agent.close()
    with pytest.raises(SessionError, match="closed"):
        agent.run_turn("after close")


def test_nudge_after_n_turns_without_a_memory_write(tmp_path: Path) -> None:
    script = [OK, OK, OK, remember("User likes olives."), OK, OK, OK, OK]
    with running_agent(tmp_path, script, nudge_interval=2, flush_min_turns=100) as (agent, server):
        for i in range(1, 8):
            agent.run_turn(f"turn {i}")
        nudged = [i for i, r in enumerate(server.requests) if NUDGE_TEXT in last_user(r)]
        # requests: t1 t2 t3 t4(tool) t4 t5 t6 t7 -> the nudge is on t3 and t7 only
        assert nudged == [2, 7]
        stored = agent.sessions.messages(agent.session_id)
        assert all(NUDGE_TEXT not in (m.get("content") or "") for m in stored)


def test_flush_at_session_end_sees_only_the_memory_tool_and_leaves_no_messages(tmp_path: Path) -> None:
    flush_reply = remember("User is moving to Braga in March.")
    with running_agent(tmp_path, [OK, OK, flush_reply], flush_min_turns=2) as (agent, server):
        agent.run_turn("I'm moving to Braga.")
        agent.run_turn("In March.")
        sid = agent.session_id
        before = len(agent.sessions.messages(sid))
        agent.close()
        flush = server.requests[-1]
        assert [t["function"]["name"] for t in flush["tools"]] == ["memory"]
        assert flush["messages"][-1]["content"] == FLUSH_TEXT.format(why="closed")
        assert agent.sessions.path.exists()
    from silcrow.sessions import SessionStore
    from silcrow.store import MemoryStore

    assert MemoryStore(tmp_path).entries("user") == ["User is moving to Braga in March."]
    with SessionStore(tmp_path / "sessions.db") as sessions:
        assert len(sessions.messages(sid)) == before  # the flush exchange was not kept


def test_no_flush_for_a_short_session(tmp_path: Path) -> None:
    with running_agent(tmp_path, [OK], flush_min_turns=3) as (agent, server):
        agent.run_turn("just one thing")
        agent.new_session()
        assert len(server.requests) == 1


class NotingProvider(LocalProvider):
    """The real local provider, with a recognisable pre-compression note."""

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        return f"PROVIDER-NOTE: {len(messages)} messages seen; the user cares about gardening."


def test_compression_summarises_the_middle_with_the_provider_note(tmp_path: Path) -> None:
    provider = NotingProvider(tmp_path, embedder="none")
    texts = [f"Gardening question {i}: " + "how deep should I plant tulip bulbs? " * 8 for i in range(7)]
    with running_agent(tmp_path, provider=provider, flush_min_turns=2) as (agent, server):
        for text in texts[:6]:
            server.enqueue({"content": "About " + "ten centimetres, pointy end up. " * 6})
            agent.run_turn(text)
        assert not any(r["messages"][0]["content"].startswith("You compress") for r in server.requests)
        # Shrink the window so that the next turn's request crosses the threshold.
        size = estimate_tokens(server.requests[-1]["messages"], agent.tools)
        agent.context_window = int(0.8 * size / agent.compress_threshold)
        server.enqueue({"content": "nothing to save"},
                       {"content": "SUMMARY: the user asked about tulip bulbs repeatedly."},
                       {"content": "Plant them now."})
        agent.run_turn(texts[6])
        flush, summarise, answer = server.requests[-3:]
        assert flush["messages"][-1]["content"] == FLUSH_TEXT.format(why="compressed")
        assert summarise["messages"][0]["content"].startswith("You compress")
        assert "PROVIDER-NOTE" in summarise["messages"][1]["content"]
        assert "Gardening question 2" in summarise["messages"][1]["content"]  # the middle
        assert "Gardening question 0" not in summarise["messages"][1]["content"]  # not the head
        stored = agent.sessions.messages(agent.session_id)
        assert [m["content"][:20] for m in stored if m["role"] == "user"] == [
            texts[0][:20], SUMMARY_MARKER[:20], texts[4][:20], texts[5][:20], texts[6][:20]]
        summary = next(m for m in stored if m.get("summary"))
        assert "SUMMARY: the user asked" in summary["content"]
        sent = [m["content"] for m in answer["messages"]]
        assert sent[1] == texts[0] and summary["content"] in sent and sent[-1].startswith(texts[6])
        # the middle is gone from the conversation (recall may still bring parts back, fenced)
        assert "Gardening question 2" not in sanitize_context("".join(c or "" for c in sent))


def test_branch_and_resume_carry_history(tmp_path: Path) -> None:
    with running_agent(tmp_path, [{"content": "Nice, a Vespa."}, OK, OK]) as (agent, server):
        agent.run_turn("I ride a Vespa.")
        parent = agent.session_id
        child = agent.branch()
        assert child != parent
        assert agent.sessions.get(child).parent_id == parent
        agent.run_turn("branch-only message")
        assert any(m["content"] == "I ride a Vespa." for m in server.requests[-1]["messages"])
        assert agent.resume(parent[:-2]) == parent  # a unique prefix is enough
        agent.run_turn("back on the main line")
        contents = [m["content"] for m in server.requests[-1]["messages"]]
        assert "I ride a Vespa." in contents and "branch-only message" not in contents
        with pytest.raises(SessionError, match="no session"):
            agent.resume("no-such-session")


def test_session_end_hands_the_plain_transcript_to_the_provider(tmp_path: Path) -> None:
    with running_agent(tmp_path, replay_recall=True, flush_min_turns=100) as (agent, _):
        ended: list[list[dict[str, Any]]] = []
        original = agent.manager.on_session_end
        agent.manager.on_session_end = (  # type: ignore[method-assign]
            lambda messages: (ended.append(messages), original(messages))[-1])
        agent.run_turn("The lighthouse keeper is named Joaquim.")
        agent.new_session()
        agent.run_turn("What is the lighthouse keeper called?")
        agent.close()
        assert [[m["content"] for m in msgs] for msgs in ended] == [
            ["The lighthouse keeper is named Joaquim.", "ok"],
            ["What is the lighthouse keeper called?", "ok"],  # no recall block, even with replay on
        ]


def test_an_unavailable_provider_never_costs_the_curated_notes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # fastembed is not installed here: the local provider reports itself unavailable.
    script = [remember("User's bike is red."), {"content": "Saved."}]
    with running_agent(tmp_path, script, embedder="fastembed") as (agent, server):
        assert agent.provider is None
        assert "fastembed" in caplog.text and "continuing without long-term recall" in caplog.text
        assert [t["function"]["name"] for t in agent.tools] == ["memory", "session_search"]
        assert agent.run_turn("My bike is red.") == "Saved."
        assert agent.notes.entries("user") == ["User's bike is red."]
        assert all("<memory-context>" not in last_user(r) for r in server.requests)


def test_a_failed_automatic_compression_does_not_block_the_turn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with running_agent(tmp_path, flush_min_turns=100) as (agent, server):
        for i in range(6):
            agent.run_turn(f"message number {i} about the weather in Faro")
        agent.context_window = 10  # everything is over the threshold now
        server.enqueue({"error": {"status": 400, "message": "context too long for the summary"}},
                       {"content": "answered anyway"})
        assert agent.run_turn("and tomorrow?") == "answered anyway"
        assert "automatic compression failed" in caplog.text
        assert not any(m.get("summary") for m in agent.sessions.messages(agent.session_id))
        agent.run_turn("and the day after?")  # no new attempt right away
        summaries = [r for r in server.requests if r["messages"][0]["content"].startswith("You compress")]
        assert len(summaries) == 1  # only the one that failed


def test_a_session_left_without_a_message_is_not_kept(tmp_path: Path) -> None:
    with running_agent(tmp_path) as (agent, _server):
        empty = agent.session_id
        agent.new_session()  # nothing was said in the first one
        ids = [s.id for s in agent.sessions.list()]
        assert empty not in ids and agent.session_id in ids
        agent.run_turn("hello there")
        kept = agent.session_id
        agent.new_session()
        last_empty = agent.session_id
    with running_agent(tmp_path) as (agent, _server):
        listed = [s.id for s in agent.sessions.list()]
        assert kept in listed and last_empty not in listed  # close() dropped the empty one too
