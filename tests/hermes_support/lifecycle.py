"""Run inside the hermes-agent virtualenv: Hermes's own loader and MemoryManager drive the plugin.

    python lifecycle.py HERMES_HOME

Prints one JSON object of observations for test_hermes_real.py. A recording proxy sits
between the bridge and silcrow's real provider only to list which silcrow hooks each Hermes
call reached; every call still goes to the real LocalProvider.
"""

from __future__ import annotations

import json
import sys
from typing import Any

hermes_home = sys.argv[1]

from agent.memory_manager import MemoryManager, build_memory_context_block  # noqa: E402
from agent.memory_provider import MemoryProvider  # noqa: E402
from plugins.memory import discover_memory_providers, load_memory_provider  # noqa: E402

from silcrow.integrations.hermes import HermesBridge  # noqa: E402

reached: list[str] = []


class Recording:
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            reached.append(name)
            return value(*args, **kwargs)

        return call


def session(session_id: str, **init: Any) -> tuple[MemoryManager, Any]:
    provider = load_memory_provider("silcrow")
    assert provider is not None, "Hermes's loader returned None"
    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize_all(session_id=session_id, platform="cli", **init)
    provider._recall = Recording(provider._recall)  # noqa: SLF001 - see module docstring
    return manager, provider


out: dict[str, Any] = {}
out["discovered"] = [list(row) for row in discover_memory_providers() if row[0] == "silcrow"]
manager, provider = session("s1", agent_context="primary")
out["class"] = [c.__module__ + "." + c.__name__ for c in type(provider).__mro__[:3]]
out["is_hermes_provider"] = isinstance(provider, MemoryProvider) and isinstance(provider, HermesBridge)
out["system_prompt"] = manager.build_system_prompt()
manager.on_turn_start(1, "My sister Ana moved to Porto last spring.")
out["prefetch_empty"] = manager.prefetch_all("My sister Ana moved to Porto last spring.", session_id="s1")
messages = [{"role": "user", "content": "My sister Ana moved to Porto last spring."},
            {"role": "assistant", "content": "Noted: Ana lives in Porto now."}]
manager.sync_all(messages[0]["content"], messages[1]["content"], session_id="s1", messages=messages)
manager.queue_prefetch_all("My sister Ana moved to Porto last spring.", session_id="s1")
out["flushed"] = manager.flush_pending(timeout=60)
schemas = manager.get_all_tool_schemas()
out["tool_names"] = sorted(s["name"] for s in schemas)
out["tool_result"] = json.loads(manager.handle_tool_call("recall_search", {"query": "Ana Porto"}))
manager.notify_memory_tool_write(json.dumps({"success": True}),
                                 {"action": "add", "target": "user", "content": "User's sister is Ana."})
out["pre_compress"] = manager.on_pre_compress(messages)
manager.on_delegation("Find Ana's new address format", "Porto addresses use 4-digit codes",
                      child_session_id="child-1")
manager.on_session_switch("s1b", parent_session_id="s1", reset=False)
manager.commit_session_boundary_async(messages, new_session_id="s1c", parent_session_id="s1b")
out["flushed_again"] = manager.flush_pending(timeout=60)
manager.on_session_end(messages)
manager.shutdown_all()
out["reached_session_1"] = sorted(set(reached))
reached.clear()

# A subagent's session reads but must not write.
sub, _ = session("sub-1", agent_context="subagent", parent_session_id="s1")
sub.sync_all("Subagent scratch: Quokka-7 is a test fixture.", "ok", session_id="sub-1")
sub.flush_pending(timeout=60)
sub.shutdown_all()

# Session 2, a new manager and provider as after a restart: the session-1 turn comes back.
manager, provider = session("s2", agent_context="primary")
manager.on_turn_start(1, "Where does my sister live now?")
raw = manager.prefetch_all("Where does my sister live now?", session_id="s2")
out["prefetch_session_2"] = raw
out["fenced"] = build_memory_context_block(raw)
out["subagent_write_recalled"] = manager.prefetch_all("What is Quokka-7?", session_id="s2")
manager.shutdown_all()
out["reached_session_2"] = sorted(set(reached))
print(json.dumps(out))
