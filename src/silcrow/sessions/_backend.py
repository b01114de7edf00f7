"""What every session storage does, whatever holds the rows: the seam behind
:class:`~silcrow.sessions.SessionStore` (SQLite, ``<home>/sessions.db``)
and :class:`~silcrow.sessions.PostgresSessions` (a shared database).

The transcript logic (titles, compaction boundaries, branches, lineage-aware
search) is written once here against a DB-API-like connection that returns
rows addressable by column name. Each statement is composed with the
backend's own parameter marker (:attr:`SessionBackend._p`: ``?`` for
sqlite3, ``%s`` for psycopg), so every engine receives SQL in its own
dialect; a backend supplies the connection (:meth:`_reading`, :meth:`_write`)
and the three pieces of full-text search that differ between engines.
"""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from typing import Any

from silcrow.errors import SessionError
from silcrow.schema.sessions import SESSIONS
from silcrow.sessions._records import (
    ROLES,
    SUMMARY_MARKER,
    SessionInfo,
    checked_session_id,
    info_from_row,
    message_dict,
    message_values,
    new_session_id,
    now_iso,
)
from silcrow.sessions._search import search_sql

Row = Any  # sqlite3.Row or a dict: both are read by column name


# What _reading/_write yield: sqlite3.Connection, or the psycopg adapter of PostgresSessions:
# execute(sql, params) and executemany(sql, params), returning a cursor of rows read by column name.
Conn = Any


_LIST_HINT = "list sessions with `silcrow sessions list`"


class SessionBackend(ABC):
    """Sessions and their messages: transcripts, branches, compaction, full-text search."""

    #: The engine's parameter marker, which every statement is composed with.
    _p: str
    #: The candidate step of the search (see _search.search_sql): rows (message_id, score),
    #: lower score better, from parameters (match, limit).
    _candidates_sql: str
    #: One snippet of a message (second parameter) for a match (first), as column "snippet".
    _snippet_sql: str

    @abstractmethod
    def _reading(self) -> AbstractContextManager[Conn]:
        """A connection for reads, errors translated to SessionError."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[Conn]:
        """A connection inside one write transaction, committed when the block ends."""

    @abstractmethod
    def _match(self, query: str) -> str:
        """``query`` as this engine's full-text expression ('' when it has no words)."""

    @abstractmethod
    def _count_matches(self, conn: Conn, match: str, cap: int) -> int:
        """How many messages match, counting no further than ``cap``."""

    @abstractmethod
    def close(self) -> None:
        """Release the connections."""

    def __enter__(self) -> SessionBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _mine(self, table: str) -> str:
        """A condition keeping the rows of ``table`` (a name or alias of sessions or messages) that
        belong to this store: always true for a home's own file; its profile in a shared database,
        whose backend also sets the owner of the rows it inserts."""
        return "1 = 1"

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> builtins.list[Row]:
        with self._reading() as conn:
            return conn.execute(sql, params).fetchall()

    def _row_lock(self, conn: Conn) -> str:
        """What _require adds to lock the session row in a write (SQLite's writes are serial)."""
        return ""

    def _require(self, conn: Conn, sid: str) -> Row:
        p = self._p
        row = conn.execute(
            f"SELECT * FROM sessions WHERE id = {p} AND {self._mine('sessions')}{self._row_lock(conn)}",
            (sid,),
        ).fetchone()
        if row is None:
            raise SessionError(f"no session with id {sid!r}; {_LIST_HINT}")
        return row

    # -- sessions ------------------------------------------------------------
    def create(
        self, *, parent_id: str | None = None, title: str | None = None, system_prompt: str | None = None,
        session_id: str | None = None,
    ) -> str:
        """A new session; ``session_id`` gives its id (a framework's own session id), else a new
        one is made."""
        p = self._p
        sid = new_session_id() if session_id is None else checked_session_id(session_id)
        now = now_iso()
        with self._write() as conn:
            root = sid
            if parent_id is not None:
                root = self._require(conn, parent_id)["root_id"]
            conn.execute(
                f"INSERT INTO sessions({SESSIONS.names()}) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})",
                (sid, parent_id, root, title, now, now, system_prompt),
            )
        return sid

    def get(self, sid: str) -> SessionInfo:
        p = self._p
        with self._reading() as conn:
            row = self._require(conn, sid)
            count = conn.execute(
                f"SELECT COUNT(*) AS n FROM messages WHERE session_id = {p} AND compacted = 0"
                f" AND {self._mine('messages')}", (sid,)
            ).fetchone()["n"]
        return info_from_row(row, count)

    def resolve(self, id_or_prefix: str) -> str:
        """The full id of the one session whose id starts with ``id_or_prefix``."""
        p = self._p
        prefix = id_or_prefix.strip()
        if not prefix:
            raise SessionError(f"empty session id; {_LIST_HINT}")
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self._read(
            f"SELECT id FROM sessions WHERE id LIKE {p} ESCAPE '\\' AND {self._mine('sessions')}"
            " ORDER BY id LIMIT 6", (escaped + "%",)
        )
        ids = [r["id"] for r in rows]
        if prefix in ids:
            return prefix
        if len(ids) == 1:
            return str(ids[0])
        if not ids:
            raise SessionError(f"no session with id {prefix!r}; {_LIST_HINT}")
        raise SessionError(
            f"session id prefix {prefix!r} is ambiguous ({', '.join(ids[:5])}, ...); type more of the id"
        )

    def set_system_prompt(self, sid: str, prompt: str | None) -> None:
        p = self._p
        with self._write() as conn:
            self._require(conn, sid)
            conn.execute(
                f"UPDATE sessions SET system_prompt = {p} WHERE id = {p} AND {self._mine('sessions')}",
                (prompt, sid),
            )

    def list(self, limit: int = 20) -> list[SessionInfo]:
        """The most recently active sessions first."""
        p = self._p
        rows = self._read(
            f"SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.compacted = 0"
            f" AND {self._mine('m')}) AS n FROM sessions s WHERE {self._mine('s')}"
            f" ORDER BY s.updated_at DESC, s.id DESC LIMIT {p}",
            (max(0, int(limit)),),
        )
        return [info_from_row(r, r["n"]) for r in rows]

    def latest(self) -> str | None:
        rows = self._read(
            f"SELECT id FROM sessions WHERE {self._mine('sessions')}"
            " ORDER BY updated_at DESC, id DESC LIMIT 1"
        )
        return str(rows[0]["id"]) if rows else None

    # -- messages ------------------------------------------------------------
    def append(self, sid: str, message: dict[str, Any]) -> int:
        """Store one message at the end of a session; returns its id.

        The first user message also names an untitled session, so that
        ``silcrow sessions list`` shows something recognisable.
        """
        p = self._p
        values = message_values(message)
        now = now_iso()
        with self._write() as conn:
            session = self._require(conn, sid)
            top = conn.execute(
                f"SELECT MAX(seq) AS top FROM messages WHERE session_id = {p} AND {self._mine('messages')}",
                (sid,),
            ).fetchone()
            seq = int(top["top"] or 0) + 1  # past any summary (summaries sit at x.5)
            new_id = conn.execute(
                "INSERT INTO messages(session_id, seq, role, content, tool_calls, tool_call_id, name,"
                f" recall_block, created_at) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
                " RETURNING id",
                (sid, seq, *values, now),
            ).fetchone()["id"]
            title = session["title"]
            if title is None and values[0] == "user" and values[1]:
                title = " ".join(values[1].split())[:60]
            conn.execute(
                f"UPDATE sessions SET updated_at = {p}, title = {p}"
                f" WHERE id = {p} AND {self._mine('sessions')}",
                (now, title, sid),
            )
            return int(new_id)

    def messages(self, sid: str) -> builtins.list[dict[str, Any]]:
        """The active transcript, oldest first (compacted messages left out)."""
        p = self._p
        with self._reading() as conn:
            self._require(conn, sid)
            rows = conn.execute(
                f"SELECT * FROM messages WHERE session_id = {p} AND compacted = 0"
                f" AND {self._mine('messages')}"
                " ORDER BY seq, id", (sid,)
            ).fetchall()
        return [message_dict(r) for r in rows]

    def around(self, sid: str, message_id: int, window: int = 3) -> builtins.list[dict[str, Any]]:
        """Up to ``window`` messages either side of one, compacted ones included (flagged)."""
        p = self._p
        window = max(0, min(int(window), 50))
        with self._reading() as conn:
            self._require(conn, sid)
            target = conn.execute(
                f"SELECT seq, id FROM messages WHERE id = {p} AND session_id = {p}"
                f" AND {self._mine('messages')}",
                (message_id, sid),
            ).fetchone()
            if target is None:
                raise SessionError(
                    f"session {sid!r} has no message {message_id!r}; use a message_id from a search result "
                    "of that session"
                )
            before = conn.execute(
                f"SELECT * FROM messages WHERE session_id = {p} AND {self._mine('messages')}"
                f" AND (seq < {p} OR (seq = {p} AND id < {p}))"
                f" ORDER BY seq DESC, id DESC LIMIT {p}",
                (sid, target["seq"], target["seq"], target["id"], window),
            ).fetchall()
            rest = conn.execute(
                f"SELECT * FROM messages WHERE session_id = {p} AND {self._mine('messages')}"
                f" AND (seq > {p} OR (seq = {p} AND id >= {p}))"
                f" ORDER BY seq, id LIMIT {p}",
                (sid, target["seq"], target["seq"], target["id"], window + 1),
            ).fetchall()
        return [message_dict(r, raw=True) for r in [*reversed(before), *rest]]

    # -- compaction and branches ---------------------------------------------
    def compact(
        self, sid: str, keep_head: int, keep_tail: int, summary: str, *, role: str = "user"
    ) -> int:
        """Replace the middle of the active transcript by a marked summary.

        The middle messages are flagged ``compacted`` (still searchable, no
        longer sent to the model). Boundaries move outward as needed so that
        an assistant tool-call message is never separated from its tool
        results, which APIs reject. Returns how many messages were compacted
        (0 when there is no middle left to compact).
        """
        p = self._p
        if keep_head < 0 or keep_tail < 0:
            raise SessionError(f"keep_head and keep_tail must be >= 0, got {keep_head} and {keep_tail}")
        if role not in ROLES:
            raise SessionError(f"summary role must be one of {sorted(ROLES)}, got {role!r}")
        with self._write() as conn:
            self._require(conn, sid)
            rows = conn.execute(
                f"SELECT id, seq, role FROM messages WHERE session_id = {p} AND compacted = 0"
                f" AND {self._mine('messages')} ORDER BY seq, id",
                (sid,),
            ).fetchall()
            start, end = keep_head, len(rows) - keep_tail
            # Head must not end on tool calls whose results would be compacted.
            while 0 < start < len(rows) and rows[start]["role"] == "tool":
                start += 1
            # Tail must not start with tool results whose call would be compacted.
            while start < end < len(rows) and rows[end]["role"] == "tool":
                end -= 1
            if end - start <= 0:
                return 0
            middle = rows[start:end]
            after = rows[end]["seq"] if end < len(rows) else middle[-1]["seq"] + 1
            seq = (middle[-1]["seq"] + after) / 2  # summary sits where the middle was
            conn.executemany(
                f"UPDATE messages SET compacted = 1 WHERE id = {p} AND {self._mine('messages')}",
                [(r["id"],) for r in middle],
            )
            now = now_iso()
            conn.execute(
                "INSERT INTO messages(session_id, seq, role, content, created_at, is_summary)"
                f" VALUES ({p}, {p}, {p}, {p}, {p}, 1)",
                (sid, seq, role, SUMMARY_MARKER.format(n=len(middle)) + "\n" + summary, now),
            )
            conn.execute(
                f"UPDATE sessions SET updated_at = {p} WHERE id = {p} AND {self._mine('sessions')}",
                (now, sid),
            )
            return len(middle)

    def withdraw(self, sid: str, count: int | None = 1) -> builtins.list[dict[str, Any]]:
        """Take the last ``count`` active messages (all of them when None) out of the transcript;
        returns them, oldest first. Like a compaction's middle they are flagged compacted, not
        deleted: gone from :meth:`messages`, still found by :meth:`search`, and a branch made
        earlier keeps its copies."""
        p = self._p
        if count is not None and count < 0:
            raise SessionError(f"count must be >= 0 or None, got {count}")
        with self._write() as conn:
            self._require(conn, sid)
            rows = conn.execute(
                f"SELECT * FROM messages WHERE session_id = {p} AND compacted = 0"
                f" AND {self._mine('messages')} ORDER BY seq DESC, id DESC", (sid,)
            ).fetchall()
            taken = rows if count is None else rows[:count]
            if taken:
                conn.executemany(
                    f"UPDATE messages SET compacted = 1 WHERE id = {p} AND {self._mine('messages')}",
                    [(r["id"],) for r in taken],
                )
                conn.execute(
                    f"UPDATE sessions SET updated_at = {p} WHERE id = {p} AND {self._mine('sessions')}",
                    (now_iso(), sid),
                )
        return [message_dict(r) for r in reversed(taken)]

    def ancestors(self, sid: str) -> builtins.list[tuple[str, str]]:
        """The sessions ``sid`` was branched from, nearest first, each with the time the
        lineage left it (when its child branch was created): ``[(id, iso time), ...]``."""
        out: builtins.list[tuple[str, str]] = []
        child = self.get(sid)
        while child.parent_id is not None and all(child.parent_id != a for a, _ in out):
            out.append((child.parent_id, child.created_at))
            child = self.get(child.parent_id)
        return out

    def delete_if_empty(self, sid: str) -> bool:
        """Remove a session that holds no message and has no branches (e.g. a chat that was only
        opened and quit); returns whether it was removed."""
        p = self._p
        with self._write() as conn:
            busy = conn.execute(
                f"SELECT (EXISTS(SELECT 1 FROM messages WHERE session_id = {p} AND {self._mine('messages')})"
                f" OR EXISTS(SELECT 1 FROM sessions WHERE parent_id = {p} AND {self._mine('sessions')}))"
                " AS busy",
                (sid, sid),
            ).fetchone()["busy"]
            if busy:
                return False
            gone = conn.execute(f"DELETE FROM sessions WHERE id = {p} AND {self._mine('sessions')}", (sid,))
            return gone.rowcount > 0

    def branch(self, sid: str, *, title: str | None = None) -> str:
        """Fork a session: a new id whose parent is ``sid``, with a copy of its active history.

        The cached system prompt is not copied: a branch is a cache-breaking
        event, so the agent rebuilds it from the memory on disk.
        """
        p = self._p
        new_id = new_session_id()
        now = now_iso()
        with self._write() as conn:
            parent = self._require(conn, sid)
            conn.execute(
                f"INSERT INTO sessions({SESSIONS.names()}) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, NULL)",
                (new_id, sid, parent["root_id"], title or parent["title"], now, now),
            )
            # Copies keep their original timestamps: a snippet is dated by when it was said.
            conn.execute(
                "INSERT INTO messages(session_id, seq, role, content, tool_calls, tool_call_id, name,"
                " recall_block, created_at, is_summary)"
                f" SELECT {p}, ROW_NUMBER() OVER (ORDER BY seq, id), role, content, tool_calls, tool_call_id,"
                " name, recall_block, created_at, is_summary FROM messages"
                f" WHERE session_id = {p} AND compacted = 0 AND {self._mine('messages')} ORDER BY seq, id",
                (new_id, sid),
            )
        return new_id

    # -- search --------------------------------------------------------------
    def search(
        self,
        query: str,
        limit: int = 5,
        *,
        exclude: tuple[str, ...] | builtins.list[str] = (),
        current_session_id: str | None = None,
    ) -> builtins.list[dict[str, Any]]:
        """Best-matching sessions for ``query`` (bm25), one hit per lineage.

        A branch and its ancestors share history, so they count once: the
        best-ranked hit of the lineage is kept (on a tie, the earliest
        message, i.e. where it was first said). Only user and assistant
        messages are searched, compacted ones included. ``exclude`` drops
        the given session ids. ``current_session_id`` drops what the model
        already has in context: that session's active messages and their
        copies in its lineage (a branch copies its parent's history), while
        its compacted messages stay findable.
        """
        match = self._match(query)
        if not match:
            raise SessionError(
                f"search query {query!r} has no words to search for; give one or more keywords"
            )
        limit = max(1, min(int(limit), 50))
        candidates = max(200, 40 * limit)
        with self._reading() as conn:
            while True:
                sql, params = search_sql(
                    self._candidates_sql, match, candidates,
                    exclude=tuple(exclude), current_session_id=current_session_id, mine=self._mine,
                    mark=self._p,
                )
                rows = conn.execute(sql, (*params, limit)).fetchall()
                # Exact once the candidates held `limit` lineages (one not seen has
                # all its hits ranked below the cut) or were every match there is.
                if len(rows) >= limit:
                    break
                seen = rows[0]["n_candidates"] if rows else self._count_matches(conn, match, candidates)
                if seen < candidates:
                    break
                candidates *= 8
            # Snippets only for the few rows kept, not for every hit of a common word.
            snippets = [
                conn.execute(self._snippet_sql, (match, r["message_id"])).fetchone()["snippet"] for r in rows
            ]
        return [
            {
                "session_id": r["session_id"],
                "title": r["title"],
                "date": r["created_at"][:10],
                "created_at": r["created_at"],
                "snippet": snippet,
                "message_id": r["message_id"],
                "role": r["role"],
                "score": round(-float(r["score"]), 4),  # higher is better, for readers
            }
            for r, snippet in zip(rows, snippets, strict=True)
        ]

