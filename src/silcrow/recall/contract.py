"""A reusable contract check that any MemoryProvider's tests can run.

Third-party providers run it from their own test suite (it imports no test
framework)::

    from silcrow.recall.contract import check_provider_contract

    def test_my_provider_keeps_the_contract(tmp_path):
        check_provider_contract(MyProvider(home=tmp_path), tmp_path)

It drives every hook with ordinary inputs, checks the shapes the rest of
silcrow relies on (types, OpenAI tool schemas, JSON tool results), checks
``is_available`` does not open a network connection, and checks the
provider also works behind a real :class:`MemoryManager`. It raises
AssertionError with a description of the first broken rule (explicitly,
not with ``assert`` statements, so the checks also run under ``python -O``).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any
from unittest import mock

from silcrow.recall import MemoryManager, MemoryProvider

SESSION = "contract-session"
TRANSCRIPT: list[dict[str, Any]] = [
    {"role": "user", "content": "I moved to Lyon last spring and I like green tea."},
    {"role": "assistant", "content": "Noted: Lyon since last spring, green tea."},
]


def _require(condition: object, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _returns_none(value: object, hook: str) -> None:
    _require(value is None, f"{hook}() must return None, got {type(value).__name__}")


def _sample_value(spec: dict[str, Any]) -> Any:
    kind = spec.get("type")
    if "enum" in spec and spec["enum"]:
        return spec["enum"][0]
    return {"integer": 3, "number": 1.0, "boolean": False, "array": [], "object": {}}.get(
        kind if isinstance(kind, str) else "string", "green tea"
    )


def _check_schema(schema: Any) -> str:
    _require(isinstance(schema, dict), f"tool schema must be a dict, got {type(schema).__name__}")
    _require(schema.get("type") == "function", f"tool schema needs type 'function': {schema}")
    fn = schema.get("function")
    _require(isinstance(fn, dict), f"tool schema needs a 'function' object: {schema}")
    name = fn.get("name")
    _require(isinstance(name, str) and name.replace("_", "").isalnum(), f"bad tool name {name!r}")
    _require(isinstance(fn.get("description"), str) and fn["description"].strip(), f"{name}: no description")
    params = fn.get("parameters")
    _require(isinstance(params, dict) and params.get("type") == "object", f"{name}: parameters not an object")
    props = params.get("properties", {})
    _require(isinstance(props, dict), f"{name}: properties must be a dict")
    for req in params.get("required", []):
        _require(req in props, f"{name}: required parameter {req!r} is not in properties")
    return name


def _json_object(text: Any, what: str) -> dict[str, Any]:
    _require(isinstance(text, str), f"{what} must return a JSON string, got {type(text).__name__}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{what} must return JSON, got {text[:80]!r} ({exc})") from exc
    _require(isinstance(value, dict), f"{what} must return a JSON object, got {text[:80]!r}")
    return value


def check_provider_contract(provider: MemoryProvider, tmp_home: Path) -> None:
    """Exercise every hook of ``provider`` (whose data lives in ``tmp_home``)."""
    _require(isinstance(provider, MemoryProvider), "providers subclass silcrow.recall.MemoryProvider")
    _require(isinstance(provider.name, str) and provider.name, "provider.name must be a non-empty str")

    def no_network(*_a: Any, **_k: Any) -> None:
        raise AssertionError(f"{provider.name}.is_available() tried to use the network")

    with mock.patch.object(socket.socket, "connect", no_network), \
            mock.patch.object(socket, "create_connection", no_network):
        available = provider.is_available()
    _require(isinstance(available, bool), "is_available() must return a bool")
    hooks: Any = provider  # typed "-> None"; a plugin may still return something
    if not available:
        reason = provider.unavailable_reason()
        _require(isinstance(reason, str) and reason, "an unavailable provider must say why")
        return

    _returns_none(
        hooks.initialize(SESSION, home=tmp_home, user_id="u1", agent_id="a1", platform="cli"), "initialize"
    )
    block = provider.system_prompt_block()
    _require(isinstance(block, str), "system_prompt_block() must return str")
    _require(provider.system_prompt_block() == block, "system_prompt_block() must be static")

    schemas = provider.get_tool_schemas()
    _require(isinstance(schemas, list), "get_tool_schemas() must return a list")
    names = [_check_schema(s) for s in schemas]
    _require(len(names) == len(set(names)), f"duplicate tool names: {names}")

    unknown = _json_object(provider.handle_tool_call("__no_such_tool__", {}), "handle_tool_call(unknown)")
    _require(unknown.get("success") is False or "error" in unknown, "unknown tools must give an error object")

    user, assistant = TRANSCRIPT[0]["content"], TRANSCRIPT[1]["content"]
    _returns_none(hooks.sync_turn(user, assistant, session_id=SESSION), "sync_turn")
    _returns_none(hooks.on_memory_write("add", "user", "User likes green tea"), "on_memory_write")
    _returns_none(hooks.queue_prefetch("where does the user live?", session_id=SESSION), "queue_prefetch")
    recalled = provider.prefetch("where does the user live?", session_id=SESSION)
    _require(isinstance(recalled, str), "prefetch() must return str")
    _require(isinstance(provider.prefetch("", session_id=SESSION), str), "prefetch('') must return str")

    for schema in schemas:
        fn = schema["function"]
        props = fn["parameters"].get("properties", {})
        args = {key: _sample_value(spec) for key, spec in props.items() if isinstance(spec, dict)}
        _json_object(provider.handle_tool_call(fn["name"], args), f"handle_tool_call({fn['name']!r})")

    compressed = provider.on_pre_compress(TRANSCRIPT)
    _require(isinstance(compressed, str), "on_pre_compress() must return str")
    _returns_none(hooks.on_session_end(TRANSCRIPT), "on_session_end")

    # Behind a real manager: the same provider answers through the fence.
    manager = MemoryManager(prefetch_timeout=30.0)
    manager.add_provider(provider)
    manager.sync_turn("My sister is called Ana.", "I'll remember Ana.", session_id=SESSION)
    _require(manager.flush(timeout=60), "queued sync_turn did not finish within 60 s")
    fenced = manager.prefetch("what is my sister called?", session_id=SESSION)
    _require(fenced == "" or fenced.startswith("<memory-context>"), f"unexpected prefetch: {fenced[:80]!r}")
    _json_object(manager.handle_tool_call("__no_such_tool__", {}), "manager.handle_tool_call")
    _require(manager.shutdown(timeout=60), "shutdown did not drain within 60 s")

    provider.shutdown()  # already shut down by the manager: must be idempotent
    provider.shutdown()
