"""The language-model client: any OpenAI-compatible chat-completions endpoint.

One small wrapper around the ``openai`` SDK so the loop sees three things
only: :class:`Completion`, :class:`ToolCall` and :class:`~silcrow.errors.ModelError`.
The SDK already retries connection errors, 408/429/5xx with exponential
backoff (``max_retries``); every failure that is left is translated into one
ModelError whose message says what to do.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx

from silcrow.config import env_value
from silcrow.errors import ModelError

DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_RETRIES = 3
# Local servers (Ollama, vLLM, llama.cpp, the scripted stand-in) ignore the key,
# but the SDK insists on one.
LOCAL_DUMMY_KEY = "not-needed-for-local-endpoints"

StreamCallback = Callable[[str], None]


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as the model produced it

    def to_message(self) -> dict[str, Any]:
        function = {"name": self.name, "arguments": self.arguments}
        return {"id": self.id, "type": "function", "function": function}


@dataclass
class Completion:
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None


def is_local_url(base_url: str | None) -> bool:
    """True for loopback / private-network / ``.local`` hosts, where no real key is needed."""
    if not base_url:
        return False
    host = (urlparse(base_url).hostname or "").lower()
    if host in {"localhost", "host.docker.internal"} or host.endswith((".local", ".localhost")):
        return True
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    return addr.is_loopback or addr.is_private or addr.is_unspecified


def resolve_credentials(base_url: str | None, api_key: str | None) -> tuple[str | None, str]:
    """Pick the base URL and key (explicit value, then OPENAI_BASE_URL / OPENAI_API_KEY).

    Raises ModelError when a remote endpoint has no key, before any request is made.
    """
    url = base_url or env_value("base_url")
    key = api_key or env_value("api_key")
    if key:
        return url, key
    if is_local_url(url):
        return url, LOCAL_DUMMY_KEY
    where = url or "https://api.openai.com/v1 (the default)"
    raise ModelError(
        f"no API key for {where}: set OPENAI_API_KEY, pass api_key=..., or point --base-url at a "
        "local OpenAI-compatible server (Ollama, vLLM, llama.cpp), which needs no key"
    )


class LLMClient:
    """Chat completions with tools, optionally streamed."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ) -> None:
        import openai  # imported here: the SDK is heavy and only the loop needs it

        self.model = model
        self.base_url, key = resolve_credentials(base_url, api_key)
        self._openai = openai
        self._client = openai.OpenAI(
            api_key=key, base_url=self.base_url, timeout=timeout, max_retries=max_retries
        )

    @property
    def endpoint(self) -> str:
        return self.base_url or "https://api.openai.com/v1"

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | None = None,
        on_delta: StreamCallback | None = None,
    ) -> Completion:
        """One model call. ``on_delta`` switches to streaming and receives text as it arrives."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
            if tool_choice:
                kwargs["tool_choice"] = tool_choice
        try:
            if on_delta is None:
                return self._parse(self._client.chat.completions.create(**kwargs))
            stream = self._client.chat.completions.create(**kwargs, stream=True)
            return self._collect(stream, on_delta)
        except self._openai.APIError as exc:
            raise self._translate(exc) from exc
        except httpx.HTTPError as exc:  # a stream cut mid-way surfaces as a raw httpx error
            raise ModelError(f"connection to {self.endpoint} broke mid-reply: {exc}; try again") from exc

    def _parse(self, response: Any) -> Completion:
        if not getattr(response, "choices", None):
            raise ModelError(f"{self.endpoint} returned no choices for model {self.model!r}; "
                             "check that the model name is right for this endpoint")
        choice = response.choices[0]
        msg = choice.message
        calls = [
            ToolCall(id=c.id or f"call_{i}", name=c.function.name, arguments=c.function.arguments or "{}")
            for i, c in enumerate(msg.tool_calls or [])
        ]
        return Completion(content=msg.content or "", tool_calls=calls, finish_reason=choice.finish_reason)

    def _collect(self, stream: Any, on_delta: StreamCallback) -> Completion:
        # Tool-call fragments arrive keyed by index; names and arguments are concatenated.
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        for chunk in stream:
            if not chunk.choices:
                continue
            choice = chunk.choices[0]
            delta = choice.delta
            if delta is not None and delta.content:
                text.append(delta.content)
                on_delta(delta.content)
            for tc in (delta.tool_calls or []) if delta is not None else []:
                slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                if tc.id:
                    slot["id"] = tc.id
                if tc.function is not None:
                    slot["name"] += tc.function.name or ""
                    slot["arguments"] += tc.function.arguments or ""
            if choice.finish_reason:
                finish = choice.finish_reason
        tool_calls = [
            ToolCall(id=s["id"] or f"call_{i}", name=s["name"], arguments=s["arguments"] or "{}")
            for i, s in sorted(calls.items())
        ]
        return Completion(content="".join(text), tool_calls=tool_calls, finish_reason=finish)

    def _translate(self, exc: Exception) -> ModelError:
        o = self._openai
        where = f"{self.endpoint} (model {self.model!r})"
        if isinstance(exc, o.APITimeoutError):
            return ModelError(f"{where} did not answer in time after retries; check the server "
                              "or raise the timeout")
        if isinstance(exc, o.APIConnectionError):
            return ModelError(f"cannot reach {where}: {exc}; check --base-url / OPENAI_BASE_URL "
                              "and that the server is running")
        if isinstance(exc, o.AuthenticationError):
            return ModelError(f"{where} rejected the API key; set a valid OPENAI_API_KEY")
        if isinstance(exc, o.NotFoundError):
            return ModelError(f"{where} answered 404: the model name or base URL is wrong "
                              "(base URLs usually end in /v1)")
        if isinstance(exc, o.RateLimitError):
            return ModelError(f"{where} is rate limiting us even after retries; wait and try again")
        if isinstance(exc, o.APIStatusError):
            return ModelError(f"{where} answered HTTP {exc.status_code}: {_short(exc)}")
        return ModelError(f"{where} failed: {_short(exc)}")


def _short(exc: Exception, limit: int = 300) -> str:
    text = str(exc)
    body = getattr(exc, "body", None)
    if body:
        text = json.dumps(body)[:limit] if not isinstance(body, str) else body[:limit]
    return text[:limit]
