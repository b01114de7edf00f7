"""SilcrowMemoryBlock in a real LlamaIndex run: a SimpleChatEngine over llama_index's Memory,
its chat requests sent to a loopback chat-completions stand-in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.memory import BaseMemoryBlock, Memory
from llm_standins import ChatCompletionsLLM

from silcrow.home import open_profile
from silcrow.integrations.llama_index import SilcrowMemoryBlock
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN
from silcrow.testing import ScriptedModelServer


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "config.toml").write_text('provider = "local"\n', encoding="utf-8")
    return path


@pytest.fixture
def api() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(default={"content": "ok"}) as server:
        yield server


def _system(request: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")


def _engine(block: SilcrowMemoryBlock, api: ScriptedModelServer, session_id: str,
            **memory: Any) -> SimpleChatEngine:
    held = Memory.from_defaults(session_id=session_id, memory_blocks=[block], **memory)
    return SimpleChatEngine.from_defaults(llm=ChatCompletionsLLM(base_url=api.base_url), memory=held)


def test_notes_and_fenced_recall_reach_the_prompt(home: Path, api: ScriptedModelServer) -> None:
    profile = open_profile(home, None)
    profile.store().add("user", "The user is called Sam.")
    block = SilcrowMemoryBlock(profile)
    assert isinstance(block, BaseMemoryBlock) and block.name == "silcrow"
    block.memory.manager().remember("The greenhouse door sticks in winter.")
    api.enqueue({"content": "The greenhouse door."})
    answer = _engine(block, api, "sam-1").chat("Which door is hard to open when it is cold?")
    assert str(answer) == "The greenhouse door."
    system = _system(api.requests[0])
    assert "The user is called Sam." in system
    fenced = system[system.index(FENCE_OPEN):system.index(FENCE_CLOSE)]
    assert "greenhouse door sticks in winter" in fenced
    assert system.count("greenhouse door") == 1  # recalled text only inside the fence
    block.close()


def test_flushed_turns_go_to_recall_under_the_session(home: Path, api: ScriptedModelServer) -> None:
    block = SilcrowMemoryBlock(home=home)
    # A window of a few dozen tokens: each new turn flushes the earlier ones into the block.
    engine = _engine(block, api, "sam-2", token_limit=60, token_flush_size=20, chat_history_token_ratio=0.5)
    api.enqueue({"content": "Noted, the kiln fires at 1240 degrees."}, {"content": "Cone six, then."},
                {"content": "Glad to help."})
    engine.chat("My pottery kiln fires at 1240 degrees celsius for stoneware glazes.")
    engine.chat("Which cone is that for my stoneware glazes and clay bodies?")
    engine.chat("Thanks a lot for the help with the kiln and the glazes today.")
    block.close()
    found = SilcrowMemoryBlock(home=home).memory.manager().search("what temperature does the kiln fire at")
    texts = [hit.text for hit in found.hits]
    assert any("1240 degrees" in text for text in texts), texts


def test_two_profiles_stay_apart(home: Path, api: ScriptedModelServer) -> None:
    alice, bob = open_profile(home, "alice", create=True), open_profile(home, "bob", create=True)
    alice.store().add("user", "Alice's locker code is 4417.")
    alice_block, bob_block = SilcrowMemoryBlock(alice), SilcrowMemoryBlock(bob)
    alice_block.memory.manager().remember("Alice parks on level 3 of the garage.")
    _engine(bob_block, api, "bob-1").chat("Where do I park in the garage, and what is my locker code?")
    _engine(alice_block, api, "alice-1").chat("Where do I park in the garage, and what is my locker code?")
    bob_prompt, alice_prompt = (_system(r) for r in api.requests)
    assert "4417" not in bob_prompt and "level 3" not in bob_prompt
    assert "4417" in alice_prompt and "level 3" in alice_prompt
    alice_block.close()
    bob_block.close()
