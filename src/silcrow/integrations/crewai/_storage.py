"""CrewAI's unified memory on a silcrow profile's notes: :class:`SilcrowStorage`."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from crewai.memory.types import MemoryRecord, ScopeInfo

from silcrow.errors import StoreError
from silcrow.integrations._profile import ProfileArg, ProjectArg, opened
from silcrow.integrations.crewai._records import RecordTable
from silcrow.models import Embedder, get_embedder
from silcrow.notes import Notes
from silcrow.recall.policy import context_block
from silcrow.store import Proposer

CLIENT = "crewai"
MODEL_ORIGIN = "tool"  # a write on the model's behalf: held under write_policy = "approve"
USER_SCOPE = "/user"  # records under it are the user's profile (USER.md); the rest, MEMORY.md
PROJECT_SCOPE = "/project"  # with a project: records under it are its PROJECT.md
SCOPES = {"user": USER_SCOPE, "project": PROJECT_SCOPE}


def target_of(scope: str, targets: Sequence[str] = ("memory", "user")) -> str:
    """The notes target of a record in ``scope``, of the ``targets`` the notes serve."""
    return next((t for t, root in SCOPES.items() if t in targets and _under(scope, root)), "memory")


def _under(scope: str, prefix: str | None) -> bool:
    if not prefix or prefix == "/":
        return True
    prefix = prefix.rstrip("/")
    return scope == prefix or scope.startswith(prefix + "/")


def _matches(record: MemoryRecord, categories: list[str] | None, metadata: dict[str, Any] | None) -> bool:
    if categories and not set(categories) & set(record.categories):
        return False
    return all(record.metadata.get(k) == v for k, v in (metadata or {}).items())


def _naive(when: datetime) -> datetime:
    """``when`` in UTC without a zone, as CrewAI dates its records (``datetime.utcnow()``)."""
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo is not None else when


class SilcrowStorage:
    """A ``crewai.memory.storage.backend.StorageBackend`` whose records are the entries of a
    silcrow profile's notes (``Memory(storage=SilcrowStorage(), embedder=storage.embedder)``).

    Every write is the model's write to the notes (:class:`silcrow.notes.Notes`, as the memory
    tool's): the notes' lock, threat scan, character limit, journal and approval gate apply, so
    under ``write_policy = "approve"`` a save waits in ``silcrow memory pending`` and only an
    approved one becomes a record. A record in scope ``/user`` (or below) is an entry of
    ``USER.md``, any other one of ``MEMORY.md``; CrewAI's fields of a record (id, scope,
    categories, metadata, importance, dates) are kept beside them in the profile's ``crewai.db``.
    Entries written elsewhere (``silcrow memory add``, the agent) are records too, in scope ``/``
    or ``/user``. Searched records come back inside the ``<memory-context>`` fence. Each profile is
    its own memory: a storage made on profile ``alice`` never sees what ``bob`` holds.

    ``project``: a directory, as ``Agent(project=...)`` takes it; the records in scope
    ``/project`` (or below) are then the entries of that git work tree's ``PROJECT.md``. Without
    one, ``/project`` is a scope of ``MEMORY.md`` like any other.
    """

    def __init__(self, profile: ProfileArg = None, *, home: Any = None,
                 project: ProjectArg = None) -> None:
        self.profile = opened(profile, home)
        self.notes: Notes = self.profile.notes(project=project)
        self.notes.proposer = Proposer(client=CLIENT, session=None)
        self._table = RecordTable(self.profile.path / "crewai.db")
        self._embedder: Embedder | None = None
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    # -- the embedder CrewAI's Memory is given -------------------------------------------------

    def _model(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                spec = self.profile.settings.embedder_spec()
                self._embedder = spec if isinstance(spec, Embedder) else get_embedder(spec)
            return self._embedder

    def embedder(self, texts: Sequence[str]) -> list[list[float]]:
        """The profile's embedder as CrewAI calls one (texts in, vectors out): give it to
        ``Memory(embedder=...)`` so the queries CrewAI embeds are in the space records are searched in."""
        return [row.tolist() for row in self._vectors_of(list(texts))]

    def _vectors_of(self, texts: list[str]) -> list[np.ndarray]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for text, row in zip(missing, self._model().embed(missing), strict=True):
                self._vectors[text] = np.asarray(row, dtype=np.float32)
        return [self._vectors[t] for t in texts]

    # -- the records ------------------------------------------------------------------------

    def _records(self) -> list[tuple[str, MemoryRecord]]:
        """(target, record) of each live notes entry, newest first."""
        known = self._table.by_entry()
        live = {target: self.notes.entries(target) for target in self.notes.targets}
        found: list[tuple[str, MemoryRecord]] = []
        dated: dict[str, list[dict[str, Any]]] | None = None
        for target, entries in live.items():
            for number, text in enumerate(entries):
                fields = known.get((target, text))
                if fields is None:  # written elsewhere: an id of its own, its date from the notes
                    if dated is None:  # the notes' metadata, read only when some entry needs it
                        dated = self.notes.details()
                    stamp = next((e.get("added") for e in dated[target][number:number + 1]
                                  if e["text"] == text), None)
                    digest = hashlib.sha256(f"{target}\n{text}".encode()).hexdigest()[:32]
                    added = datetime.fromisoformat(stamp) if stamp else datetime.now(UTC)
                    fields = {"id": f"silcrow-{digest}", "content": text,
                              "scope": SCOPES.get(target, "/"), "created_at": _naive(added)}
                found.append((target, MemoryRecord.model_validate(fields)))
        found.sort(key=lambda pair: pair[1].created_at, reverse=True)
        return found

    def _selected(self, scope_prefix: str | None = None, categories: list[str] | None = None,
                  metadata_filter: dict[str, Any] | None = None) -> list[tuple[str, MemoryRecord]]:
        return [(t, r) for t, r in self._records()
                if _under(r.scope, scope_prefix) and _matches(r, categories, metadata_filter)]

    @staticmethod
    def _checked(result: Any, what: str) -> bool:
        """True when the write is made, False when it waits for approval; a refusal raises."""
        if not result.get("success"):
            raise StoreError(f"silcrow refused to {what}: {result.get('error', 'unknown reason')}")
        return not result.get("pending")

    # -- StorageBackend ----------------------------------------------------------------------

    def save(self, records: list[MemoryRecord]) -> None:
        """Add each record's text to the notes as the model's write (held under approval)."""
        for record in records:
            target = target_of(record.scope, self.notes.targets)
            self._table.put(target, record)  # an approved proposal finds its fields here
            if record.content not in self.notes.read(target).entries:
                result = self.notes.add(target, record.content, origin=MODEL_ORIGIN)
                if not result.get("success"):
                    self._table.drop([record.id])
                self._checked(result, f"save the memory {record.content[:60]!r}")

    def search(self, query_embedding: list[float], scope_prefix: str | None = None,
               categories: list[str] | None = None, metadata_filter: dict[str, Any] | None = None,
               limit: int = 10, min_score: float = 0.0) -> list[tuple[MemoryRecord, float]]:
        """The records nearest ``query_embedding`` (cosine), their text fenced as recalled text."""
        chosen = self._selected(scope_prefix, categories, metadata_filter)
        if not chosen or not query_embedding:
            return []
        query = np.asarray(query_embedding, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        vectors = self._vectors_of([r.content for _, r in chosen])
        if norm == 0 or vectors[0].shape != query.shape:
            raise StoreError(f"the query vector has {query.shape[0]} dimensions but the profile's embedder "
                             f"gives {vectors[0].shape[0]}: build the Memory with "
                             "embedder=storage.embedder")
        scores = np.stack(vectors) @ (query / norm)
        ranked = sorted(zip(chosen, scores.tolist(), strict=True), key=lambda pair: -pair[1])
        hits = []
        for (_, record), score in ranked:
            fenced = context_block(record.content)
            if score >= min_score and fenced:
                hits.append((record.model_copy(update={"content": fenced}), float(score)))
            if len(hits) == limit:
                break
        return hits

    def delete(self, scope_prefix: str | None = None, categories: list[str] | None = None,
               record_ids: list[str] | None = None, older_than: datetime | None = None,
               metadata_filter: dict[str, Any] | None = None) -> int:
        """Remove the matching entries from the notes (each a held write under approval); the
        count is of those removed now."""
        removed: list[str] = []
        for target, record in self._selected(scope_prefix, categories, metadata_filter):
            if record_ids is not None and record.id not in record_ids:
                continue
            if older_than is not None and _naive(record.created_at) >= _naive(older_than):
                continue
            result = self.notes.remove(target, record.content, origin=MODEL_ORIGIN)
            if self._checked(result, f"delete the memory {record.id}"):
                removed.append(record.id)
        self._table.drop(removed)
        return len(removed)

    def update(self, record: MemoryRecord) -> None:
        """Replace the entry of the record with ``record.id`` by ``record.content``."""
        old = self._find(record.id)
        if old is None:
            raise StoreError(f"no memory record has the id {record.id!r}; list_records() shows the ids")
        target, previous = old
        self._table.put(target, record)
        if previous.content != record.content:
            result = self.notes.replace(target, previous.content, record.content, origin=MODEL_ORIGIN)
            self._checked(result, f"update the memory {record.id}")

    def _find(self, record_id: str) -> tuple[str, MemoryRecord] | None:
        return next(((t, r) for t, r in self._records() if r.id == record_id), None)

    def get_record(self, record_id: str) -> MemoryRecord | None:
        found = self._find(record_id)
        return None if found is None else found[1]

    def list_records(self, scope_prefix: str | None = None, limit: int = 200,
                     offset: int = 0) -> list[MemoryRecord]:
        return [r for _, r in self._selected(scope_prefix)][offset:offset + limit]

    def get_scope_info(self, scope: str) -> ScopeInfo:
        records = [r for _, r in self._selected(scope)]
        dates = [r.created_at for r in records]
        return ScopeInfo(path=scope, record_count=len(records),
                         categories=sorted({c for r in records for c in r.categories}),
                         oldest_record=min(dates) if dates else None,
                         newest_record=max(dates) if dates else None,
                         child_scopes=self.list_scopes(scope))

    def list_scopes(self, parent: str = "/") -> list[str]:
        base = parent.rstrip("/")
        children = set()
        for _, record in self._selected(parent):
            rest = record.scope[len(base):].strip("/")
            if record.scope != parent and rest:
                children.add(f"{base}/{rest.split('/')[0]}")
        return sorted(children)

    def list_categories(self, scope_prefix: str | None = None) -> dict[str, int]:
        counts: dict[str, int] = {}
        for _, record in self._selected(scope_prefix):
            for category in record.categories:
                counts[category] = counts.get(category, 0) + 1
        return counts

    def count(self, scope_prefix: str | None = None) -> int:
        return len(self._selected(scope_prefix))

    def reset(self, scope_prefix: str | None = None) -> None:
        self.delete(scope_prefix=scope_prefix)

    async def asave(self, records: list[MemoryRecord]) -> None:
        await asyncio.to_thread(self.save, records)

    async def asearch(self, query_embedding: list[float], scope_prefix: str | None = None,
                      categories: list[str] | None = None, metadata_filter: dict[str, Any] | None = None,
                      limit: int = 10, min_score: float = 0.0) -> list[tuple[MemoryRecord, float]]:
        return await asyncio.to_thread(self.search, query_embedding, scope_prefix, categories,
                                       metadata_filter, limit, min_score)

    async def adelete(self, scope_prefix: str | None = None, categories: list[str] | None = None,
                      record_ids: list[str] | None = None, older_than: datetime | None = None,
                      metadata_filter: dict[str, Any] | None = None) -> int:
        return await asyncio.to_thread(self.delete, scope_prefix, categories, record_ids, older_than,
                                       metadata_filter)

    def close(self) -> None:
        """Release the record table (CrewAI's ``Memory.close()`` calls it)."""
        self._table.close()
