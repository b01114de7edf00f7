"""The storage seam of the local recall provider.

:class:`~silcrow.recall.local.LocalProvider` needs exactly these
operations from wherever its memories live: the SQLite file of a home
(:class:`~silcrow.recall.local.RecallStore`) or a shared PostgreSQL
database (:class:`silcrow.recall.local.PostgresRecall`). Both run the same
hybrid retrieval (:mod:`silcrow.recall.local._retrieval`): BM25-like lexical
scores and cosine similarities fused the same way.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import Any, NamedTuple

import numpy as np

from silcrow.errors import RecallError
from silcrow.models import Embedder
from silcrow.recall.local import _retrieval as retrieval
from silcrow.recall.local._records import (
    KINDS,
    MemoryFilter,
    RecallHit,
    RecallRecord,
    Scope,
    content_hash,
    to_epoch,
)

BATCH = 256  # rows embedded and committed per transaction during ingest
#: Whether a long ingest embeds one batch while it writes the one before (off: one after another).
PIPELINE = True


def ready(vectors: np.ndarray | None) -> Callable[[], np.ndarray | None]:
    """Vectors already made, as :meth:`RecallBackend._write` asks for them."""
    return lambda: vectors


class Writers(NamedTuple):
    """Threads that write an ingest's batches for a backend (see :meth:`RecallBackend._writer`):
    ``ready`` is called first in each of the ``threads``."""

    ready: Callable[[], None]
    threads: int


class Turns:
    """The order in which batches written by several threads insert their rows: the records'
    (ids follow the records, and the ranking reads a turn's neighbours by id). Batch n's turn
    begins when batch n - 1's has ended; once one failed, the later ones refuse theirs, so no
    rows are stored after a batch that was not."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._next = 0
        self._failed = False

    @contextlib.contextmanager
    def of(self, n: int) -> Iterator[None]:
        """Batch ``n``'s turn to insert; leaving it with an error fails the ones after."""
        with self._cond:
            self._cond.wait_for(lambda: self._next >= n)
        ok = False
        try:
            if self._failed:
                raise RecallError("an earlier batch of this ingest failed, so this one was not stored "
                                  "either; ingest the same records again to store what is missing")
            yield
            ok = True
        finally:
            with self._cond:
                self._failed = self._failed or not ok
                self._next = max(self._next, n + 1)
                self._cond.notify_all()

    def close(self, n: int, *, failed: bool) -> None:
        """After batch ``n``'s write, which may not have taken its turn (it had nothing new to
        insert, or ``failed`` before): the next one may go (and refuses to if ``failed``)."""
        with self._cond:
            self._cond.wait_for(lambda: self._next >= n)
            if self._next == n:
                self._failed = self._failed or failed
                self._next = n + 1
                self._cond.notify_all()


class RecallBackend(ABC):
    """Memories of every scope, searchable by words and by meaning.

    Ingest (validation, context windows, content-hash identity, embedding
    outside any lock) is written once here; a backend supplies the storage
    steps it calls (``_recent_turns``, ``_known``, ``_write``).
    """

    embedder: Embedder

    def ingest(
        self,
        records: Sequence[RecallRecord],
        scope: Scope,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, list[int]]:
        """Store ``records``; returns (how many were new, the id of each record in order)."""
        for n, rec in enumerate(records):
            if not isinstance(rec, RecallRecord):
                raise RecallError(f"record {n} is a {type(rec).__name__}, expected RecallRecord")
            if not isinstance(rec.text, str) or not rec.text.strip():
                raise RecallError(f"record {n} has empty text; every memory needs some text")
            if rec.kind not in KINDS:
                raise RecallError(f"record {n} has kind {rec.kind!r}; use one of {', '.join(KINDS)}")
        added, ids = 0, list[int]()
        recent: dict[tuple[str, Scope], deque[str]] = {}
        cache = self._own_vectors()
        embeds = self._embeds()

        def vectors_of(fresh: list[dict[str, Any]]) -> np.ndarray | None:
            if not embeds or not fresh:
                return None
            # Embedded BATCH rows at a time whatever a backend writes per transaction: the int8
            # model's activations are quantised per call, so a text's vector shifts a little
            # with the texts embedded beside it, and a store writing larger batches would
            # otherwise hold other vectors (and rank differently) than one writing smaller ones.
            return np.concatenate([
                retrieval.memory_vectors(
                    self.embedder,
                    [retrieval.body_text(p["rec"].text, p["rec"].speaker) for p in part],
                    [p["context"] for p in part],
                    cache,
                )
                for part in (fresh[i:i + BATCH] for i in range(0, len(fresh), BATCH))
            ])

        def settle(prepared: list[dict[str, Any]], stored: int, done: int) -> int:
            ids.extend(p["twin"]["id"] if "twin" in p else p["id"] for p in prepared)
            if progress is not None:
                progress(done)
            return stored

        turns = Turns()

        def write(fresh: list[dict[str, Any]], vectors: Callable[[], np.ndarray | None], n: int) -> int:
            written = False
            try:
                with self._guard():
                    stored = self._write(fresh, vectors, turns.of(n))
                written = True
                return stored
            finally:
                turns.close(n, failed=not written)

        def land(prepared: list[dict[str, Any]], fresh: list[dict[str, Any]], future: Future[Any],
                 done: int, n: int) -> int:
            """A batch of the pipeline: its write's count, from the writer thread; or, without
            one, its vectors (waited for before any lock is taken), then its write here."""
            if aside is not None:
                return settle(prepared, int(future.result()), done)
            return settle(prepared, write(fresh, ready(future.result()), n), done)

        size = self._batch_rows()
        batches = [(start, min(start + size, len(records))) for start in range(0, len(records), size)]
        aside = self._writer()
        if not PIPELINE or (len(batches) <= 1 and aside is None):
            for n, (start, end) in enumerate(batches):
                with self._guard():
                    prepared, fresh = self._prepare(records[start:end], scope, recent)
                added += settle(prepared, write(fresh, ready(vectors_of(fresh)), n), end)
        else:
            # A pipeline: while one batch is embedded (the slow part, on both cores: ONNX Runtime
            # releases the GIL), the one before it is written and the one after it prepared.
            # A backend that writes from threads of its own (``_writer``) also sends each batch
            # before its vectors are made, so even a single batch is written while it is embedded,
            # and with two threads one batch is sent while the one before it is inserted.
            # Searches and other writers proceed meanwhile: no lock is held while embedding.
            with contextlib.ExitStack() as stack:
                embedding = stack.enter_context(
                    ThreadPoolExecutor(max_workers=1, thread_name_prefix="silcrow-embed"))
                writing = None if aside is None else stack.enter_context(ThreadPoolExecutor(
                    max_workers=aside.threads, thread_name_prefix="silcrow-write", initializer=aside.ready))
                ahead = 1 if aside is None else aside.threads  # batches written (or made) meanwhile
                flight: deque[tuple[list[dict[str, Any]], list[dict[str, Any]], Future[Any], int, int]]
                flight = deque()
                try:
                    for n, (start, end) in enumerate(batches):
                        with self._guard():
                            prepared, fresh = self._prepare(records[start:end], scope, recent)
                        making = embedding.submit(vectors_of, fresh)
                        written = making if writing is None else writing.submit(
                            write, fresh, making.result, n)
                        flight.append((prepared, fresh, written, end, n))
                        while len(flight) > ahead:
                            added += land(*flight.popleft())
                    while flight:
                        added += land(*flight.popleft())
                except BaseException:
                    # What has not started never will: the writes under way are all before it,
                    # so none waits for the turn of one cancelled.
                    for _, _, future, _, _ in flight:
                        future.cancel()
                    raise
        self._ingested(added)
        return added, ids

    def _own_vectors(self) -> retrieval.OwnVectors:
        """The own vectors of the bodies this backend embedded lately (see retrieval.OwnVectors)."""
        cache: retrieval.OwnVectors | None = getattr(self, "_own_vector_cache", None)
        if cache is None:
            cache = self._own_vector_cache = retrieval.OwnVectors()
        return cache

    def _context_for(
        self, rec: RecallRecord, rscope: Scope, recent: dict[tuple[str, Scope], deque[str]]
    ) -> str:
        """The preceding turns of ``rec``'s session (up to CONTEXT_TURNS), then remember ``rec``."""
        if rec.kind != "turn" or not rec.session_id:
            return ""
        key = (rec.session_id, rscope)
        window = recent.get(key)
        if window is None:
            self._recall_windows([key], recent)
            window = recent[key]
        context = "\n".join(window)  # bodies are single lines, so this splits back exactly
        if window.maxlen:
            window.append(retrieval.context_piece(retrieval.body_text(rec.text, rec.speaker)))
        return context

    def _recall_windows(
        self, keys: list[tuple[str, Scope]], recent: dict[tuple[str, Scope], deque[str]]
    ) -> None:
        """Start the window of each (session, scope) of ``keys`` with its stored turns."""
        found = self._recent_turns_of(keys, retrieval.CONTEXT_TURNS)
        for key in keys:
            recent[key] = deque(
                (retrieval.context_piece(retrieval.body_text(t, s)) for s, t in reversed(found.get(key, []))),
                maxlen=retrieval.CONTEXT_TURNS,
            )

    def _prepare(
        self, chunk: Sequence[RecallRecord], scope: Scope, recent: dict[tuple[str, Scope], deque[str]]
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Scope, time, context and identity of each record; which of them are new."""
        self._refresh()
        now = time.time()
        scoped = [(rec, (rec.user_id if rec.user_id is not None else scope[0],
                         rec.agent_id if rec.agent_id is not None else scope[1])) for rec in chunk]
        # The stored turns before each session this chunk continues, asked for all at once.
        opened = [key for rec, rscope in scoped if rec.kind == "turn" and rec.session_id
                  if (key := (rec.session_id, rscope)) not in recent]
        if opened:
            self._recall_windows(list(dict.fromkeys(opened)), recent)
        prepared: list[dict[str, Any]] = []
        for rec, rscope in scoped:
            given = to_epoch(rec.timestamp)
            ts = now if given is None else given
            # A record from a source (it has an external id) is identified by what the source
            # says, so re-reading an undated file finds the same records; a live turn without
            # a time is a new utterance each time, even the same "ok" twice.
            ident_ts = given if rec.external_id is not None else ts
            prepared.append({
                "rec": rec, "scope": rscope, "ts": ts, "created": now, "id": 0,
                "context": self._context_for(rec, rscope, recent),
                "hash": content_hash(rec, ident_ts, rscope[0], rscope[1]),
            })
        hashes = list({p["hash"] for p in prepared})
        known = self._known(hashes)
        fresh: list[dict[str, Any]] = []
        first: dict[str, dict[str, Any]] = {}
        for p in prepared:
            if p["hash"] in known:
                p["id"] = int(known[p["hash"]])
            elif p["hash"] in first:
                p["twin"] = first[p["hash"]]  # a copy within this chunk: gets the first one's id
            else:
                first[p["hash"]] = p
                fresh.append(p)
        return prepared, fresh

    # -- what a backend supplies to ingest ------------------------------------------------

    @abstractmethod
    def _guard(self) -> AbstractContextManager[None]:
        """Around each storage step of ingest: locks and error translation."""

    def _batch_rows(self) -> int:
        """Records per batch (each embedded, then written in one transaction)."""
        return BATCH

    def _refresh(self) -> None:
        """Catch up with other writers before reading (a no-op where reads are always current)."""

    def _ingested(self, added: int) -> None:
        """After an ingest stored ``added`` new memories (e.g. to refresh planner statistics)."""

    @abstractmethod
    def _embeds(self) -> bool:
        """Whether memories get vectors (an embedder with a dimension)."""

    @abstractmethod
    def _recent_turns(self, session_id: str, scope: Scope, limit: int) -> list[tuple[str, str]]:
        """(speaker, text) of the newest ``limit`` turns of a session in ``scope``, newest first."""

    def _recent_turns_of(
        self, keys: list[tuple[str, Scope]], limit: int
    ) -> dict[tuple[str, Scope], list[tuple[str, str]]]:
        """:meth:`_recent_turns` of each (session, scope) of ``keys``; a backend where a query
        costs a round trip answers them all with one."""
        return {key: self._recent_turns(key[0], key[1], limit) for key in keys}

    @abstractmethod
    def _known(self, hashes: list[str]) -> dict[str, int]:
        """Content hash -> id of the stored memories among ``hashes``."""

    @abstractmethod
    def _write(
        self, fresh: list[dict[str, Any]], vectors: Callable[[], np.ndarray | None],
        turn: AbstractContextManager[None],
    ) -> int:
        """Insert the new rows in one transaction, setting each one's "id"; returns how many
        were really new (another writer may have stored some since ``_prepare``). ``vectors``
        answers the rows' vectors (None without an embedder), waiting until they are made: a
        backend asks for them as late as it can and does what it can before. The rows are
        inserted inside ``turn``, which orders the batches that several threads write."""

    def _writer(self) -> Writers | None:
        """None where batches are written by the ingesting thread (the default); else the
        threads that write them: a backend whose writes wait on a server writes one batch while
        the next is prepared. Such a backend's ``_write`` waits for the vectors inside
        :meth:`_guard`, which must then hold no lock."""
        return None

    # -- the rest of the interface ---------------------------------------------------------

    @abstractmethod
    def search(
        self, query: str, k: int, scope: Scope, *, mode: str = "hybrid", min_similarity: float | None = None,
        fusion: str = "score", project: str | None = None,
    ) -> list[RecallHit]:
        """Best ``k`` memories for ``query`` in ``scope``; mode is hybrid, lexical or dense;
        ``fusion`` one of ``retrieval.FUSIONS`` (how hybrid combines its two sides); ``project``
        keeps only memories whose ``metadata["project"]`` is that directory or one below it."""

    def projects_of(self, ids: Sequence[int]) -> dict[int, str]:
        """The project (``metadata["project"]``, a working directory) of each of these memories
        that records one; a backend that keeps no metadata knows none."""
        return {}

    @abstractmethod
    def find_ids(self, which: MemoryFilter, scope: Scope) -> list[int]:
        """Ids in ``scope`` of the memories ``which`` picks, oldest first."""

    @abstractmethod
    def delete(self, ids: Sequence[int]) -> int:
        """Delete these memories; returns how many existed."""

    @abstractmethod
    def stats(self, scope: Scope) -> dict[str, Any]:
        """Counts and where the memories live, for ``silcrow recall stats``."""

    @abstractmethod
    def close(self) -> None:
        """Release connections; the backend is not used again."""


def rank(
    query: str,
    mode: str,
    lexical: Sequence[tuple[int, float]],
    dense: Mapping[int, float],
    about: Callable[[list[int]], Mapping[int, tuple[str, str]]],
    *,
    min_similarity: float | None,
    fusion: str = "score",
) -> list[tuple[int, float]]:
    """The final order of a search's candidates, the same for every backend.

    ``lexical`` holds (id, score) with larger better; ``dense`` the cosine of every
    candidate that has a vector. Hybrid fuses both (retrieval.fuse), lifts the neighbours
    of the best hits, boosts turns whose speaker the query names, and, for a question that
    asks for several things, lets a session's later hits give way to other sessions.
    With ``min_similarity``, a candidate that shares no word with the query and whose
    cosine is below it is left out: fused scores are
    relative to the pool, so without this gate a query about something never discussed
    still gets "best" hits.
    """
    if mode == "dense":
        ranked = sorted(dense.items(), key=lambda p: (-p[1], p[0]))
    else:
        combine = retrieval.FUSIONS[fusion]
        ranked = combine(lexical, dense, alpha=retrieval.ALPHA if mode == "hybrid" else 0.0)
        if mode == "hybrid" and ranked:
            ids = [i for i, _ in ranked]
            near = [j for i in ids[: retrieval.NEIGHBOUR_TOP] for j in (i - 1, i + 1)]
            known = about(list(dict.fromkeys([*ids, *near])))
            sessions = {i: session for i, (_, session) in known.items()}
            ranked = retrieval.spread_to_neighbours(ranked, sessions)
            ranked = retrieval.boost_named_speakers(ranked, {i: who for i, (who, _) in known.items()}, query)
            ranked = retrieval.session_context(ranked, sessions)
            decay = retrieval.SESSION_DECAY
            if retrieval.asks_for_a_list(query):
                decay = min(decay, retrieval.LIST_SESSION_DECAY)
            ranked = retrieval.diversify_sessions(ranked, sessions, decay=decay)
            ranked = retrieval.diversify_tail(ranked, sessions)
    if min_similarity is not None:
        matched = {i for i, _ in lexical}
        ranked = [(i, sc) for i, sc in ranked if i in matched or dense.get(i, -1.0) >= min_similarity]
    return ranked


def in_project(directory: str, project: str) -> bool:
    """Whether ``directory`` is ``project`` or one below it (both absolute paths), as the SQL
    conditions of :func:`project_params` decide it."""
    root, length, below = project_params(project)
    return directory == root or directory[:length] == below


def project_params(project: str) -> tuple[str, int, str]:
    """The parameters of :data:`PROJECT_SQL`-style conditions: the directory, and the prefix
    (with its length) that a directory below it starts with."""
    project = project.rstrip("/") or "/"
    below = project if project.endswith("/") else project + "/"
    return project, len(below), below


def filter_sql(
    which: MemoryFilter, scope: Scope, *, scope_sql: str, mark: str, contains_sql: str
) -> tuple[str, list[Any]]:
    """The WHERE condition (over the memories table) and parameters of ``which`` in ``scope``.

    ``scope_sql`` takes the user and agent id, ``mark`` is the engine's placeholder and
    ``contains_sql`` the engine's "text contains, ignoring ASCII case" with one placeholder.
    """
    where, params = [scope_sql], list[Any](scope)
    for column, value in (("id", which.id), ("kind", which.kind), ("session_id", which.session_id)):
        if value is not None:
            where.append(f"{column} = {mark}")
            params.append(value)
    if which.before is not None:
        where.append(f"ts < {mark}")
        params.append(which.before)
    if which.contains is not None:
        where.append(contains_sql)
        params.append(which.contains)
    return " AND ".join(where), params
