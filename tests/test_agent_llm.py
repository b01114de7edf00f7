"""The model client against the scripted stand-in server (real SDK, real HTTP on loopback)."""

from __future__ import annotations

import socket

import pytest

from silcrow.agent import LLMClient
from silcrow.agent._llm import LOCAL_DUMMY_KEY, is_local_url, resolve_credentials
from silcrow.errors import ModelError
from silcrow.testing import ScriptedModelServer


def test_plain_completion_and_request_shape() -> None:
    with ScriptedModelServer([{"content": "hello there"}]) as server:
        client = LLMClient("some-model", base_url=server.base_url)
        out = client.complete([{"role": "user", "content": "hi"}], tools=[])
        assert out.content == "hello there"
        assert out.tool_calls == []
        body = server.requests[0]
        assert body["model"] == "some-model"
        assert body["messages"] == [{"role": "user", "content": "hi"}]
        assert "tools" not in body  # an empty tool list is not sent
        # loopback endpoints get a dummy key rather than an error
        assert server.request_headers[0]["authorization"] == f"Bearer {LOCAL_DUMMY_KEY}"


def test_streaming_reassembles_text_and_tool_calls() -> None:
    script = [
        {"content": "Saving that for later.",
         "tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "user",
                                                           "content": "User likes long, detailed answers."}},
                        {"name": "session_search", "arguments": {"query": "rust"}}]},
    ]
    deltas: list[str] = []
    with ScriptedModelServer(script) as server:
        client = LLMClient("m", base_url=server.base_url)
        out = client.complete([{"role": "user", "content": "x"}], on_delta=deltas.append)
        assert server.requests[0]["stream"] is True
    assert "".join(deltas) == "Saving that for later."
    assert len(deltas) > 1  # it really arrived in pieces
    assert [c.name for c in out.tool_calls] == ["memory", "session_search"]
    assert '"User likes long, detailed answers."' in out.tool_calls[0].arguments
    assert out.tool_calls[1].arguments == '{"query": "rust"}'
    assert out.tool_calls[0].id != out.tool_calls[1].id


def test_server_errors_are_retried_with_backoff() -> None:
    script = [
        {"error": {"status": 503, "message": "overloaded", "retry_after_ms": 1}},
        {"error": {"status": 500, "message": "oops", "retry_after_ms": 1}},
        {"content": "third time lucky"},
    ]
    with ScriptedModelServer(script) as server:
        client = LLMClient("m", base_url=server.base_url, max_retries=3)
        assert client.complete([{"role": "user", "content": "x"}]).content == "third time lucky"
        assert len(server.requests) == 3


def test_persistent_http_error_becomes_model_error() -> None:
    script = [{"error": {"status": 404, "message": "no such model"}}]
    with ScriptedModelServer(script) as server:
        client = LLMClient("nope", base_url=server.base_url, max_retries=0)
        with pytest.raises(ModelError, match="404.*model name or base URL"):
            client.complete([{"role": "user", "content": "x"}])


def test_unreachable_endpoint_is_a_clear_model_error() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago and has no listener now
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = LLMClient("m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=1, timeout=5)
    with pytest.raises(ModelError, match="cannot reach .*127.0.0.1.*server is running"):
        client.complete([{"role": "user", "content": "x"}])


def test_missing_key_for_remote_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelError, match="no API key for https://openrouter.ai/api/v1.*OPENAI_API_KEY"):
        LLMClient("m", base_url="https://openrouter.ai/api/v1")
    with pytest.raises(ModelError, match="api.openai.com"):
        LLMClient("m")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    remote = "https://openrouter.ai/api/v1"
    assert resolve_credentials(remote, None) == (remote, "sk-test")
    assert resolve_credentials(None, "explicit") == (None, "explicit")


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:11434/v1", True),
        ("http://127.0.0.1:8000/v1", True),
        ("http://[::1]:8080/v1", True),
        ("http://192.168.1.20:8000/v1", True),
        ("http://gpu-box.local:8000/v1", True),
        ("https://api.openai.com/v1", False),
        ("https://openrouter.ai/api/v1", False),
        (None, False),
    ],
)
def test_is_local_url(url: str | None, local: bool) -> None:
    assert is_local_url(url) is local
