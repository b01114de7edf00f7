"""Scripted loopback stand-ins for the model APIs, for tests, the demo and trying silcrow offline.

They are the only fakes in silcrow, and none is a model: each replays a script of replies on
127.0.0.1 while recording every request it receives, names the model
``silcrow-scripted-stand-in`` and sends the header ``X-Silcrow-Stand-In: true``. Everything else
a test touches is real: the official SDKs, httpx, sockets, SQLite.

- :class:`ScriptedModelServer`: OpenAI-compatible chat completions (``/v1/chat/completions``,
  JSON and streamed), and embeddings from a real embedder when given one.
- :class:`ScriptedMessagesServer`: Anthropic's Messages API (``/v1/messages``), as the
  ``anthropic`` SDK and Claude's memory tool call it.
- :class:`ScriptedResponsesServer`: OpenAI's Responses API (``/v1/responses``), the OpenAI
  Agents SDK's default.
- :class:`ScriptedGeminiServer`: the Gemini API's ``generateContent``, as ``google-genai``
  (and Google ADK's Gemini model) call it.

All four take the same script: ``{"content": "text"}``, ``{"tool_calls": [{"name": ...,
"arguments": {...}}]}``, ``{"error": {"status": 500, "message": ...}}`` or a callable building
one from the request body. The Messages, Responses and Gemini stand-ins answer a request the real API
would refuse with that API's error and list what was wrong in ``violations``.
"""

from __future__ import annotations

from silcrow.testing._chat import STAND_IN_MODEL, ScriptedModelServer, ScriptedResponse
from silcrow.testing._gemini import ScriptedGeminiServer
from silcrow.testing._messages import ScriptedMessagesServer
from silcrow.testing._responses import ScriptedResponsesServer

__all__ = ["STAND_IN_MODEL", "ScriptedGeminiServer", "ScriptedMessagesServer", "ScriptedModelServer",
           "ScriptedResponse", "ScriptedResponsesServer"]
