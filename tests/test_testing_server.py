"""The stand-in model server, driven by the real openai SDK over loopback."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import openai
import pytest

from silcrow.testing import STAND_IN_MODEL, ScriptedModelServer


def _client(server: ScriptedModelServer, **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="test-key", **kw)


def test_plain_completion_is_recorded_and_marked_as_stand_in() -> None:
    with ScriptedModelServer([{"content": "hello there"}]) as server:
        resp = _client(server).chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "hi §"}]
        )
        assert resp.choices[0].message.content == "hello there"
        assert resp.choices[0].finish_reason == "stop"
        assert resp.model == STAND_IN_MODEL
        assert resp.system_fingerprint == STAND_IN_MODEL
        assert resp.usage is not None and resp.usage.prompt_tokens > 0
        assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens
        assert server.requests == [
            {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi §"}]}
        ]
        assert server.request_headers[0]["authorization"] == "Bearer test-key"
        assert server.remaining == 0


def test_stand_in_header_and_models_endpoint() -> None:
    with ScriptedModelServer() as server:
        r = httpx.get(server.base_url + "/models")
        assert r.headers["x-silcrow-stand-in"] == "true"
        assert [m.id for m in _client(server).models.list()] == [STAND_IN_MODEL]


def test_tool_calls_non_streaming() -> None:
    script = [{"tool_calls": [
        {"name": "memory", "arguments": {"action": "add", "target": "user", "content": "likes tea"}},
        {"name": "session_search", "arguments": '{"query": "tea"}', "id": "call_fixed"},
    ]}]
    with ScriptedModelServer(script) as server:
        resp = _client(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "remember I like tea"}],
            tools=[{"type": "function", "function": {"name": "memory", "parameters": {"type": "object"}}}],
        )
    choice = resp.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    calls = choice.message.tool_calls or []
    assert [c.function.name for c in calls] == ["memory", "session_search"]
    assert json.loads(calls[0].function.arguments)["content"] == "likes tea"
    assert calls[1].id == "call_fixed"
    assert calls[0].id != calls[1].id


def test_streaming_text_reassembles_and_ends_with_usage() -> None:
    text = "A longer streamed reply, cut into several pieces — with ünïcode §."
    with ScriptedModelServer([{"content": text}]) as server:
        stream = _client(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "go"}], stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert len(pieces) > 3  # really streamed, not one blob
    assert "".join(pieces) == text
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == ["stop"]
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert all(c.model == STAND_IN_MODEL for c in chunks)


def test_streaming_tool_calls_in_openai_delta_format() -> None:
    args = {"action": "add", "target": "memory", "content": "project uses Python 3.11 and SQLite WAL"}
    script = [{"tool_calls": [{"name": "memory", "arguments": args},
                              {"name": "session_search", "arguments": {"query": "WAL"}}]}]
    with ScriptedModelServer(script) as server:
        stream = _client(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "go"}], stream=True
        )
        calls: dict[int, dict[str, str]] = {}
        finish = None
        for chunk in stream:
            assert chunk.usage is None  # not asked for
            delta = chunk.choices[0].delta
            for tc in delta.tool_calls or []:
                slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                slot["id"] += tc.id or ""
                slot["name"] += (tc.function.name or "") if tc.function else ""
                slot["arguments"] += (tc.function.arguments or "") if tc.function else ""
            finish = chunk.choices[0].finish_reason or finish
    assert finish == "tool_calls"
    assert [calls[i]["name"] for i in sorted(calls)] == ["memory", "session_search"]
    assert json.loads(calls[0]["arguments"]) == args
    assert json.loads(calls[1]["arguments"]) == {"query": "WAL"}
    assert calls[0]["id"] and calls[0]["id"] != calls[1]["id"]


def test_error_then_sdk_retry_succeeds() -> None:
    script = [{"error": {"status": 500, "message": "boom", "retry_after_ms": 5}},
              {"error": {"status": 429, "message": "slow down", "retry_after_ms": 5}},
              {"content": "recovered"}]
    with ScriptedModelServer(script) as server:
        resp = _client(server, max_retries=2).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}]
        )
        assert resp.choices[0].message.content == "recovered"
        assert len(server.requests) == 3  # every attempt is recorded
        assert server.requests[0] == server.requests[2]


def test_error_without_retries_raises_with_message() -> None:
    script = [{"error": {"status": 401, "message": "bad key", "code": "invalid_api_key"}}]
    with ScriptedModelServer(script) as s:
        with pytest.raises(openai.AuthenticationError) as info:
            _client(s, max_retries=0).chat.completions.create(model="m", messages=[])
    assert "bad key" in str(info.value)


def test_script_exhausted_is_a_clear_unretried_error() -> None:
    with ScriptedModelServer([{"content": "only one"}]) as server:
        client = _client(server, max_retries=3)
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "1"}])
        with pytest.raises(openai.InternalServerError) as info:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "2"}])
        assert "ScriptedModelServer: script exhausted" in str(info.value)
        assert len(server.requests) == 2  # x-should-retry: false stopped the SDK retrying


def test_default_response_and_enqueue_and_callable() -> None:
    def echo(body: dict[str, Any]) -> dict[str, Any]:
        return {"content": "echo: " + body["messages"][-1]["content"]}

    with ScriptedModelServer([echo], default={"content": "fallback"}) as server:
        client = _client(server)

        def ask(text: str) -> str | None:
            r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
            return r.choices[0].message.content

        assert ask("one") == "echo: one"
        assert ask("two") == "fallback"
        server.enqueue({"content": "queued"})
        assert ask("three") == "queued"
        assert ask("four") == "fallback"


def test_broken_callable_reports_itself() -> None:
    def broken(body: dict[str, Any]) -> dict[str, Any]:
        raise KeyError("nope")

    with ScriptedModelServer([broken]) as server:
        with pytest.raises(openai.InternalServerError) as info:
            _client(server, max_retries=0).chat.completions.create(model="m", messages=[])
    assert "scripted callable failed: KeyError" in str(info.value)


def test_invalid_script_entries_are_rejected_early() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        ScriptedModelServer([{"contnet": "typo"}])
    with pytest.raises(ValueError, match="tool call"):
        ScriptedModelServer([{"tool_calls": [{"arguments": {}}]}])
    with pytest.raises(ValueError, match="400-599"):
        ScriptedModelServer([{"error": {"status": 200}}])


def test_cached_tokens_estimate_follows_identical_prefix() -> None:
    with ScriptedModelServer(default={"content": "ok"}) as server:
        client = _client(server)
        base = [{"role": "system", "content": "S" * 800}, {"role": "user", "content": "first"}]
        first = client.chat.completions.create(model="m", messages=base)
        second = client.chat.completions.create(
            model="m", messages=[*base, {"role": "assistant", "content": "ok"},
                                 {"role": "user", "content": "second"}])
        changed = client.chat.completions.create(
            model="m", messages=[{"role": "system", "content": "T" * 800}, {"role": "user", "content": "x"}])
    def cached(r: Any) -> int:
        return int(r.usage.prompt_tokens_details.cached_tokens)

    assert cached(first) == 0
    assert cached(second) >= 200
    assert cached(changed) < 20  # only the JSON scaffolding before the text matches


def test_delay_makes_client_timeout() -> None:
    with ScriptedModelServer([{"content": "late", "delay_s": 1.0}]) as server:
        # With no retries the only way to get APITimeoutError is the client giving up first.
        with pytest.raises(openai.APITimeoutError):
            _client(server, max_retries=0, timeout=0.2).chat.completions.create(model="m", messages=[])
        assert len(server.wait_for_requests(1)) == 1  # the request did reach the server


def test_stop_frees_port_and_base_url_requires_running() -> None:
    server = ScriptedModelServer([{"content": "x"}]).start()
    url = server.base_url
    server.stop()
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=url, api_key="k", max_retries=0, timeout=2).chat.completions.create(
            model="m", messages=[])


def test_bad_route_and_bad_body() -> None:
    with ScriptedModelServer() as server:
        r = httpx.post(server.base_url + "/embeddings", json={})
        assert r.status_code == 404 and "no route" in r.json()["error"]["message"]
        r = httpx.post(server.base_url + "/chat/completions", content=b"not json")
        assert r.status_code == 400 and "not a JSON object" in r.json()["error"]["message"]
        assert server.requests == []


def test_wait_for_requests_from_a_background_thread() -> None:
    with ScriptedModelServer(default={"content": "ok"}) as server:
        client = _client(server)

        def background() -> None:
            for i in range(3):
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": str(i)}])

        worker = threading.Thread(target=background)
        worker.start()
        got = server.wait_for_requests(3, timeout=10)
        worker.join(timeout=10)
        assert [r["messages"][0]["content"] for r in got] == ["0", "1", "2"]
        with pytest.raises(TimeoutError, match="expected 4 requests within 0.1s, got 3"):
            server.wait_for_requests(4, timeout=0.1)


def test_streaming_error_then_retry_and_overrides() -> None:
    usage = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
    script = [{"error": {"status": 503, "message": "overloaded", "retry_after_ms": 5}},
              {"content": "cut sh", "finish_reason": "length", "usage": usage}]
    with ScriptedModelServer(script) as server:
        stream = _client(server, max_retries=1).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}], stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
        assert len(server.requests) == 2 and all(r["stream"] for r in server.requests)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "cut sh"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "length"
    assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens == 10


def test_embeddings_route_serves_the_given_real_embedder() -> None:
    from silcrow.models import get_embedder

    embedder = get_embedder("onnx")
    with ScriptedModelServer(embedder=embedder) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=30)
        got = client.embeddings.create(model="m", input=["bees on a roof", "a cat"])
        assert [len(d.embedding) for d in got.data] == [embedder.dim, embedder.dim]
        expected = embedder.embed(["bees on a roof"])[0].tolist()
        assert got.data[0].embedding == pytest.approx(expected, abs=1e-5)
        r = httpx.post(server.base_url + "/embeddings", json={"input": []})
        assert r.status_code == 400 and server.requests == []
