"""Runs Google ADK's Runner with SilcrowMemoryService and the load_memory tool against the Gemini
API stand-in, in the ADK virtualenv (.venv-adk: google-genai needs a tenacity older than the
one in silcrow's .venv), and prints what the test checks as one JSON object.

Usage: python run.py HOME
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.memory import BaseMemoryService
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools import load_memory
from google.genai import types

from silcrow.integrations.google_adk import SilcrowMemoryService
from silcrow.testing import ScriptedGeminiServer

APP = "kiln-helper"


def responses(request: dict[str, Any]) -> list[str]:
    """The text of each functionResponse the request carries."""
    return [json.dumps(part["functionResponse"]["response"]) for content in request["contents"]
            for part in content["parts"] if "functionResponse" in part]


async def turn(runner: Runner, sessions: InMemorySessionService, user: str, text: str) -> tuple[str, Any]:
    session = await sessions.create_session(app_name=APP, user_id=user)
    reply = ""
    message = types.Content(role="user", parts=[types.Part(text=text)])
    async for event in runner.run_async(user_id=user, session_id=session.id, new_message=message):
        if event.content and event.content.parts and event.content.parts[0].text:
            reply = event.content.parts[0].text
    return reply, await sessions.get_session(app_name=APP, user_id=user, session_id=session.id)


async def main(home: Path) -> dict[str, Any]:
    service = SilcrowMemoryService(home=home)
    out: dict[str, Any] = {"is_service": isinstance(service, BaseMemoryService)}
    lookup = {"tool_calls": [{"name": "load_memory", "arguments": {"query": "kiln firing temperature"}}]}
    script = [{"content": "Noted: 1240 degrees."}, lookup, {"content": "It fires at 1240 degrees."},
              lookup, {"content": "I don't know."}]
    with ScriptedGeminiServer(script) as api:
        os.environ.update(GOOGLE_GEMINI_BASE_URL=api.base_url, GOOGLE_API_KEY="test-key")
        agent = LlmAgent(name="helper", model="gemini-2.5-flash", instruction="Be brief.",
                         tools=[load_memory])
        sessions = InMemorySessionService()
        runner = Runner(agent=agent, app_name=APP, session_service=sessions, memory_service=service)
        _, first = await turn(runner, sessions, "sam", "My pottery kiln fires at 1240 degrees celsius.")
        await service.add_session_to_memory(first)
        await service.add_session_to_memory(first)  # again: nothing new stored
        out["reply"], _ = await turn(runner, sessions, "sam", "What temperature does my kiln fire at?")
        out["other_reply"], _ = await turn(runner, sessions, "alex", "What temperature does my kiln fire at?")
        out["violations"], out["remaining"] = api.violations, api.remaining
        out["sam_found"] = responses(api.requests[2])
        out["alex_found"] = responses(api.requests[4])
        out["instruction"] = json.dumps(api.requests[0].get("systemInstruction"))
    found = await service.search_memory(app_name=APP, user_id="sam", query="kiln temperature")
    out["search"] = [p.text for m in found.memories for p in m.content.parts or []]
    out["other_search"] = len((await service.search_memory(app_name=APP, user_id="alex",
                                                           query="kiln temperature")).memories)
    out["other_app"] = len((await service.search_memory(app_name="other", user_id="sam",
                                                        query="kiln temperature")).memories)
    service.close()
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(Path(sys.argv[1])))))
