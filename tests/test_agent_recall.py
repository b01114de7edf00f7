"""Recall: prefetched once per user turn, fenced, on the API copy of the user message only;
replay_recall stores the exact block beside the message and sends it again verbatim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_support import call, last_user, running_agent

from silcrow.agent import Agent
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN

EARLIER = "My sourdough starter is called Gerald and I feed it rye flour every morning."


def _seed_earlier_session(agent: Agent) -> None:
    agent.run_turn(EARLIER)
    agent.run_turn("The bakery course I take is on Thursdays in Lisbon.")
    agent.manager.flush(10.0)  # sync_turn is background; wait for it before the next session
    agent.new_session()


def _count_prefetch(agent: Agent) -> list[str]:
    seen: list[str] = []
    original = agent.manager.prefetch

    def counting(query: str, session_id: str = "", **kwargs: Any) -> str:
        seen.append(query)
        return original(query, session_id=session_id, **kwargs)

    agent.manager.prefetch = counting  # type: ignore[method-assign]
    return seen


def test_recall_is_fenced_on_the_api_copy_and_prefetched_once(tmp_path: Path) -> None:
    with running_agent(tmp_path, flush_min_turns=100) as (agent, server):
        _seed_earlier_session(agent)
        queries = _count_prefetch(agent)
        server.enqueue(call("session_search", query="unrelated words"), {"content": "Gerald, yes."})
        start = len(server.requests)
        question = "What is my sourdough starter called again?"
        reply = agent.run_turn(question)
        assert reply == "Gerald, yes."
        requests = server.requests[start:]
        assert len(requests) == 2  # the tool round trip and the answer
        assert queries == [question]  # once per user turn, not per model call
        sent = last_user(requests[0])
        assert sent.startswith(question + "\n\n" + FENCE_OPEN)
        assert sent.rstrip().endswith(FENCE_CLOSE)
        assert "Gerald" in sent and "NOT new user input" in sent
        assert last_user(requests[1]) == sent  # reused across the iterations of the turn
        stored = [m for m in agent.sessions.messages(agent.session_id) if m["role"] == "user"]
        assert [m["content"] for m in stored] == [question]  # the transcript holds the user's words
        assert FENCE_OPEN not in json.dumps(stored[0]["content"])


def test_replay_on_stores_block_and_keeps_the_previous_request_a_prefix(tmp_path: Path) -> None:
    with running_agent(tmp_path, replay_recall=True, flush_min_turns=100) as (agent, server):
        _seed_earlier_session(agent)
        start = len(server.requests)
        agent.run_turn("Tell me about my sourdough starter.")
        agent.run_turn("And which day is the bakery course?")
        first, second = server.requests[start:start + 2]
        block = last_user(first).split("\n\n", 1)[1]
        assert block.startswith(FENCE_OPEN)
        stored = agent.sessions.messages(agent.session_id)
        assert stored[0]["content"] == "Tell me about my sourdough starter."
        assert stored[0]["recall_block"] == block
        # the second request starts with every message of the first, byte for byte
        assert second["messages"][:len(first["messages"])] == first["messages"]


def test_replay_sends_each_memory_once_while_its_block_is_replayed(tmp_path: Path) -> None:
    with running_agent(tmp_path, replay_recall=True, flush_min_turns=100) as (agent, server):
        _seed_earlier_session(agent)
        start = len(server.requests)
        agent.run_turn("Tell me about my sourdough starter Gerald.")
        agent.run_turn("What does Gerald, my sourdough starter, eat?")
        first, second = server.requests[start:start + 2]
        assert EARLIER in last_user(first)
        # still visible in the replayed first block, so the second block does not repeat it
        assert EARLIER not in last_user(second)
        assert EARLIER in json.dumps(second["messages"][:-1])


def test_replay_off_stores_nothing_and_sends_past_messages_plain(tmp_path: Path) -> None:
    with running_agent(tmp_path, replay_recall=False, flush_min_turns=100) as (agent, server):
        _seed_earlier_session(agent)
        start = len(server.requests)
        agent.run_turn("Tell me about my sourdough starter.")
        agent.run_turn("And which day is the bakery course?")
        first, second = server.requests[start:start + 2]
        assert FENCE_OPEN in last_user(first)
        stored = agent.sessions.messages(agent.session_id)
        assert "recall_block" not in stored[0]
        past = [m for m in second["messages"] if m["role"] == "user"][0]
        assert past["content"] == "Tell me about my sourdough starter."  # no block replayed
        assert FENCE_OPEN in last_user(second)  # the current message still gets its recall


def test_recall_with_the_real_onnx_embedder(tmp_path: Path) -> None:
    """The default embedder end to end: a paraphrase with little word overlap is recalled."""
    with running_agent(tmp_path, embedder="onnx", flush_min_turns=100) as (agent, server):
        _seed_earlier_session(agent)
        start = len(server.requests)
        agent.run_turn("What name did I give the yeast culture for my bread?")
        sent: Any = last_user(server.requests[start])
        assert FENCE_OPEN in sent and "Gerald" in sent


def test_a_branch_does_not_recall_the_history_it_carries(tmp_path: Path) -> None:
    with running_agent(tmp_path, flush_min_turns=100) as (agent, server):
        agent.run_turn("The lighthouse keeper on Berlenga island is named Joaquim.")
        agent.run_turn("Joaquim has kept the Berlenga lighthouse for twenty years.")
        agent.manager.flush(10.0)
        agent.branch()
        start = len(server.requests)
        agent.run_turn("Who keeps the lighthouse on Berlenga?")
        sent = server.requests[start]
        assert FENCE_OPEN not in last_user(sent)  # the branch shows those turns already
        assert any("Joaquim" in (m.get("content") or "") for m in sent["messages"][:-1])
        agent.new_session()  # a later, unrelated session does recall them
        start = len(server.requests)
        agent.run_turn("Who keeps the lighthouse on Berlenga?")
        assert "Joaquim" in last_user(server.requests[start])


def test_assistant_text_beside_tool_calls_is_stored_without_fence_spans(tmp_path: Path) -> None:
    script = [{"content": "Saving <memory-context>LEAKED-RECALL</memory-context> now.",
               "tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                               "content": "User likes figs."}}]},
              {"content": "Saved."}]
    with running_agent(tmp_path, script, flush_min_turns=100) as (agent, _server):
        agent.run_turn("I like figs, remember that.")
        stored = agent.sessions.messages(agent.session_id)
        assert "LEAKED-RECALL" not in json.dumps(stored)
        assert any(m.get("tool_calls") and m["content"] == "Saving  now." for m in stored)


def test_a_resumed_compressed_session_recalls_what_only_its_summary_keeps(tmp_path: Path) -> None:
    facts = ["The boat is moored at pier seven in Cascais.", "My cousin Ines plays the cello.",
             "The attic needs new insulation panels.", "Our wifi router sits behind the bookshelf.",
             "The bakery on Rua Augusta opens at six.", "I renewed my passport in March.",
             "The tram to Belem leaves every twelve minutes.", "My bike has a squeaky rear brake."]
    with running_agent(tmp_path, flush_min_turns=100) as (agent, server):
        for fact in facts:
            agent.run_turn(fact)
        agent.manager.flush(10.0)
        server.enqueue({"content": "SUMMARY: small talk about the user's week."})
        assert agent.compress()
        session = agent.session_id
        kept = [m["content"] for m in agent.messages if m["role"] == "user"]
    assert facts[1] not in kept and facts[-1] in kept  # the middle went into the summary
    with running_agent(tmp_path, session_id=session, flush_min_turns=100) as (agent, server):
        agent.run_turn("Which instrument does my cousin Ines play?")
        sent = last_user(server.requests[-1])
        assert "cello" in sent.split(FENCE_OPEN, 1)[-1]  # summarised away, so recalled again
        agent.run_turn("What is wrong with my bike brake?")
        assert "squeaky" not in last_user(server.requests[-1])  # still in the transcript: not recalled


def test_a_branch_recalls_what_its_parent_said_after_the_fork(tmp_path: Path) -> None:
    with running_agent(tmp_path, flush_min_turns=100) as (agent, server):
        agent.run_turn("The lighthouse keeper on Berlenga island is named Joaquim.")
        parent = agent.session_id
        agent.manager.flush(10.0)
        child = agent.branch()
        agent.resume(parent)  # the parent goes on without the branch
        agent.run_turn("Joaquim's lighthouse got a new foghorn from Sweden.")
        agent.manager.flush(10.0)
        agent.resume(child)
        start = len(server.requests)
        agent.run_turn("Where did the Berlenga lighthouse foghorn come from?")
        block = last_user(server.requests[start]).split(FENCE_OPEN, 1)[-1]
        assert "Sweden" in block  # said in the parent after the fork: news to the branch
        assert "is named Joaquim" not in block  # carried into the branch's own history


def test_resuming_the_current_session_reloads_it(tmp_path: Path) -> None:
    with running_agent(tmp_path, flush_min_turns=100) as (agent, _server):
        empty = agent.session_id
        assert agent.resume(empty) == empty  # an empty current session is not ended and dropped
        assert agent.sessions.get(empty).id == empty
        agent.run_turn("hello again")
        assert agent.session_id == empty
