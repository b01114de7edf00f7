"""A reusable contract check that any MemoryProvider's tests can run.

Third-party providers run it from their own test suite (it imports no test
framework)::

    from silcrow.recall.contract import check_provider_contract

    def test_my_provider_keeps_the_contract(tmp_path):
        check_provider_contract(MyProvider(home=tmp_path), tmp_path)

It drives every hook with ordinary inputs, checks the shapes the rest of
silcrow relies on (types; typed tools: :class:`~silcrow.recall.ToolSpec` values
whose answers are typed and make valid tool JSON at the edge; the typed recall
``search``, and ``remember`` / ``forget`` when the provider offers them), checks
``is_available`` does not open a network connection, and checks the
provider also works behind a real :class:`MemoryManager`. Each hook is
called on a fresh thread, never the one that built the provider, because
that is how the manager calls them: a provider that is not thread-safe
(say, one holding an ``sqlite3`` connection made in its constructor) fails
here instead of on the first real turn. It raises
AssertionError with a description of the first broken rule (explicitly,
not with ``assert`` statements, so the checks also run under ``python -O``).
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any
from unittest import mock

from silcrow.recall import (
    Answer,
    Forgotten,
    Found,
    MemoryManager,
    MemoryProvider,
    Remembered,
    ToolResult,
    ToolSpec,
    answer_dict,
    as_openai_tool,
)
from silcrow.recall._tools import typed_tools

__all__ = [
    "check_provider_contract",
]

SESSION = "contract-session"
HOOK_TIMEOUT = 120.0
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


def _on_other_thread(provider: MemoryProvider, hook: str, fn: Any) -> Any:
    """``fn()`` run on a new thread, as the manager runs hooks; errors become AssertionErrors."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # reported on the caller's thread below
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"contract-{hook}", daemon=True)
    worker.start()
    worker.join(HOOK_TIMEOUT)
    _require(not worker.is_alive(), f"{provider.name}.{hook}() did not return within {HOOK_TIMEOUT:.0f} s")
    error = box.get("error")
    if isinstance(error, AssertionError):
        raise error
    if isinstance(error, BaseException):
        hint = ""
        if "thread" in str(error).lower():
            hint = (" It failed on a thread other than the one that constructed the provider: "
                    "MemoryManager calls hooks from its own threads, so the provider must be "
                    "thread-safe (e.g. open sqlite3 connections with check_same_thread=False and "
                    "a lock, or one connection per thread).")
        raise AssertionError(
            f"{provider.name}.{hook}() raised {type(error).__name__}: {error}.{hint}"
        ) from error
    return box.get("value")


def _check_schema(raw: Any) -> dict[str, Any]:
    """The schema in OpenAI function format (bare ones wrapped), after checking its shape."""
    _require(isinstance(raw, dict), f"tool schema must be a dict, got {type(raw).__name__}")
    schema = as_openai_tool(raw)
    if schema is None:
        raise AssertionError("tool schema needs a name, in OpenAI function format or the bare "
                             f"name/description/parameters format: {raw}")
    fn = schema["function"]
    name = fn.get("name")
    _require(isinstance(name, str) and name.replace("_", "").isalnum(), f"bad tool name {name!r}")
    _require(isinstance(fn.get("description"), str) and fn["description"].strip(), f"{name}: no description")
    params = fn.get("parameters")
    _require(isinstance(params, dict) and params.get("type") == "object", f"{name}: parameters not an object")
    props = params.get("properties", {})
    _require(isinstance(props, dict), f"{name}: properties must be a dict")
    for req in params.get("required", []):
        _require(req in props, f"{name}: required parameter {req!r} is not in properties")
    return schema


def _json_object(text: Any, what: str) -> dict[str, Any]:
    _require(isinstance(text, str), f"{what} must return a JSON string, got {type(text).__name__}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{what} must return JSON, got {text[:80]!r} ({exc})") from exc
    _require(isinstance(value, dict), f"{what} must return a JSON object, got {text[:80]!r}")
    return value


def _check_typed_recall(provider: MemoryProvider, call: Any, specs: list[ToolSpec]) -> None:
    """``search`` answers a ``Found``; when the provider offers ``recall_add`` and
    ``recall_forget`` (listed with their own specs, or as tools of its own), a fact it remembers
    is found by its id and forgotten by it."""
    found = call("search", "red kite quarry", 5)
    _require(isinstance(found, Found), f"search() must return a Found, got {type(found).__name__}")
    names = {spec.name for spec in specs}
    if not {"recall_add", "recall_forget"} <= names:
        return
    fact = "The contract check's probe: the red kite nests in the old quarry."
    kept = call("remember", fact, source="contract")
    _require(isinstance(kept, Remembered) and isinstance(kept.id, int) and not isinstance(kept.id, bool),
             f"remember() must return a Remembered with an int id, got {kept!r}")
    if {"recall_add", "recall_search"} <= set(typed_tools(specs)):  # hits of its own store: the fact is there
        found = call("search", "red kite quarry", 5)
        _require(isinstance(found, Found), f"search() must return a Found, got {type(found).__name__}")
        for hit in found.hits:
            _require(all(hasattr(hit, f) for f in ("id", "text", "kind", "session_id", "speaker", "to_dict")),
                     f"search() must return RecallHit values, got {hit!r:.80}")
        _require(any(hit.id == kept.id for hit in found.hits),
                 "search() did not find the fact remember() just kept")
    removed = call("forget", kept.id)
    _require(isinstance(removed, Forgotten) and removed.removed == 1,
             f"forget(id) of the fact just kept must remove 1 memory, got {removed!r}")


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

    def call(hook: str, *args: Any, **kwargs: Any) -> Any:
        return _on_other_thread(provider, hook, lambda: getattr(hooks, hook)(*args, **kwargs))

    _returns_none(
        call("initialize", SESSION, home=tmp_home, user_id="u1", agent_id="a1", platform="cli"), "initialize"
    )
    block = call("system_prompt_block")
    _require(isinstance(block, str), "system_prompt_block() must return str")
    _require(call("system_prompt_block") == block, "system_prompt_block() must be static")

    specs = call("tool_specs")
    _require(isinstance(specs, list | tuple), "tool_specs() must return a list of ToolSpec")
    for spec in specs:
        _require(isinstance(spec, ToolSpec), f"tool_specs() must return ToolSpec values, got {spec!r:.80}")
    schemas = [_check_schema(as_openai_tool(spec)) for spec in specs]
    names = [s["function"]["name"] for s in schemas]
    _require(len(names) == len(set(names)), f"duplicate tool names: {names}")

    def tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The result object the model reads of one call (checking the typed answer first)."""
        what = f"call_tool({name!r})"
        answer = call("call_tool", name, args)
        _require(isinstance(answer, Answer), f"{what} must return a ToolResult (or Found, Remembered, "
                                             f"Forgotten), got {type(answer).__name__}")
        if isinstance(answer, ToolResult):
            _require(answer.error is None or isinstance(answer.error, str), f"{what}: error must be str")
        try:
            # Strict: at run time the edge writes a value JSON has no type for as its text, but a
            # provider keeping the contract answers in JSON's own types.
            return _json_object(json.dumps(answer_dict(answer), ensure_ascii=False), what)
        except (TypeError, ValueError) as exc:
            raise AssertionError(f"{what} answered what JSON cannot hold ({exc}); keep to strings, "
                                 "numbers, booleans, None, lists and dicts") from exc

    unknown = tool("__no_such_tool__", {})
    _require(unknown.get("success") is False or "error" in unknown, "unknown tools must give an error object")

    user, assistant = TRANSCRIPT[0]["content"], TRANSCRIPT[1]["content"]
    _returns_none(call("on_turn_start", 1, user), "on_turn_start")
    _returns_none(call("sync_turn", user, assistant, session_id=SESSION), "sync_turn")
    _returns_none(call("on_memory_write", "add", "user", "User likes green tea"), "on_memory_write")
    _returns_none(call("queue_prefetch", "where does the user live?", session_id=SESSION), "queue_prefetch")
    _returns_none(call("on_turn_start", 2, "where does the user live?"), "on_turn_start")
    recalled = call("prefetch", "where does the user live?", session_id=SESSION)
    _require(isinstance(recalled, str), "prefetch() must return str")
    _require(isinstance(call("prefetch", "", session_id=SESSION), str), "prefetch('') must return str")

    for schema in schemas:
        fn = schema["function"]
        props = fn["parameters"].get("properties", {})
        args = {key: _sample_value(spec) for key, spec in props.items() if isinstance(spec, dict)}
        tool(fn["name"], args)

    _check_typed_recall(provider, call, list(specs))  # what the manager answers recall_* with

    compressed = call("on_pre_compress", TRANSCRIPT)
    _require(isinstance(compressed, str), "on_pre_compress() must return str")
    _returns_none(call("on_session_end", TRANSCRIPT), "on_session_end")

    # Behind a real manager: the same provider answers through the fence.
    manager = MemoryManager.of(provider, initialize=False, available_only=False, prefetch_timeout=30.0)
    manager.on_turn_start(3, "My sister is called Ana.")
    manager.sync_turn("My sister is called Ana.", "I'll remember Ana.", session_id=SESSION)
    _require(manager.flush(timeout=60), "queued sync_turn did not finish within 60 s")
    fenced = manager.prefetch("what is my sister called?", session_id=SESSION)
    _require(fenced == "" or fenced.startswith("<memory-context>"), f"unexpected prefetch: {fenced[:80]!r}")
    _json_object(manager.handle_tool_call("__no_such_tool__", {}), "manager.handle_tool_call")
    _require(manager.shutdown(timeout=60), "shutdown did not drain within 60 s")

    call("shutdown")  # already shut down by the manager: must be idempotent
    call("shutdown")
