"""Runs CrewAI crews on SilcrowStorage against the loopback model stand-in, in .venv-crewai
(CrewAI's pins are not silcrow's dev set's): ``python crewai_crew.py RUNS_JSON`` prints, per run,
what the crew answered and every request the stand-in received, as one JSON list.

Each run: ``profile``, ``task`` (the task's description) and ``save`` (a text the agent saves
with CrewAI's "Save to memory" tool before answering, or None). The stand-in answers CrewAI's
structured memory calls (``crewai/memory/analyze.py``: MemoryAnalysis, ConsolidationPlan,
QueryAnalysis, ExtractedMemories) with fixed, valid objects.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from silcrow.testing import ScriptedModelServer

STRUCTURED = {
    "MemoryAnalysis": {"suggested_scope": "/people/sam", "categories": ["food"], "importance": 0.8,
                       "extracted_metadata": {"entities": ["Sam"], "dates": [], "topics": ["food"]}},
    "ConsolidationPlan": {"actions": [], "insert_new": True, "insert_reason": "new information"},
    "ExtractedMemories": {"memories": []},
}


def model(save: str | None) -> Any:
    def answer(body: dict[str, Any]) -> dict[str, Any]:
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("name")
        if schema == "QueryAnalysis":
            query = body["messages"][-1]["content"]
            return {"content": json.dumps({"keywords": [], "suggested_scopes": [], "complexity": "simple",
                                           "recall_queries": [query], "time_filter": None})}
        if schema:
            return {"content": json.dumps(STRUCTURED[schema])}
        told = [m["content"] for m in body["messages"] if m["role"] == "tool"]
        if save and not told:
            call = {"name": "save_to_memory", "arguments": {"contents": [save]}}
            return {"tool_calls": [call], "content": None}
        return {"content": f"Done. {told[-1] if told else ''}".strip()}
    return answer


def crew(run: dict[str, Any]) -> dict[str, Any]:
    from crewai import Agent, Crew, Memory, Task

    from silcrow.integrations.crewai import SilcrowStorage

    with ScriptedModelServer(default=model(run.get("save"))) as api:
        os.environ["OPENAI_BASE_URL"], os.environ["OPENAI_API_KEY"] = api.base_url, "offline"
        storage = SilcrowStorage(run["profile"])
        memory = Memory(storage=storage, embedder=storage.embedder, llm="gpt-4o-mini")
        agent = Agent(role="Assistant", goal="Help Sam", backstory="You keep notes on Sam.",
                      llm="gpt-4o-mini")
        task = Task(description=run["task"], expected_output="A short answer.", agent=agent)
        output = Crew(agents=[agent], tasks=[task], memory=memory).kickoff()
        memory.close()
        return {"output": str(output), "requests": api.requests,
                "records": [r.model_dump(mode="json") for r in SilcrowStorage(run["profile"]).list_records()]}


if __name__ == "__main__":
    print(json.dumps([crew(run) for run in json.loads(sys.argv[1])]))
