"""silcrow as LangGraph's store (silcrow.integrations.langgraph.SilcrowStore) on SQLite and
PostgreSQL: the BaseStore contract (the cases of LangGraph's own store tests, written anew since
the installed packages ship none), ranking by meaning, profiles apart, and a real StateGraph."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)

from silcrow.integrations.langgraph import SilcrowStore


@pytest.fixture(params=["sqlite", "postgres"])
def home(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    config = 'provider = "none"\n'
    if request.param == "postgres":
        config += f'[storage]\nbackend = "postgres"\ndsn = "{request.getfixturevalue("pg_dsn")}"\n'
    (path / "config.toml").write_text(config, encoding="utf-8")
    return path


@pytest.fixture
def store(home: Path) -> Iterator[SilcrowStore]:
    with SilcrowStore(home=home) as opened:
        yield opened


def test_is_a_langgraph_store(store: SilcrowStore) -> None:
    assert isinstance(store, BaseStore)


def test_put_get_update_delete(store: SilcrowStore) -> None:
    ns = ("test", "documents")
    assert store.get(ns, "doc1") is None
    store.put(ns, "doc1", {"title": "Intro", "tags": ["a", "b"], "n": 1, "ok": True, "none": None})
    item = store.get(ns, "doc1")
    assert isinstance(item, Item)
    assert item.value == {"title": "Intro", "tags": ["a", "b"], "n": 1, "ok": True, "none": None}
    assert item.namespace == ns and item.key == "doc1"
    created = item.created_at
    store.put(ns, "doc1", {"title": "Intro, second edition"})
    updated = store.get(ns, "doc1")
    assert updated is not None and updated.value == {"title": "Intro, second edition"}
    assert updated.created_at == created and updated.updated_at >= created
    store.delete(ns, "doc1")
    assert store.get(ns, "doc1") is None
    store.delete(ns, "doc1")  # deleting what is gone is not an error


def test_batch_runs_in_order(store: SilcrowStore) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    results = store.batch([
        GetOp(("test", "foo"), "key1"),
        PutOp(("test", "baz"), "key3", {"data": "value3"}),
        SearchOp(("test",), filter={"data": "value1"}),
        ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("test",)),), limit=10),
        GetOp(("test",), "key3"),
        GetOp(("test", "baz"), "key3"),
        PutOp(("test", "foo"), "key1", None),
        GetOp(("test", "foo"), "key1"),
    ])
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[1] is None
    assert [r.key for r in results[2]] == ["key1"] and isinstance(results[2][0], SearchItem)
    assert results[3] == [("test", "bar"), ("test", "baz"), ("test", "foo")]
    assert results[4] is None
    assert isinstance(results[5], Item) and results[5].value == {"data": "value3"}
    assert results[6] is None and results[7] is None


def test_abatch_and_async_methods(store: SilcrowStore) -> None:
    async def run() -> None:
        await store.aput(("a", "b"), "k", {"x": 1})
        got = await store.aget(("a", "b"), "k")
        assert got is not None and got.value == {"x": 1}
        assert [i.key for i in await store.asearch(("a",))] == ["k"]
        assert await store.alist_namespaces() == [("a", "b")]
        await store.adelete(("a", "b"), "k")
        assert await store.aget(("a", "b"), "k") is None

    asyncio.run(run())


def test_search_filters_and_pages(store: SilcrowStore) -> None:
    docs = [("doc1", {"author": "John Doe", "score": 4.5, "status": "published", "meta": {"lang": "en"}}),
            ("doc2", {"author": "Jane Smith", "score": 3.2, "status": "draft", "meta": {"lang": "fr"}}),
            ("doc3", {"author": "John Doe", "score": 4.8, "status": "published", "meta": {"lang": "en"}}),
            ("doc4", {"author": "Bob", "score": 2.0, "status": "published", "tags": ["x", "y"]})]
    for key, value in docs:
        store.put(("test", "docs"), key, value)
    store.put(("other",), "doc5", {"author": "John Doe"})

    def keys(**kw: Any) -> set[str]:
        return {i.key for i in store.search(("test",), **kw)}

    assert keys() == {"doc1", "doc2", "doc3", "doc4"}
    assert keys(filter={"author": "John Doe"}) == {"doc1", "doc3"}
    assert keys(filter={"author": "John Doe", "status": "published"}) == {"doc1", "doc3"}
    assert keys(filter={"score": {"$gt": 4.0}}) == {"doc1", "doc3"}
    assert keys(filter={"score": {"$gte": 4.5, "$lt": 4.8}}) == {"doc1"}
    assert keys(filter={"score": {"$lte": 3.2}}) == {"doc2", "doc4"}
    assert keys(filter={"status": {"$ne": "draft"}}) == {"doc1", "doc3", "doc4"}
    assert keys(filter={"status": {"$eq": "draft"}}) == {"doc2"}
    assert keys(filter={"meta": {"lang": "en"}}) == {"doc1", "doc3"}
    assert keys(filter={"tags": ["x", "y"]}) == {"doc4"}
    assert keys(filter={"author": "Nobody"}) == set()
    assert {i.key for i in store.search(())} == {"doc1", "doc2", "doc3", "doc4", "doc5"}
    first, second = store.search(("test",), limit=2), store.search(("test",), limit=2, offset=2)
    assert len(first) == 2 and len(second) == 2
    assert {i.key for i in first} | {i.key for i in second} == {"doc1", "doc2", "doc3", "doc4"}
    assert store.search(("test",), offset=10) == []
    # the most recently changed first without a query
    store.put(("test", "docs"), "doc2", {"author": "Jane Smith", "score": 3.3})
    assert store.search(("test",), limit=1)[0].key == "doc2"
    assert store.search(("test", "doc")) == []  # a prefix is whole labels, not text


def test_list_namespaces(store: SilcrowStore) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
               ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")]:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces(prefix=("a", "b")) == [
        ("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("users",)) == [("users", "123"), ("users", "456", "settings")]
    assert store.list_namespaces(prefix=("nope",)) == []
    everything = store.list_namespaces(limit=100)
    assert len(everything) == 9 and everything == sorted(everything)
    assert store.list_namespaces(limit=3, offset=3) == everything[3:6]
    store.delete(("a", "b", "c"), "k")
    assert ("a", "b", "c") not in store.list_namespaces()


def test_bad_input_gets_clear_errors(store: SilcrowStore) -> None:
    with pytest.raises(InvalidNamespaceError, match="tuple of strings"):
        store.put("users", "k", {"v": 1})  # type: ignore[arg-type]
    with pytest.raises(InvalidNamespaceError, match="tuple of strings"):
        store.batch([GetOp(["users"], "k")])  # type: ignore[arg-type]
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"v": 1})  # a period would make ("a", "b")
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph",), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("a", ""), "k", {"v": 1})
    with pytest.raises(ValueError, match="is not JSON data"):
        store.put(("a",), "k", {"when": object()})
    with pytest.raises(ValueError, match="is not JSON data"):
        store.put(("a",), "k", {"x": float("nan")})
    with pytest.raises(ValueError, match="must be a dict"):
        store.put(("a",), "k", ["not", "a", "dict"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown filter operator"):
        store.put(("a",), "ok", {"n": 1})
        store.search(("a",), filter={"n": {"$between": [0, 2]}})
    with pytest.raises(NotImplementedError):
        store.put(("a",), "k", {"v": 1}, ttl=5)
    assert store.get(("a",), "k") is None  # nothing half-written


def test_search_ranks_by_meaning_and_profiles_are_apart(home: Path) -> None:
    memories = {
        "hike": "Spends weekends hiking in the Alps",
        "food": "Favourite dish is salmon sushi",
        "job": "Works night shifts as a nurse at the city hospital",
        "pet": "Has a grey cat called Miso",
    }
    with SilcrowStore(home=home) as store:
        for key, text in memories.items():
            store.put(("users", "alice"), key, {"text": text})
        store.put(("users", "alice"), "raw", {"text": "Eats sushi daily"}, index=False)
        found = store.search(("users", "alice"), query="what does she like to eat?")
        assert found[0].key == "food", [(i.key, i.score) for i in found]
        assert found[0].score is not None and found[0].score > 0
        assert found[-1].key == "raw" and found[-1].score is None  # not indexed: listed last
        assert store.search(("users",), query="animals at home", limit=1)[0].key == "pet"
        assert store.search(("users", "alice"), query="medical career", limit=1)[0].key == "job"
        store.put(("users", "alice"), "food", {"text": "Has no favourite food"}, index=["nothing"])
        assert store.search(("users",), query="sushi", limit=1)[0].key != "food"
    with SilcrowStore(profile="work", home=home) as work:
        assert work.search(()) == [] and work.list_namespaces() == []
        work.put(("users", "alice"), "desk", {"text": "Sits by the window"})
        assert [i.key for i in work.search(("users",), query="where does she sit")] == ["desk"]
    with SilcrowStore(home=home) as again:  # reopened: the items were kept
        assert again.get(("users", "alice"), "desk") is None
        assert again.get(("users", "alice"), "hike") is not None


def test_a_state_graph_node_uses_the_injected_store(home: Path) -> None:
    class State(TypedDict):
        user: str
        said: str
        recalled: list[str]

    def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
        store.put(("memories", state["user"]), str(len(store.search(("memories", state["user"])))),
                  {"text": state["said"]})
        return {}

    def recall(state: State, *, store: BaseStore) -> dict[str, Any]:
        found = store.search(("memories", state["user"]), query="which pet does the user have", limit=1)
        return {"recalled": [i.value["text"] for i in found]}

    graph = StateGraph(State)
    graph.add_node("remember", remember)
    graph.add_node("recall", recall)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "recall")
    graph.add_edge("recall", END)
    with SilcrowStore(home=home) as store:
        app = graph.compile(store=store)
        for said in ("I run a small bakery downtown.", "My dog Pixel is a border collie.",
                     "I take the train to work."):
            out = app.invoke({"user": "sam", "said": said, "recalled": []})
        assert out["recalled"] == ["My dog Pixel is a border collie."]
        assert len(store.search(("memories", "sam"))) == 3
        assert store.search(("memories", "someone-else")) == []
