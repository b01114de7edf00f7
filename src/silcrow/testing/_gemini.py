"""A scripted stand-in for the Gemini API's ``generateContent`` (``POST
/v1beta/models/MODEL:generateContent``), non-streaming: what Google ADK's Gemini model calls.

It checks what the ``google-genai`` SDK sends against the SDK's own types and wire converters
(``google/genai/types.py``: ``GenerateContentConfig``, ``Content``, ``Part``, ``FunctionCall``,
``FunctionResponse``, ``FunctionDeclaration``; ``google/genai/models.py``:
``_GenerateContentParameters_to_mldev``) and the API's documented refusals, and answers in the
shape of ``GenerateContentResponse``.
"""

from __future__ import annotations

import re
from typing import Any

from silcrow.testing._chat import STAND_IN_MODEL, _estimate_tokens
from silcrow.testing._wire import Refused, ScriptedAPIServer

# The request body's fields as the SDK's converter writes them: the API refuses any other.
_PARAMS = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "safetySettings",
                     "generationConfig", "cachedContent", "labels", "model"})
_ROUTE = re.compile(r"/v1(?:beta|alpha)?/models/[^/:]+:generateContent\Z")
_PART_KINDS = ("text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode",
               "codeExecutionResult", "thought", "thoughtSignature", "videoMetadata", "toolCall",
               "toolResponse", "partMetadata", "mediaResolution")


class ScriptedGeminiServer(ScriptedAPIServer):
    """A stand-in for the Gemini API's ``generateContent`` that replays a script. NOT a model.

    Each request takes the next scripted reply, in :class:`ScriptedModelServer`'s shape:
    ``{"content": "text"}`` (a text part), ``{"tool_calls": [{"name": "load_memory",
    "arguments": {...}}]}`` (``functionCall`` parts), ``{"error": {"status": 500, ...}}`` or a
    callable ``f(request_body) -> reply``. Requests the real API would refuse (no API key, an
    unknown field, a role other than ``user`` or ``model``, a ``functionCall`` turn not answered
    by as many ``functionResponse`` parts in the next turn...) are answered with its error and
    listed in ``violations``. Streaming is not served.

    ``base_url`` is what ``GOOGLE_GEMINI_BASE_URL`` or ``HttpOptions(base_url=...)`` take.
    """

    api = "Gemini API"
    route = "/v1beta/models/MODEL:generateContent"
    thread_name = "scripted-gemini"

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` (the SDK adds ``/v1beta/models/...``)."""
        return self._origin()

    def serves(self, path: str) -> bool:
        return _ROUTE.match(path) is not None

    def error_payload(self, message: str, kind: str) -> dict[str, Any]:
        status = {"invalid_request_error": "INVALID_ARGUMENT", "authentication_error": "UNAUTHENTICATED",
                  "not_found_error": "NOT_FOUND"}.get(kind, "INTERNAL")
        code = {"INVALID_ARGUMENT": 400, "UNAUTHENTICATED": 401, "NOT_FOUND": 404}.get(status, 500)
        return {"error": {"code": code, "message": message, "status": status}}

    def check_headers(self, headers: dict[str, str]) -> None:
        if not self._key_given(headers, "x-goog-api-key"):
            raise Refused(401, "API key not valid. Please pass a valid API key (x-goog-api-key).",
                          "authentication_error")

    def check_body(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        unknown = sorted(set(body) - _PARAMS)
        if unknown:
            raise Refused(400, f'Invalid JSON payload received. Unknown name "{unknown[0]}": '
                               "Cannot find field.")
        contents = body.get("contents")
        if not isinstance(contents, list) or not contents:
            raise Refused(400, "* GenerateContentRequest.contents: contents is not specified")
        self._check_tools(body.get("tools"))
        instruction = body.get("systemInstruction")
        if instruction is not None:
            self._check_parts(instruction, "systemInstruction")
        asked = 0
        for n, content in enumerate(contents):
            where = f"contents[{n}]"
            if not isinstance(content, dict) or content.get("role") not in ("user", "model"):
                raise Refused(400, f"Please use a valid role: user, model. ({where}.role)")
            parts = self._check_parts(content, where)
            calls = sum(1 for p in parts if "functionCall" in p)
            answers = sum(1 for p in parts if "functionResponse" in p)
            if asked and answers != asked:
                raise Refused(400, "Please ensure that the number of function response parts is equal to the "
                                   f"number of function call parts of the function call turn. ({where})")
            if answers and not asked:
                raise Refused(400, "Please ensure that function response turn comes immediately after a "
                                   f"function call turn. ({where})")
            asked = calls if content["role"] == "model" else 0

    @staticmethod
    def _check_parts(content: dict[str, Any], where: str) -> list[dict[str, Any]]:
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts:
            raise Refused(400, f"* {where}.parts: contents.parts must not be empty.")
        for i, part in enumerate(parts):
            if not isinstance(part, dict) or not any(k in part for k in _PART_KINDS):
                raise Refused(400, f"* {where}.parts[{i}]: required oneof field 'data' must have one "
                                   "initialized field")
            if "functionCall" in part and not isinstance(part["functionCall"].get("name"), str):
                raise Refused(400, f"* {where}.parts[{i}].functionCall.name: name is required")
            if "functionResponse" in part and not isinstance(part["functionResponse"].get("response"), dict):
                raise Refused(400, f"* {where}.parts[{i}].functionResponse.response: must be an object")
        return parts

    @staticmethod
    def _check_tools(tools: Any) -> None:
        if tools is None:
            return
        if not isinstance(tools, list):
            raise Refused(400, "* GenerateContentRequest.tools: must be a list")
        names: set[str] = set()
        for n, tool in enumerate(tools):
            for m, declaration in enumerate(tool.get("functionDeclarations") or []):
                name = declaration.get("name")
                if not isinstance(name, str) or not re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}", name):
                    raise Refused(400, f"* GenerateContentRequest.tools[{n}].function_declarations"
                                       f"[{m}].name: Invalid function name.")
                if name in names:
                    raise Refused(400, f"Duplicate function declaration found: {name}")
                names.add(name)

    def reply(self, body: dict[str, Any], scripted: dict[str, Any]) -> dict[str, Any]:
        parts: list[dict[str, Any]] = []
        if scripted.get("content") or not scripted.get("tool_calls"):
            parts.append({"text": scripted.get("content") or ""})
        for call in scripted.get("tool_calls") or []:
            arguments = call.get("arguments", {})
            if not isinstance(arguments, dict):
                raise Refused(500, "a tool call's arguments must be a dict for the Gemini API", "api_error",
                              violation=False)
            parts.append({"functionCall": {"name": call["name"], "args": arguments,
                                           "id": call.get("id") or self.new_id("call")}})
        prompt = _estimate_tokens(str(body.get("systemInstruction") or "") + str(body["contents"]))
        completion = _estimate_tokens(str(parts))
        return {
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
                            "index": 0}],
            "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": completion,
                              "totalTokenCount": prompt + completion},
            "modelVersion": STAND_IN_MODEL, "responseId": self.new_id("resp"),
        }
