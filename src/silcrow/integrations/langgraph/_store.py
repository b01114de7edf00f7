"""LangGraph's long-term memory store on a silcrow profile: :class:`SilcrowStore`."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)
from langgraph.store.base.embed import get_text_at_path

from silcrow.integrations._profile import ProfileArg, opened
from silcrow.integrations.langgraph._items import Items, Row, open_items
from silcrow.models import Embedder, get_embedder
from silcrow.recall.local import RecallBackend, RecallRecord

#: The recall scope of the store's index: apart from the agent's own memories, which recall
#: (and the agent's recall_search) never mixes in.
SCOPE: tuple[str | None, str | None] = (None, "langgraph-store")
MAX_INDEX_CHARS = 4000  # of one item's text, as a recall fact holds
MAX_CANDIDATES = 5000  # recall hits read for one query


def _checked_namespace(namespace: Any, what: str) -> tuple[str, ...]:
    if not isinstance(namespace, tuple) or not all(isinstance(label, str) for label in namespace):
        raise InvalidNamespaceError(
            f"{what} must be a tuple of strings such as ('users', 'alice', 'memories'), got "
            f"{type(namespace).__name__} {namespace!r:.80}")
    return namespace


def _prefix(namespace: tuple[str, ...]) -> str:
    return ".".join(namespace)


def _namespace(prefix: str) -> tuple[str, ...]:
    return tuple(prefix.split("."))


def _encoded(namespace: tuple[str, ...], key: Any, value: Any) -> str:
    if not isinstance(key, str):
        raise ValueError(f"the key of an item in {namespace} must be a string, got {type(key).__name__}")
    if not isinstance(value, Mapping):
        raise ValueError(f"the value of {namespace}/{key} must be a dict of JSON data, got "
                         f"{type(value).__name__}")
    try:
        return json.dumps(dict(value), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the value of {namespace}/{key} is not JSON data ({exc}); store strings, numbers, "
                         "booleans, None, lists and dicts only") from exc


def _when(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value, depth first: what its text means, without JSON syntax."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _matches(item_value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics (``langgraph/store/memory/__init__.py``: exact JSON equality,
    nested dicts, and the operators $eq $ne $gt $gte $lt $lte)."""
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(item_value, op, arg) for op, arg in wanted.items())
        return isinstance(item_value, Mapping) and all(
            _matches(item_value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (isinstance(item_value, list | tuple) and len(item_value) == len(wanted)
                and all(_matches(a, b) for a, b in zip(item_value, wanted, strict=True)))
    return bool(item_value == wanted)


def _operator(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op in ("$gt", "$gte", "$lt", "$lte"):
        try:
            left, right = float(value), float(arg)
        except (TypeError, ValueError):
            return False
        return {"$gt": left > right, "$gte": left >= right, "$lt": left < right, "$lte": left <= right}[op]
    raise ValueError(f"unknown filter operator {op!r}; use $eq, $ne, $gt, $gte, $lt or $lte")


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"unknown match_type {condition.match_type!r}; use 'prefix' or 'suffix'")
    return all(p == "*" or n == p for n, p in pairs)


class SilcrowStore(BaseStore):
    """A LangGraph ``BaseStore`` on a silcrow profile (``graph.compile(store=SilcrowStore())``).

    Items live in the profile's storage (``langgraph.db`` beside its notes, or its rows in the
    PostgreSQL database its settings name), so two profiles never see each other's namespaces.
    ``search(..., query=...)`` ranks by silcrow's hybrid recall (words and meaning, with the
    profile's embedder), items it does not index last; without a query, the most recently
    changed first. ``index``: the value fields a put indexes by default (LangGraph's paths,
    ``"$"`` for every string in the value); ``put(..., index=False)`` stores without indexing.
    """

    supports_ttl = False

    def __init__(self, profile: ProfileArg = None, *, home: Any = None,
                 index: Sequence[str] | None = None) -> None:
        self.profile = opened(profile, home)
        self.index_fields = list(index) if index is not None else ["$"]
        self._items: Items = open_items(self.profile)
        self._recall: RecallBackend | None = None
        self._lock = threading.Lock()

    # -- the recall index ------------------------------------------------------------------

    def _index(self) -> RecallBackend:
        with self._lock:
            if self._recall is None:
                spec = self.profile.settings.embedder_spec()
                embedder = spec if isinstance(spec, Embedder) else get_embedder(spec)
                self._recall = self.profile.recall_storage(embedder)
            return self._recall

    def _text(self, value: Mapping[str, Any], index: Any) -> str:
        fields = self.index_fields if index is None else index
        if fields is False or not fields:
            return ""
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
            raise ValueError(f"index must be False, None or a list of field paths, got {index!r}")
        parts: list[str] = []
        for path in fields:
            parts += _strings(dict(value)) if path == "$" else get_text_at_path(dict(value), path)
        return "\n".join(p for p in parts if p.strip())[:MAX_INDEX_CHARS]

    def _release(self, recall_id: int | None) -> None:
        if recall_id is not None and not self._items.uses(recall_id):
            self._index().delete([recall_id])

    # -- the operations ----------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (a get after a put in one batch sees the put)."""
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp | PutOp):
                _checked_namespace(op.namespace, "namespace")
            elif isinstance(op, SearchOp):
                _checked_namespace(op.namespace_prefix, "namespace_prefix")
            elif not isinstance(op, ListNamespacesOp):
                raise ValueError(f"unknown store operation {type(op).__name__}; use GetOp, PutOp, SearchOp "
                                 "or "
                                 "ListNamespacesOp")
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            else:
                results.append(self._list(op))
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _get(self, op: GetOp) -> Item | None:
        row = self._items.get(_prefix(op.namespace), op.key)
        return None if row is None else self._item(row)

    def _put(self, op: PutOp) -> None:
        namespace, prefix = op.namespace, _prefix(op.namespace)
        if op.value is None:
            self._release(self._items.delete(prefix, op.key))
            return
        if not namespace:
            raise InvalidNamespaceError("a namespace cannot be empty; give at least one label, "
                                        "e.g. ('notes',)")
        if namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"the root label of a namespace cannot be 'langgraph', got "
                                        f"{namespace}")
        encoded = _encoded(namespace, op.key, op.value)
        text = self._text(op.value, op.index)
        recall_id = None
        if text:
            _, ids = self._index().ingest([RecallRecord(text=text, kind="fact", speaker="langgraph",
                                                        metadata={"source": "langgraph"})], SCOPE)
            recall_id = ids[0]
        old = self._items.put(prefix, op.key, encoded, recall_id, time.time())
        if old != recall_id:
            self._release(old)

    @staticmethod
    def _found(row: Row, score: float | None) -> SearchItem:
        return SearchItem(_namespace(row.prefix), row.key, json.loads(row.value), _when(row.created_at),
                          _when(row.updated_at), score)

    @staticmethod
    def _item(row: Row) -> Item:
        value = json.loads(row.value)
        return Item(value=value, key=row.key, namespace=_namespace(row.prefix),
                    created_at=_when(row.created_at), updated_at=_when(row.updated_at))

    def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit < 0 or op.offset < 0:
            raise ValueError(f"limit and offset must be >= 0, got {op.limit} and {op.offset}")
        rows = self._items.under(_prefix(op.namespace_prefix))
        if op.filter:
            if not isinstance(op.filter, Mapping):
                raise ValueError(f"filter must be a dict such as {{'kind': 'note'}}, got {op.filter!r:.80}")
            conditions = op.filter.items()
            rows = [r for r in rows if all(_matches(json.loads(r.value).get(k), v) for k, v in conditions)]
        scores: dict[int, float] = {}
        if op.query and op.query.strip() and any(r.recall_id is not None for r in rows):
            wanted = min(MAX_CANDIDATES, max(self._items.indexed(), 1))
            hits = self._index().search(op.query, wanted, SCOPE, mode="hybrid")
            scores = {h.id: h.score for h in hits}
            order = {h.id: n for n, h in enumerate(hits)}
            rows.sort(key=lambda r: order.get(r.recall_id, math.inf) if r.recall_id is not None else math.inf)
        page = rows[op.offset:op.offset + op.limit]
        return [self._found(r, scores.get(r.recall_id) if r.recall_id is not None else None) for r in page]

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = [_namespace(p) for p in self._items.prefixes()]
        for condition in op.match_conditions or ():
            namespaces = [ns for ns in namespaces if _namespace_matches(condition, ns)]
        if op.max_depth is not None:
            namespaces = [ns[:op.max_depth] for ns in namespaces]
        found = sorted(set(namespaces))
        return found[op.offset:op.offset + op.limit]

    def close(self) -> None:
        """Release the connections."""
        self._items.close()
        if self._recall is not None:
            self._recall.close()

    def __enter__(self) -> SilcrowStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
