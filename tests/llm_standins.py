"""A LlamaIndex LLM that talks to a chat-completions server with the official ``openai`` SDK.

LlamaIndex's own OpenAI LLM (``llama-index-llms-openai``) needs ``openai<3`` and a
``llama-index-core`` newer than the one that installs beside silcrow's other extras, so the
LlamaIndex tests send their chat requests through this small client instead: the request is the
chat LlamaIndex built (roles and text as they are), sent over HTTP to
:class:`silcrow.testing.ScriptedModelServer`.
"""

from __future__ import annotations

from typing import Any

import openai
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.llms import CustomLLM


class ChatCompletionsLLM(CustomLLM):
    """``chat`` and ``complete`` as one chat-completions request each (no streaming)."""

    base_url: str
    model: str = "stand-in"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name=self.model, is_chat_model=True, context_window=32000)

    def _client(self) -> openai.OpenAI:
        return openai.OpenAI(api_key="test-key", base_url=self.base_url, max_retries=0)

    def chat(self, messages: Any, **kwargs: Any) -> ChatResponse:
        sent = [{"role": m.role.value, "content": m.content or ""} for m in messages]
        reply = self._client().chat.completions.create(model=self.model, messages=sent)
        text = reply.choices[0].message.content or ""
        return ChatResponse(message=ChatMessage(role="assistant", content=text))

    async def achat(self, messages: Any, **kwargs: Any) -> ChatResponse:
        return self.chat(messages, **kwargs)

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self.chat([ChatMessage(role="user", content=prompt)]).message.content)

    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        raise NotImplementedError("the stand-in client does not stream")
