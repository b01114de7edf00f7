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


def protocol(profile: str | None) -> dict[str, Any]:
    """The StorageBackend methods called as CrewAI calls them, and what each returned."""
    import asyncio
    from datetime import datetime

    from crewai.memory.storage.backend import StorageBackend
    from crewai.memory.types import MemoryRecord

    from silcrow.errors import StoreError
    from silcrow.integrations.crewai import SilcrowStorage

    storage = SilcrowStorage(profile)
    seen: dict[str, Any] = {"protocol": isinstance(storage, StorageBackend)}
    storage.notes.add("memory", "The office moved to Dock Street.", origin="api")
    food = MemoryRecord(content="Sam's favourite dish is salmon sushi.", scope="/people/sam",
                        categories=["food"])
    work = MemoryRecord(content="Project X ships in March.", scope="/projects/x", categories=["work"],
                        metadata={"team": "core"})
    name = MemoryRecord(content="The user's name is Sam.", scope="/user", categories=["profile"])
    storage.save([food, work])
    asyncio.run(storage.asave([name]))
    vector = storage.embedder(["What does Sam eat?"])[0]
    seen["count"], seen["count_people"] = storage.count(), storage.count("/people")
    seen["scopes"], seen["categories"] = storage.list_scopes("/"), storage.list_categories()
    seen["info_people"] = storage.get_scope_info("/people").model_dump(mode="json")
    seen["entries"] = {t: list(storage.notes.read(t).entries) for t in ("memory", "user")}
    seen["top"] = [(r.id, r.content, s) for r, s in storage.search(vector, limit=1)]
    seen["by_metadata"] = [r.id for r, _ in storage.search(vector, metadata_filter={"team": "core"})]
    seen["by_category"] = [r.id for r, _ in asyncio.run(storage.asearch(vector, categories=["profile"]))]
    seen["none_above"] = storage.search(vector, min_score=0.99)
    seen["ids"] = {"food": food.id, "work": work.id, "name": name.id}
    seen["listed"] = [r.model_dump(mode="json") for r in storage.list_records()]
    storage.update(food.model_copy(update={"content": "Sam's favourite dish is now ramen."}))
    seen["updated"] = storage.get_record(food.id).content
    seen["old_deleted"] = storage.delete(older_than=datetime(2000, 1, 1))
    seen["deleted"] = asyncio.run(storage.adelete(record_ids=[work.id]))
    seen["after_delete"] = storage.get_record(work.id)
    try:
        storage.search([1.0, 0.0, 0.0])
    except StoreError as exc:
        seen["bad_vector"] = str(exc)
    storage.reset("/user")
    seen["after_reset_user"] = {t: list(storage.notes.read(t).entries) for t in ("memory", "user")}
    storage.reset()
    seen["after_reset"] = storage.count()
    storage.close()
    return seen


def project(directory: str | None) -> dict[str, Any]:
    """A storage made with ``project=directory`` (or none): records saved in scope /project and
    elsewhere, and the records and entries it then holds."""
    from crewai.memory.types import MemoryRecord

    from silcrow.integrations.crewai import SilcrowStorage

    storage = SilcrowStorage(project=directory)
    built = MemoryRecord(content="The app's tests run with make check.", scope="/project/build",
                         categories=["build"])
    storage.save([built, MemoryRecord(content="Sam prefers tea.", scope="/user")])
    seen = {"targets": list(storage.notes.targets),
            "listed": [{"content": r.content, "scope": r.scope} for r in storage.list_records()],
            "in_project": sorted(r.content for r in storage.list_records("/project"))}
    storage.update(built.model_copy(update={"content": "The app's tests run with make check -j4."}))
    seen["updated"] = storage.get_record(built.id).content
    storage.close()
    return seen


if __name__ == "__main__":
    if sys.argv[1] == "protocol":
        print(json.dumps(protocol(None)))
    elif sys.argv[1] == "project":
        print(json.dumps(project(sys.argv[2] if len(sys.argv) > 2 else None)))
    else:
        print(json.dumps([crew(run) for run in json.loads(sys.argv[1])]))
