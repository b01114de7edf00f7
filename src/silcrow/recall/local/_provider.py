"""LocalProvider: the built-in recall provider, one SQLite file per home (or a shared PostgreSQL).

It turns the :class:`MemoryProvider` hooks into calls on a :class:`RecallBackend`
(``<home>/recall.db``, or the database ``[storage]`` names, see :func:`open_recall`):
completed turns are stored (``sync_turn``), curated-memory writes are
mirrored as facts, ``prefetch`` formats the best hits compactly with their
dates, and three tools let the model search, add and forget.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from silcrow._paths import recall_db, resolve_home
from silcrow.config import ProfileSettings, Settings, profile_settings
from silcrow.errors import RecallError, SilcrowError
from silcrow.models import DEFAULT_EMBEDDER, Embedder, Reranker, get_embedder, get_reranker
from silcrow.recall import _tools as tools
from silcrow.recall import policy
from silcrow.recall._api import Forgotten, Found, Remembered
from silcrow.recall._limits import MAX_FACT_CHARS, MAX_RECORD_CHARS
from silcrow.recall._provider import MemoryProvider
from silcrow.recall._records import RecallHit, RecallRecord
from silcrow.recall._spec import ToolSpec
from silcrow.recall.local._admit import admit
from silcrow.recall.local._backend import RecallBackend, in_project
from silcrow.recall.local._records import MemoryFilter, Scope, to_epoch
from silcrow.recall.local._rerank import RERANK_DEPTH, rerank
from silcrow.recall.local._supersede import supersede

log = logging.getLogger(__name__)

PREFETCH_K = 6
PREFETCH_POOL = 4 * PREFETCH_K  # searched before turns already in the conversation are dropped
PREFETCH_CHARS = 1800  # keeps the fenced block small next to the user's message
HIT_CHARS = 300


class LocalProvider(MemoryProvider):
    """Hybrid (FTS5 + vectors) recall over ``<home>/recall.db``."""

    name = "local"
    external = False  # silcrow's own database: it keeps what the user wrote, secrets included

    def __init__(self, home: Path | str | None = None, *, embedder: str | Embedder | None = None,
                 storage: Callable[[Embedder], RecallBackend] | None = None,
                 reranker: str | Reranker | None = None, settings: Settings | None = None) -> None:
        self._home = Path(home).expanduser() if home is not None else None
        # The opened profile's settings give what the arguments leave out.
        if settings is not None:
            embedder = settings.embedder_spec() if embedder is None else embedder
            reranker = settings.reranker if reranker is None else reranker
        # How to open the storage of ``home`` when it was decided already (Profile.provider):
        # else its settings are read again, which knows nothing of a DSN given as an argument.
        self._storage = storage
        self._storage_home = self._home
        self._embedder_spec: str | Embedder = embedder if embedder is not None else DEFAULT_EMBEDDER
        # Optional (``[recall] reranker``): reorders the best hits of every hybrid search.
        self._reranker_spec = reranker
        self._reranker: Reranker | None = None
        self._store: RecallBackend | None = None
        self._open_lock = threading.Lock()
        self._session_id = ""
        self._scope: Scope = (None, None)
        self._why_not = ""
        # Per session: the highest turn id folded into a compression summary. Turns of the
        # current session above it are still in the model's context, so prefetch skips them.
        self._summarised_upto: dict[str, int] = {}
        self._ancestors: dict[str, float | None] = {}  # ancestor session -> when the lineage left it
        self._lineage_since: float | None = None  # before this, the history is only a summary
        # The project (a git work tree's root) the session runs in: recalled context leaves out
        # the memories of other projects (see _of_this_project).
        self._project: str | None = None

    # -- setup -----------------------------------------------------------------------------

    def is_available(self) -> bool:
        try:
            self._get_reranker()
            if not isinstance(self._embedder_spec, Embedder):
                get_embedder(self._embedder_spec)  # constructing checks installed packages; no I/O
        except RecallError as exc:  # a missing package, or a model or reranker name it does not know
            self._why_not = str(exc)
            return False
        return True

    def unavailable_reason(self) -> str:
        return self._why_not if not self.is_available() else ""

    def initialize(self, session_id: str, **context: Any) -> None:
        home = context.get("home")
        with self._open_lock:
            if home is not None:
                new_home = Path(home).expanduser()
                if self._store is not None and new_home != self._home:
                    self._store.close()  # a new home (e.g. another profile): reopen there
                    self._store = None
                self._home = new_home
            self._session_id = session_id or ""
            self._scope = (context.get("user_id"), context.get("agent_id"))
            # Sessions this one was branched from: their turns up to the fork came along into its
            # history (to the fork time when it is given, else all of them).
            forked = context.get("ancestor_forked_at")
            forked = forked if isinstance(forked, dict) else {}
            self._ancestors = {
                str(a): _epoch(forked.get(a)) for a in context.get("ancestor_session_ids") or ()
            }
            self._lineage_since = _epoch(context.get("summarised_before"))
            project = context.get("project")
            self._project = (os.fspath(project) if isinstance(project, (str, os.PathLike)) and project
                             else None)
        self._get_store()  # open now so a bad home or model fails here, not mid-turn
        since = self._lineage_since
        if self._session_id and since is not None:
            # A resumed session that was compressed: its turns from before that point live on
            # only in the summary, so they may be recalled again.
            self._mark_summarised(MemoryFilter(session_id=self._session_id, before=since))

    @property
    def store(self) -> RecallBackend:
        return self._get_store()

    def _get_reranker(self) -> Reranker | None:
        spec = self._reranker_spec
        if self._reranker is None and spec is not None:
            self._reranker = spec if isinstance(spec, Reranker) else get_reranker(spec)
            if self._reranker is None:
                self._reranker_spec = None  # "none"
        return self._reranker

    def _search(self, query: str, k: int, *, mode: str = "hybrid", fusion: str = "score",
                min_similarity: float | None = None, project: str | None = None) -> list[RecallHit]:
        """The store's best ``k`` hits, the first RERANK_DEPTH reordered by the reranker if one
        is set (hybrid searches only: lexical and dense are the ablations of the ranking)."""
        store = self.store
        reranker = self._get_reranker() if mode == "hybrid" else None
        wanted = max(k, RERANK_DEPTH) if reranker is not None else k
        hits = store.search(query, wanted, self._scope, mode=mode, fusion=fusion,
                            min_similarity=min_similarity, project=project)
        if reranker is not None:
            hits = rerank(reranker, query, hits)
        return supersede(hits[:k])[0]  # a fact a later one updates ranks after it

    def _get_store(self) -> RecallBackend:
        with self._open_lock:
            if self._store is None:
                home = self._home if self._home is not None else resolve_home()
                spec = self._embedder_spec
                embedder = spec if isinstance(spec, Embedder) else get_embedder(spec)
                mine = self._storage_home
                if self._storage is not None and mine is not None and home.absolute() == mine.absolute():
                    self._store = self._storage(embedder)
                else:
                    self._store = open_recall(home, embedder)
            return self._store

    def shutdown(self) -> None:
        with self._open_lock:
            if self._store is not None:
                self._store.close()
                self._store = None  # a later call reopens: shutdown is idempotent

    # -- the Python API --------------------------------------------------------------------

    def ingest(
        self, records: Sequence[RecallRecord], *, progress: Callable[[int], None] | None = None,
        skipped: Counter[str] | None = None,
    ) -> int:
        """Store ``records`` in batches; returns how many were new (duplicates are skipped).

        One odd record does not stop the rest (see :func:`~silcrow.recall.local._admit.admit`):
        text over MAX_RECORD_CHARS keeps its beginning, a record without text is left out,
        characters that cannot be stored are replaced; each is counted by reason in
        ``skipped`` (and logged when no counter is given). ``progress`` is called with how
        many of the given records are done.
        """
        records = list(records)
        reasons: Counter[str] = Counter() if skipped is None else skipped
        before = reasons.copy()
        fit = admit(records, reasons)
        changed = reasons - before
        if changed and skipped is None:
            log.warning("recall ingest: %s", ", ".join(f"{n} {why}" for why, n in changed.items()))
        left_out = len(records) - len(fit)
        report = None
        if progress is not None:
            report = (lambda done: progress(done + left_out)) if left_out else progress
        added, _ = self.store.ingest(fit, self._scope, report)
        return added

    def search(
        self, query: str, k: int = 10, *, mode: str = "hybrid", fusion: str = "score",
        project: str | None = None,
    ) -> Found:
        """Best ``k`` memories for ``query`` in this provider's user/agent scope (``Found.hits``).

        ``fusion``: how hybrid search combines its sides ("score"; "rrf" or "dbsf" as ablations).
        ``project``: only memories of that working directory or one below it (an absolute
        path; imported coding-agent sessions record theirs in ``metadata["project"]``).
        """
        if mode not in ("hybrid", "lexical", "dense"):
            raise RecallError(f"unknown search mode {mode!r}; use hybrid, lexical or dense")
        return Found(hits=tuple(self._search(query, k, mode=mode, fusion=fusion, project=project)))

    def remember(self, text: str, *, source: str = "api") -> Remembered:
        """Save a fact (:meth:`add_fact`), noting who saved it."""
        return Remembered(self.add_fact(text, metadata={"source": source}))

    def add_fact(self, text: str, *, metadata: dict[str, Any] | None = None) -> int:
        """Save a fact; returns its id (the existing id if the same fact is already stored)."""
        if len(text) > MAX_FACT_CHARS:
            raise RecallError(f"the fact is {len(text)} characters, over the cap of {MAX_FACT_CHARS}; "
                              "save one short fact at a time")
        record = RecallRecord(text=text, kind="fact", session_id=self._session_id, metadata=metadata or {})
        _, ids = self.store.ingest([record], self._scope)
        return ids[0]

    def forget(self, id_or_query: int | str, *, max_matches: int | None = None) -> Forgotten:
        """Delete one memory by id, or every memory in scope whose text contains the given text.

        Text matching ignores ASCII case. With ``max_matches``, text that matches more
        memories than that deletes nothing and raises instead (the model's tool uses
        this, so one careless word cannot wipe the store).
        """
        store = self.store
        if isinstance(id_or_query, int) and not isinstance(id_or_query, bool):
            ids = store.find_ids(MemoryFilter(id=id_or_query), self._scope)
        elif isinstance(id_or_query, str):
            needle = id_or_query.strip()
            if needle.isdigit():
                ids = store.find_ids(MemoryFilter(id=int(needle)), self._scope)
            elif len(needle) < 3:
                raise RecallError(
                    f"forget needs a memory id or at least 3 characters of text, got {id_or_query!r}"
                )
            else:
                ids = store.find_ids(MemoryFilter(contains=needle), self._scope)
                if max_matches is not None and len(ids) > max_matches:
                    raise RecallError(
                        f"{needle!r} matches {len(ids)} memories (more than {max_matches}); "
                        "nothing was deleted: use a longer phrase or the ids from recall_search"
                    )
        else:
            raise RecallError(f"forget takes a memory id or text, not {type(id_or_query).__name__}")
        return Forgotten(store.delete(ids))

    def stats(self) -> dict[str, Any]:
        return self.store.stats(self._scope)

    def recall_status(self) -> dict[str, Any]:
        status = super().recall_status()
        if self._store is None:  # not opened: a status must not create the database
            status["opened"] = False
        elif status["available"]:
            try:
                status.update(self.stats())
            except SilcrowError as exc:  # a status must show, whatever state the database is in
                status["error"] = str(exc)
        return status

    # -- hooks -----------------------------------------------------------------------------

    def system_prompt_block(self) -> str:
        return (
            "You have long-term memory of past conversations. Relevant memories may appear in a "
            "<memory-context> block; use recall_search to look further, recall_add to keep a fact."
        )

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        """The best memories for this turn, leaving out what the conversation still shows.

        Turns of ``session_id`` (default: the session given to ``initialize``), and
        facts saved during it (the tool call that saved them is in the transcript),
        are already in the model's context unless a compression summarised them
        away; so are those of the sessions it was branched from
        (``ancestor_session_ids`` given to ``initialize``). Recalling them again
        only repeats text and enlarges every request.
        """
        if not query.strip():
            return ""
        session = session_id or self._session_id
        store = self.store
        # Memories that share no word with the message and are not close to it in meaning are
        # left out (where the embedder knows its scale, see Embedder.relevance_floor).
        hits = self._search(query, PREFETCH_POOL if session or self._project else PREFETCH_K,
                            min_similarity=store.embedder.relevance_floor)
        hits = self._of_this_project(hits)
        if session:
            floor = self._summarised_upto.get(session, 0)
            ancestors = self._ancestors if session == self._session_id else {}
            hits = [h for h in hits
                    if not ((h.session_id == session and h.id > floor) or self._carried(h, ancestors))]
        shown = hits[:PREFETCH_K]
        return format_hits(shown, earlier=supersede(shown)[1])

    def _of_this_project(self, hits: list[RecallHit]) -> list[RecallHit]:
        """``hits`` less those of another project, in a session that runs in one (``project``
        given to ``initialize``): a memory that records its project (a turn of an imported
        coding-agent session: its working directory) is kept when that is this project or a
        directory below it; one that records none (a conversation, a fact) belongs to every
        project. Outside a project, all of them."""
        if self._project is None or not hits:
            return hits
        owners = self.store.projects_of([h.id for h in hits])
        return [h for h in hits if (where := owners.get(h.id)) is None or in_project(where, self._project)]

    def _mark_summarised(self, which: MemoryFilter) -> None:
        """Record that this session's memories ``which`` picks now live only in a summary."""
        ids = self.store.find_ids(which, self._scope)
        if ids:
            self._summarised_upto[self._session_id] = max(ids)

    def _carried(self, hit: RecallHit, ancestors: dict[str, float | None]) -> bool:
        """Whether a branch shows ``hit`` already: said in an ancestor before the fork, and not
        folded into a compression summary the branch inherited."""
        if hit.session_id not in ancestors:
            return False
        when = hit.timestamp.timestamp() if hit.timestamp else None
        forked = ancestors[hit.session_id]
        if when is None or forked is None:
            return True
        since = self._lineage_since
        return when < forked and (since is None or when >= since)

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Embed the query ahead of time (the embedder caches it), so ``prefetch`` only searches."""
        store = self.store
        if query.strip() and store.embedder.dim > 0:
            store.embedder.embed_query(query)

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        session = session_id or self._session_id
        records = [
            # recall indexes a long turn by its beginning; the session store keeps all of it
            RecallRecord(text=text[:MAX_RECORD_CHARS], kind="turn", session_id=session, speaker=speaker)
            for speaker, text in (("user", user), ("assistant", assistant))
            if text and text.strip()
        ]
        if records:
            self.ingest(records)

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if not content.strip():
            return
        if action in ("add", "replace"):
            # a curated entry is small unless its file's limit was raised; the mirror keeps its start
            self.add_fact(content[:MAX_FACT_CHARS], metadata={"source": "curated", "target": target})
        elif action == "remove":
            # The curated tool removes by a substring of the entry: drop the mirrored facts
            # holding it, never conversation turns.
            ids = self.store.find_ids(MemoryFilter(kind="fact", contains=content.strip()), self._scope)
            self.store.delete(ids)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        if self._session_id:  # what is stored of this session so far is about to be summarised
            self._mark_summarised(MemoryFilter(session_id=self._session_id))
        text = " ".join(str(m.get("content") or "") for m in messages[-4:] if m.get("role") == "user")
        if not text.strip():
            return ""
        return format_hits(self._of_this_project(self._search(text[-2000:], PREFETCH_K)))

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        """Turns were stored as they happened (sync_turn); nothing is left to do."""

    # -- tools -----------------------------------------------------------------------------

    def tool_specs(self) -> Sequence[ToolSpec]:
        """The recall tools, answered by :meth:`search`, :meth:`remember` and :meth:`forget`."""
        return tools.TOOL_SPECS


def _epoch(value: Any) -> float | None:
    """Seconds since the epoch of an ISO 8601 time (naive = UTC), or None when it is not one."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return to_epoch(datetime.fromisoformat(value.strip()))
    except ValueError:
        return None


def format_hits(hits: Sequence[RecallHit], *, limit: int = PREFETCH_CHARS,
                earlier: Mapping[int, str] | None = None) -> str:
    """One line per memory with its date, ``[2023-05-08] Caroline: ...``.

    The best hits are kept within ``limit`` characters, then shown oldest first
    so the model reads them as a timeline. A fact a later one updates (``earlier``: its id
    and date, see :func:`~silcrow.recall.local._supersede.supersede`) says so.
    """
    earlier = earlier or {}
    kept: list[tuple[float, int, str]] = []
    used = 0
    for hit in hits:  # best first
        text = " ".join(hit.text.split())
        if len(text) > HIT_CHARS:
            text = text[: HIT_CHARS - 1] + "…"
        date = hit.timestamp.strftime("%Y-%m-%d") if hit.timestamp else None
        if hit.id in earlier:
            text = f"(as of {earlier[hit.id] or 'an earlier date'}; a later memory updates it) {text}"
        line = policy.recalled_line(date, hit.speaker or ("fact" if hit.kind == "fact" else ""), text)
        if used + len(line) > limit and kept:
            break
        when = hit.timestamp.timestamp() if hit.timestamp else float("inf")
        kept.append((when, hit.id, line))
        used += len(line) + 1
    return "\n".join(line for _, _, line in sorted(kept))


def open_recall(home: Path | ProfileSettings, embedder: Embedder) -> RecallBackend:
    """The recall storage of ``home`` (a directory, or a profile already opened): its
    ``recall.db``, or the PostgreSQL database its settings name."""
    where = home if isinstance(home, ProfileSettings) else profile_settings(home)
    if not where.storage.shared:
        from silcrow.recall.local._store import RecallStore

        return RecallStore(recall_db(where.path), embedder)
    from silcrow.recall.local._postgres import PostgresRecall

    assert where.storage.dsn is not None
    return PostgresRecall(where.storage.dsn, embedder, where.name)
