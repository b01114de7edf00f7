"""The holographic provider: real SQLite/FTS5 store, real HRR algebra, the real Agent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import provider_e2e
import pytest

from silcrow.providers.holographic import HolographicProvider
from silcrow.providers.holographic import _hrr as hrr
from silcrow.providers.holographic._store import extract_entities
from silcrow.recall import MemoryProvider, load_provider
from silcrow.recall.contract import check_provider_contract

FACTS = [
    "Ana Silva moved to Lyon in the spring",
    "Ana Silva works at Acme Robotics as an engineer",
    "Bruno Costa lives in Porto",
    "Bruno Costa and Ana Silva founded Acme Robotics together",
    "The user prefers green tea over coffee",
]


def _provider(home: Path, **config: Any) -> HolographicProvider:
    provider = HolographicProvider(home=home, config=config or None)
    provider.initialize("s1", home=home)
    return provider


def _tool(provider: MemoryProvider, name: str, **args: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(provider.handle_tool_call(name, args))
    return result


def _seeded(home: Path) -> HolographicProvider:
    provider = _provider(home)
    for fact in FACTS:
        assert _tool(provider, "fact_store", action="add", content=fact)["status"] == "added"
    return provider


def _contents(result: dict[str, Any]) -> list[str]:
    return [r["content"] for r in result["results"]]


def test_keeps_the_provider_contract(tmp_path: Path) -> None:
    check_provider_contract(HolographicProvider(home=tmp_path), tmp_path)


def test_is_registered_and_needs_nothing_installed(tmp_path: Path) -> None:
    provider = load_provider("holographic", home=tmp_path, embedder="none")
    assert isinstance(provider, HolographicProvider)
    assert provider.is_available() and provider.unavailable_reason() == ""


def test_unbinding_recovers_a_bound_atom_and_tells_roles_apart() -> None:
    dim = 1024
    a, key = hrr.atom("ana", dim), hrr.atom("key", dim)
    assert hrr.similarity(hrr.unbind(hrr.bind(a, key), key), a) == pytest.approx(1.0, abs=1e-9)
    assert abs(hrr.similarity(a, key)) < 0.15  # unrelated atoms are nearly orthogonal
    fact = hrr.encode_fact("ana silva moved to lyon", ["Ana Silva", "Lyon"], dim)
    entity_filler = hrr.unbind(fact, hrr.atom(hrr.ROLE_ENTITY, dim))
    assert hrr.similarity(entity_filler, hrr.atom("ana silva", dim)) > 0.4
    assert abs(hrr.similarity(entity_filler, hrr.atom("bruno costa", dim))) < 0.12
    stored = hrr.from_bytes(hrr.to_bytes(fact))
    assert np.allclose(stored, fact, atol=1e-5)
    assert np.array_equal(hrr.atom("ana", dim), hrr.atom("ana", dim))  # deterministic


def test_entities_and_aliases_are_extracted() -> None:
    names, aliases = extract_entities('Guido van Rossum aka BDFL likes "pytest" and New York')
    assert "New York" in names and "pytest" in names
    assert aliases == [("Guido van Rossum", "BDFL")]
    assert "BDFL" not in names  # an alias names the same entity, not a new one


def test_probe_finds_the_facts_about_an_entity_and_only_those(tmp_path: Path) -> None:
    provider = _seeded(tmp_path)
    ana = _contents(_tool(provider, "fact_store", action="probe", entity="Ana Silva"))
    assert set(ana) == {FACTS[0], FACTS[1], FACTS[3]}
    both = _contents(_tool(provider, "fact_store", action="reason", entities=["Ana Silva", "Bruno Costa"]))
    assert both == [FACTS[3]]  # AND: only the fact naming both
    related = _contents(_tool(provider, "fact_store", action="related", entity="Porto"))
    assert related[0] == FACTS[2]  # the word itself; then facts sharing Bruno Costa
    assert FACTS[3] in related and FACTS[4] not in related


def test_search_ranks_by_keywords_and_trust_and_feedback_moves_trust(tmp_path: Path) -> None:
    provider = _seeded(tmp_path)
    hits = _tool(provider, "fact_store", action="search", query="what does the user drink, tea?")
    assert _contents(hits)[0] == FACTS[4]
    fact_id = hits["results"][0]["fact_id"]
    up = _tool(provider, "fact_feedback", action="helpful", fact_id=fact_id)
    assert (up["old_trust"], up["new_trust"], up["helpful_count"]) == (0.5, 0.55, 1)
    for _ in range(3):  # unhelpful weighs double: 0.55 -> 0.25, below the 0.3 floor
        down = _tool(provider, "fact_feedback", action="unhelpful", fact_id=fact_id)
    assert down["new_trust"] == pytest.approx(0.25)
    assert "green tea" not in provider.prefetch("does the user like green tea?")
    assert _tool(provider, "fact_feedback", action="helpful", fact_id=999)["success"] is False


def test_prefetch_lists_facts_with_their_trust(tmp_path: Path) -> None:
    provider = _seeded(tmp_path)
    text = provider.prefetch("Where did Ana Silva move?")
    assert text.startswith("## Holographic Memory\n- [0.5] ")
    assert FACTS[0] in text and len(text.splitlines()) <= 6
    assert provider.prefetch("zebra quantum") == ""


def test_update_remove_list_and_contradict(tmp_path: Path) -> None:
    provider = _seeded(tmp_path)
    added = _tool(provider, "fact_store", action="add", content="Ana Silva lives in Paris with Bruno Costa")
    again = _tool(provider, "fact_store", action="add", content="Ana Silva lives in Paris with Bruno Costa")
    assert again["fact_id"] == added["fact_id"]  # the same content is one fact
    clash = _tool(provider, "fact_store", action="contradict")["results"]
    assert clash and all({"ana silva"} <= set(c["shared_entities"]) for c in clash)
    fid = added["fact_id"]
    nice = "Ana Silva lives in Nice"
    assert _tool(provider, "fact_store", action="update", fact_id=fid, content=nice)["updated"]
    assert nice in _contents(_tool(provider, "fact_store", action="probe", entity="Ana Silva"))
    assert _tool(provider, "fact_store", action="remove", fact_id=fid)["removed"] is True
    assert _tool(provider, "fact_store", action="remove", fact_id=fid)["removed"] is False
    listed = _tool(provider, "fact_store", action="list", limit=50)
    assert listed["count"] == len(FACTS)


def test_bad_tool_calls_say_what_is_missing(tmp_path: Path) -> None:
    provider = _provider(tmp_path)
    missing = _tool(provider, "fact_store", action="add")
    assert missing["success"] is False and "content" in missing["error"]
    assert "entities" in _tool(provider, "fact_store", action="reason")["error"]
    assert "unknown fact_store action" in _tool(provider, "fact_store", action="fly")["error"]
    assert _tool(provider, "fact_store", action="remove", fact_id="x")["success"] is False


def test_curated_writes_are_mirrored_and_auto_extract_reads_the_session(tmp_path: Path) -> None:
    provider = _provider(tmp_path, auto_extract=True)
    provider.on_memory_write("add", "user", "Prefers metric units")
    provider.on_memory_write("remove", "user", "Something else")
    provider.sync_turn("I always run the tests before committing.", "Good habit.")  # not stored
    assert [f["content"] for f in provider.store.list_facts()] == ["Prefers metric units"]
    provider.on_session_end([
        {"role": "user", "content": "I always run the tests before committing."},
        {"role": "assistant", "content": "I prefer to say nothing."},
        {"role": "user", "content": "We decided to ship on Fridays."},
    ])
    facts = {f["content"]: f["category"] for f in provider.store.list_facts()}
    assert facts == {"Prefers metric units": "user_pref",
                     "I always run the tests before committing.": "user_pref",
                     "We decided to ship on Fridays.": "project"}


def test_settings_come_from_the_recall_table(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[recall]\nprovider = "holographic"\n[recall.holographic]\n'
        'db_path = "$SILCROW_HOME/facts/h.db"\ndefault_trust = 0.8\n', encoding="utf-8")
    provider = HolographicProvider(home=tmp_path)
    provider.initialize("s", home=tmp_path)
    provider.handle_tool_call("fact_store", {"action": "add", "content": "Kept here"})
    assert (tmp_path / "facts" / "h.db").exists()
    assert provider.store.list_facts()[0]["trust_score"] == pytest.approx(0.8)
    provider.shutdown()


def test_the_round_trip_check_writes_finds_and_forgets(tmp_path: Path) -> None:
    provider = _provider(tmp_path)
    timings = provider.round_trip("silcrow check probe 12345")
    assert timings["found"] is True and provider.store.count() == 0


@contextmanager
def _closed_database(provider: MemoryProvider) -> Iterator[None]:
    assert isinstance(provider, HolographicProvider)
    provider.store.conn.close()  # every call now fails: "Cannot operate on a closed database"
    try:
        yield
    finally:
        provider.close_clients()  # reopened on next use


def test_end_to_end_through_the_agent(tmp_path: Path) -> None:
    scenario = provider_e2e.Scenario(
        make=lambda: HolographicProvider(home=tmp_path),
        store_fact=[provider_e2e.call("fact_store", action="add", content="My sister Ana lives in Lyon")],
        tool="fact_store", tool_args={"action": "search", "query": "sister Ana"},
        expect_in_tool="Lyon", outage=_closed_database,
    )
    provider_e2e.run(tmp_path, scenario)
