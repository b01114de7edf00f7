"""With a chat model configured, the model may judge a pair of notes for `memory review`, on a
strict schema; its answer is checked, and held to what the rules' answer would be held to
(tested against the loopback stand-in of an OpenAI-compatible server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from silcrow.agent import LLMClient, model_judge
from silcrow.store import MemoryStore
from silcrow.testing import ScriptedModelServer

OLDER, NEWER = "User works from the Amsterdam office.", "User now works from home full time."


@pytest.fixture(scope="module")
def embed():  # the real default embedder, from its package
    from silcrow.models import get_embedder

    return get_embedder("bge").embed


def _store(tmp_path: Path) -> MemoryStore:
    store = MemoryStore(tmp_path / "home")
    for text in ("User keeps a bonsai on the balcony.", OLDER, NEWER):
        store.add("user", text, origin="cli")
    return store


def test_the_models_update_archives_the_older_only(tmp_path: Path, embed) -> None:
    store = _store(tmp_path)
    assert store.consolidate(embed=embed) == []  # the rules alone leave this pair alone
    with ScriptedModelServer(default={"content": json.dumps({"verdict": "update"})}) as server:
        decide = model_judge(LLMClient("m", base_url=server.base_url, max_retries=0))
        findings = MemoryStore(tmp_path / "other").consolidate(embed=embed, decide=decide)
        assert findings == []  # nothing to judge in an empty home
        findings = store.consolidate(embed=embed, decide=decide)
        asked = [r["messages"][-1]["content"] for r in server.requests]
    assert any(OLDER in text and NEWER in text and text.index(OLDER) < text.index(NEWER) for text in asked)
    assert [(f["kind"], f["remove"]) for f in findings] == [("contradicted", [OLDER])]


@pytest.mark.parametrize("answer", [
    "update",                                           # not JSON
    json.dumps({"verdict": "contradiction"}),           # not one of the three words
    json.dumps({"verdict": "update", "also": "x"}),     # another key
    json.dumps(["update"]),                             # not an object
])
def test_an_answer_off_the_schema_leaves_the_rules_to_decide(tmp_path: Path, embed, answer: str) -> None:
    store = _store(tmp_path)
    with ScriptedModelServer(default={"content": answer}) as server:
        decide = model_judge(LLMClient("m", base_url=server.base_url, max_retries=0))
        assert store.consolidate(embed=embed, decide=decide) == []
        assert server.requests  # it was asked, and its answer was not taken


def test_a_models_same_without_a_wording_holding_both_values_is_not_merged(tmp_path: Path, embed) -> None:
    store = MemoryStore(tmp_path / "home")
    for text in ("Preferred answer language: French.", "Preferred answer language: German."):
        store.add("user", text, origin="cli")
    with ScriptedModelServer(default={"content": json.dumps({"verdict": "same"})}) as server:
        decide = model_judge(LLMClient("m", base_url=server.base_url, max_retries=0))
        findings = store.consolidate(embed=embed, decide=decide)
    # Neither wording states both languages: no merge, and German (the newer) is never removed.
    assert all("Preferred answer language: German." not in f["remove"] for f in findings)
    assert findings == []
