"""LangMem's memory tools over SilcrowStore, in a real LangGraph agent run: the prebuilt ReAct
agent with langchain-openai's chat model, talking to a loopback chat-completions stand-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent
from langmem import create_manage_memory_tool, create_search_memory_tool

from silcrow.integrations.langgraph import SilcrowStore
from silcrow.testing import ScriptedModelServer


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    (path / "config.toml").write_text('provider = "none"\n', encoding="utf-8")
    return path


def _tool_texts(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "tool"]


def test_manage_and_search_memory_over_silcrow_store(home: Path) -> None:
    namespace = ("memories", "{user_id}")
    fact = "Sam prefers green tea in the morning."
    script = [_call("manage_memory", {"content": fact, "action": "create"}),
              _call("search_memory", {"query": "what does the user drink in the morning"}),
              {"content": "Green tea."},
              _call("search_memory", {"query": "what does the user drink in the morning"}),
              {"content": "I don't know yet."}]
    with SilcrowStore(home=home) as store, ScriptedModelServer(script) as api:
        tools = [create_manage_memory_tool(namespace=namespace, store=store),
                 create_search_memory_tool(namespace=namespace, store=store)]
        model = ChatOpenAI(model="gpt-test", base_url=api.base_url, api_key="test-key", max_retries=0)
        agent = create_react_agent(model, tools=tools, store=store)
        asked = {"messages": [{"role": "user", "content": "I drink green tea every morning."}]}
        done = agent.invoke(asked, config={"configurable": {"user_id": "sam"}})
        assert done["messages"][-1].content == "Green tea."
        found = _tool_texts(api.requests[2])[-1]
        assert "Sam prefers green tea in the morning." in found
        # another user's namespace holds nothing of Sam's
        agent.invoke(asked, config={"configurable": {"user_id": "alex"}})
        assert "green tea" not in _tool_texts(api.requests[4])[-1]
        assert api.remaining == 0
        items = store.search(("memories", "sam"))
        assert [item.value["content"] for item in items] == ["Sam prefers green tea in the morning."]
        assert store.search(("memories", "alex")) == []
    with SilcrowStore(home=home) as reopened:  # kept in the profile, not in the process
        hits = reopened.search(("memories", "sam"), query="morning drink")
        assert hits and hits[0].value["content"] == "Sam prefers green tea in the morning."
