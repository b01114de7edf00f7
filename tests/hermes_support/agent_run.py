"""Run inside the hermes-agent virtualenv: two whole Hermes agent sessions against the stand-in.

    python agent_run.py HERMES_HOME

Session 1: the user states a fact; Hermes's agent answers through silcrow's scripted
OpenAI-compatible server (the only stand-in: no hosted model here) and syncs the turn to the
silcrow plugin. Session 2, a new agent: the user asks about it. Prints JSON with the user
message Hermes sent to the model in session 2 (where the recalled context must appear).
"""

from __future__ import annotations

import json
import sys

from silcrow.testing import ScriptedModelServer

hermes_home = sys.argv[1]

from run_agent import AIAgent  # noqa: E402


def run(server: ScriptedModelServer, session_id: str, text: str) -> dict[str, object]:
    agent = AIAgent(base_url=server.base_url, api_key="sk-stand-in", model="stand-in", provider="custom",
                    quiet_mode=True, skip_context_files=True, session_id=session_id,
                    enabled_toolsets=["memory"], max_iterations=4, platform="cli")
    result = agent.run_conversation(text)
    messages = result.get("messages") or []
    if agent._memory_manager is not None:  # noqa: SLF001 - how Hermes's CLI ends a session
        agent._memory_manager.flush_pending(timeout=60)  # noqa: SLF001
    agent.shutdown_memory_provider(messages)
    return {"final": result.get("final_response"), "provider_active": agent._memory_manager is not None}  # noqa: SLF001


# Session 2's model also calls silcrow's recall_search tool through Hermes's tool dispatch.
script = [{"content": "Noted: your sister Ana lives in Porto."},
          {"tool_calls": [{"name": "recall_search", "arguments": {"query": "sister Ana"}}]},
          {"content": "She lives in Porto."}]
with ScriptedModelServer(script, default={"content": "ok"}) as server:
    first = run(server, "hermes-session-1", "Remember this: my sister Ana moved to Porto last spring.")
    second = run(server, "hermes-session-2", "Where does my sister Ana live now?")
    requests = server.requests
last_users = [[m for m in r["messages"] if m["role"] == "user"][-1]["content"] for r in requests]
tools = [sorted(t["function"]["name"] for t in r.get("tools") or []) for r in requests]
tool_results = [m["content"] for r in requests for m in r["messages"] if m["role"] == "tool"]
print(json.dumps({"first": first, "second": second, "last_user_messages": last_users,
                  "tools": tools, "tool_results": tool_results, "requests": len(requests)}))
