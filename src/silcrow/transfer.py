"""Move a files home into a PostgreSQL database and back, losing nothing.

``import_home`` loads a home's curated notes (the exact bytes of MEMORY.md
and USER.md) and their journal, each project's notes (``projects/<key>/``: PROJECT.md, its
journal, proposals, ledger and record, under the owner ``<profile>/project/<key>``), its
``recall.db`` (every column and vector)
``sessions.db`` (sessions, messages, compaction flags and branches) and
``langgraph.db`` (the items of a LangGraph store, whose search index is their
recall memories) into one profile. ``export_home`` writes one profile back as
the same files. Both run in one transaction each side, so a failure leaves
nothing half-copied.

A profile must hold nothing yet to be imported into. Memory and message ids
are kept while no other profile uses them (they are unique database-wide);
otherwise the rows get new ids, which only a caller holding an old id would
notice (the LangGraph items' links to their recall memories follow the new
ids). Backups (``*.bak.*``) are not copied.

The columns copied are those each domain declares once in its ``_schema``
module (:mod:`silcrow.schema`), so a table's description, its migrations and
this copy cannot drift apart.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from silcrow import _sqlite
from silcrow._paths import memories_dir, recall_db, sessions_db
from silcrow._private import private_dir, write_private
from silcrow._sqlite import placeholders
from silcrow.db import SCHEMA, Database
from silcrow.errors import ConfigError, StoreError
from silcrow.recall.local import body_text, connect_recall_db, dated_text
from silcrow.schema import check_schema
from silcrow.schema import langgraph as langgraph_schema
from silcrow.schema import recall as recall_schema
from silcrow.schema import sessions as sessions_schema
from silcrow.store import (
    JOURNAL_FILE,
    LEDGER_FILE,
    OWNER_PART,
    PENDING_FILE,
    PROJECTS_DIR,
    FileBackend,
    journal_line,
    read_journal,
    write_journal,
)

__all__ = [
    "Counts",
    "export_home",
    "import_home",
]

NOTE_FILES = ("MEMORY.md", "USER.md")
# A project key as silcrow._projects.project_key makes it: one name, never a path.
_PROJECT_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
# A project's notes directory (silcrow.store._projects): its file, and its record, a row beside it.
PROJECT_FILES = ("PROJECT.md", "project.json")
_MEMORY_COLUMNS = recall_schema.MEMORIES.columns
_SESSION_COLUMNS = sessions_schema.SESSIONS.columns
_MESSAGE_COLUMNS = sessions_schema.MESSAGES.columns
_ITEM_COLUMNS = langgraph_schema.ITEMS.columns
#: The LangGraph store's file (``silcrow.integrations.langgraph``), beside recall.db.
LANGGRAPH_FILE = "langgraph.db"


@dataclass
class Counts:
    notes: int = 0
    journal_records: int = 0
    memories: int = 0
    vectors: int = 0
    sessions: int = 0
    messages: int = 0
    langgraph_items: int = 0


@contextmanager
def _pg(db: Database) -> Iterator[Any]:
    from pgvector.psycopg import register_vector

    check_schema(db)
    with db.connect() as conn:
        conn.execute(f"SET search_path = {SCHEMA}, public")
        register_vector(conn)
        with conn.transaction():
            yield conn


def _sqlite_rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.Error as exc:
        raise ConfigError(f"cannot read {path}: {exc}; is it a silcrow database?") from exc
    finally:
        conn.close()


def import_home(db: Database, home: Path, profile: str) -> Counts:
    """Copy the files home ``home`` into the database, its notes under ``profile``."""
    if not home.is_dir():
        raise ConfigError(f"{home} is not a directory; give the path of a silcrow home (e.g. ~/.silcrow)")
    counts = Counts()
    with _pg(db) as conn:
        _refuse_if_present(conn, profile)
        _import_notes(conn, memories_dir(home), profile, NOTE_FILES, counts)
        projects = home / PROJECTS_DIR
        for folder in sorted(projects.iterdir()) if projects.is_dir() else []:
            if folder.is_dir() and not folder.name.startswith("."):  # .archive: set aside, stays
                _import_notes(conn, folder, f"{profile}{OWNER_PART}{folder.name}", PROJECT_FILES, counts)
        recall_ids: dict[int, int] = {}
        if recall_db(home).is_file():
            recall_ids = _import_recall(conn, recall_db(home), profile, counts)
        if sessions_db(home).is_file():
            _import_sessions(conn, sessions_db(home), profile, counts)
        if (home / LANGGRAPH_FILE).is_file():
            _import_langgraph(conn, home / LANGGRAPH_FILE, profile, recall_ids, counts)
    return counts


def _import_notes(conn: Any, notes: Path, owner: str, files: tuple[str, ...], counts: Counts) -> None:
    """One notes directory (a profile's memories/, or a project's) as the rows of ``owner``."""
    for name in files:
        path = notes / name
        if path.is_file():
            conn.execute(
                "INSERT INTO curated_notes (profile, target_file, body) VALUES (%s, %s, %s)",
                (owner, name, path.read_bytes()),
            )
            counts.notes += 1
    for record in read_journal(notes / JOURNAL_FILE):
        conn.execute(
            "INSERT INTO curated_journal (profile, target, record) VALUES (%s, %s, %s)",
            (owner, record.get("target", ""), journal_line(record)),
        )
        counts.journal_records += 1
    pending = notes / PENDING_FILE
    if pending.is_file():  # the approval gate's proposals go with the notes
        conn.execute("INSERT INTO pending_proposals (profile, body) VALUES (%s, %s)",
                     (owner, pending.read_text(encoding="utf-8", errors="replace")))
    kept = notes / LEDGER_FILE
    if kept.is_file():  # and the entries' metadata and archive
        conn.execute("INSERT INTO curated_ledger (profile, body) VALUES (%s, %s)",
                     (owner, kept.read_text(encoding="utf-8", errors="replace")))


def _refuse_if_present(conn: Any, profile: str) -> None:
    prefix = f"{profile}{OWNER_PART}"
    notes = conn.execute(
        "SELECT (SELECT count(*) FROM curated_notes WHERE profile = %s OR left(profile, %s) = %s)"
        " + (SELECT count(*) FROM curated_journal WHERE profile = %s)",
        (profile, len(prefix), prefix, profile),
    ).fetchone()[0]
    rest = conn.execute(
        "SELECT (SELECT count(*) FROM recall_memories WHERE profile = %s)"
        " + (SELECT count(*) FROM sessions WHERE profile = %s)"
        " + (SELECT count(*) FROM langgraph_items WHERE profile = %s)",
        (profile, profile, profile),
    ).fetchone()[0]
    if notes or rest:
        raise ConfigError(
            "the database already holds "
            + ("notes" if notes else "recall memories, sessions or LangGraph items")
            + f" of profile {profile!r}"
            + "; import into another --profile-name or a fresh database; nothing was changed"
        )


def _free(conn: Any, table: str, ids: list[Any]) -> bool:
    """Whether none of ``ids`` is taken in ``table`` (by another profile)."""
    return not conn.execute(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE id = ANY(%s))", (ids,)).fetchone()[0]


def _insert(
    conn: Any, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> dict[int, int]:
    """Insert ``rows`` (the first column is the id), keeping their ids when they are free;
    returns each row's new id by its old one."""
    kept = not rows or _free(conn, table, [r[0] for r in rows])
    sql_columns, values = (columns, rows) if kept else (columns[1:], [r[1:] for r in rows])
    with conn.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {table} ({', '.join(sql_columns)}) VALUES ({', '.join(['%s'] * len(sql_columns))})"
            + ("" if kept else " RETURNING id"),
            values, returning=not kept,
        )
        new_ids = [r[0] for r in rows] if kept else [result.fetchone()[0] for result in cur.results()]
    conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST(max(id), 1)) FROM {table}")
    return {int(old[0]): int(new) for old, new in zip(rows, new_ids, strict=True)}


def _import_recall(conn: Any, path: Path, profile: str, counts: Counts) -> dict[int, int]:
    cols = ", ".join(f"m.{c}" for c in _MEMORY_COLUMNS)
    rows = _sqlite_rows(path, f"SELECT {cols}, e.vector FROM memories m"
                              " LEFT JOIN embeddings e ON e.memory_id = m.id ORDER BY m.id")
    meta = dict(_sqlite_rows(path, "SELECT key, value FROM meta"))
    held = conn.execute("SELECT value FROM recall_meta WHERE key = 'embedder'").fetchone()
    if held is not None and meta.get("embedder") not in (None, held[0]):
        # The database's other profiles use another model: these vectors would sit in the wrong
        # space, so the memories come without them and are embedded by the database's model.
        rows = [(*r[:-1], None) for r in rows]
        meta.pop("embedder")
    ids = _insert(
        conn, "recall_memories", (*_MEMORY_COLUMNS, "body", "dated", "embedding", "profile"),
        [
            (*r[:-1], body_text(r[2], r[4]), dated_text(r[5], r[2]),
             None if r[-1] is None else np.frombuffer(r[-1], dtype="<f4"), profile)
            for r in rows
        ],
    )
    counts.memories = len(rows)
    counts.vectors = sum(1 for r in rows if r[-1] is not None)
    for key, value in meta.items():
        conn.execute(
            "INSERT INTO recall_meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
    return ids


def _import_langgraph(
    conn: Any, path: Path, profile: str, recall_ids: dict[int, int], counts: Counts
) -> None:
    """The LangGraph store's items; each keeps its link to the recall memory that indexes it for
    search (under its new id), so ``SilcrowStore.search(query=...)`` ranks as before."""
    names = ", ".join(_ITEM_COLUMNS)
    rows = _sqlite_rows(path, f"SELECT {names} FROM {langgraph_schema.ITEMS.sqlite} ORDER BY prefix, key")
    link = _ITEM_COLUMNS.index("recall_id")
    with conn.cursor() as cur:
        cur.executemany(
            f"INSERT INTO langgraph_items ({names}, profile)"
            f" VALUES ({', '.join(['%s'] * (len(_ITEM_COLUMNS) + 1))})",
            [(*r[:link], None if r[link] is None else recall_ids.get(int(r[link])), *r[link + 1:], profile)
             for r in rows],
        )
    counts.langgraph_items = len(rows)


def _import_sessions(conn: Any, path: Path, profile: str, counts: Counts) -> None:
    sessions = _sqlite_rows(path, f"SELECT {', '.join(_SESSION_COLUMNS)} FROM sessions ORDER BY id")
    messages = _sqlite_rows(path, f"SELECT {', '.join(_MESSAGE_COLUMNS)} FROM messages ORDER BY id")
    with conn.cursor() as cur:
        # Parents first would need a topological order; link them after all rows exist instead.
        cur.executemany(
            f"INSERT INTO sessions ({', '.join(_SESSION_COLUMNS)}, profile)"
            f" VALUES ({', '.join(['%s'] * (len(_SESSION_COLUMNS) + 1))})",
            [(s[0], None, *s[2:], profile) for s in sessions],
        )
        cur.executemany(
            "UPDATE sessions SET parent_id = %s WHERE id = %s AND profile = %s",
            [(s[1], s[0], profile) for s in sessions if s[1]],
        )
    _insert(conn, "messages", (*_MESSAGE_COLUMNS, "profile"), [(*m, profile) for m in messages])
    counts.sessions, counts.messages = len(sessions), len(messages)


def export_home(db: Database, home: Path, profile: str) -> Counts:
    """Write the notes, recall memories, sessions and LangGraph items of ``profile`` as the files
    home ``home``, which must not hold any of them yet."""
    from silcrow.sessions import SessionStore

    notes = memories_dir(home)
    taken = [p for p in (notes / n for n in (*NOTE_FILES, JOURNAL_FILE, PENDING_FILE, LEDGER_FILE))
             if p.exists()]
    taken += [p for p in (recall_db(home), sessions_db(home), home / LANGGRAPH_FILE) if p.exists()]
    if (home / PROJECTS_DIR).exists():
        taken.append(home / PROJECTS_DIR)
    if taken:
        raise ConfigError(
            f"{home} already holds {', '.join(str(p) for p in taken)}; export into a new or empty "
            "directory, nothing was written"
        )
    counts = Counts()
    with _pg(db) as conn:
        _export_notes(conn, notes, home, profile, counts, NOTE_FILES)
        prefix = f"{profile}{OWNER_PART}"
        owners = conn.execute("SELECT DISTINCT profile FROM curated_notes WHERE left(profile, %s) = %s",
                              (len(prefix), prefix)).fetchall()
        for (owner,) in owners:
            folder = home / PROJECTS_DIR / _project_folder(str(owner), prefix)
            _export_notes(conn, folder, home, str(owner), counts, PROJECT_FILES)
        memories = conn.execute(
            f"SELECT {', '.join(_MEMORY_COLUMNS)}, body, dated, embedding FROM recall_memories"
            " WHERE profile = %s ORDER BY id",
            (profile,),
        ).fetchall()
        meta = conn.execute("SELECT key, value FROM recall_meta").fetchall()
        if memories or meta:
            lite = connect_recall_db(recall_db(home))
            try:
                _export_recall(lite, memories, meta, counts)
            finally:
                lite.close()
        sessions = conn.execute(
            f"SELECT {', '.join(_SESSION_COLUMNS)} FROM sessions WHERE profile = %s", (profile,)
        ).fetchall()
        if sessions:
            messages = conn.execute(
                f"SELECT {', '.join(_MESSAGE_COLUMNS)} FROM messages WHERE profile = %s ORDER BY id",
                (profile,),
            ).fetchall()
            store = SessionStore(sessions_db(home))
            try:
                _export_sessions(store._conn, sessions, messages, counts)
            finally:
                store.close()
        items = conn.execute(
            f"SELECT {', '.join(_ITEM_COLUMNS)} FROM langgraph_items WHERE profile = %s ORDER BY prefix, key",
            (profile,),
        ).fetchall()
        if items:
            _export_langgraph(home / LANGGRAPH_FILE, items, counts)
    return counts


def _project_folder(owner: str, prefix: str) -> str:
    """The folder name of a project's notes owned by ``owner`` (``<prefix><key>``): a key as
    silcrow makes them, never a path. The database is another party's data: a row that names a
    path would write outside the home."""
    key = owner[len(prefix):]
    if not _PROJECT_KEY.fullmatch(key):
        raise ConfigError(f"the database holds notes of {owner!r}, which is not a project key silcrow "
                          "makes (letters, digits, '_', '-', '.'); remove those rows and export again")
    return key


def _export_notes(conn: Any, notes: Path, home: Path, owner: str, counts: Counts,
                  files: tuple[str, ...]) -> None:
    """The rows of ``owner`` (a profile's notes, or a project's) as the notes directory ``notes``;
    ``files``: the only file names those rows may have."""
    private_dir(notes, home=home)
    for name, body in conn.execute(
        "SELECT target_file, body FROM curated_notes WHERE profile = %s", (owner,)
    ).fetchall():
        if name not in files:
            raise ConfigError(f"the database holds a notes file {name!r} of {owner!r}, which is not one of "
                              f"{', '.join(files)}; remove that row and export again")
        write_private(notes / name, bytes(body))
        counts.notes += 1
    # Written by the journal's own append, so the file has its usual on-disk form (records
    # after the first of a target stored as deltas on the one before).
    counts.journal_records += write_journal(notes / JOURNAL_FILE, (
        json.loads(line) for (line,) in conn.execute(
            "SELECT record FROM curated_journal WHERE profile = %s ORDER BY seq", (owner,))))
    row = conn.execute("SELECT body FROM pending_proposals WHERE profile = %s", (owner,)).fetchone()
    if row and row[0]:
        FileBackend(notes, home=home).proposals().restore(str(row[0]))
    row = conn.execute("SELECT body FROM curated_ledger WHERE profile = %s", (owner,)).fetchone()
    if row and row[0]:
        body = str(row[0])
        FileBackend(notes, home=home).ledger().change(lambda _text: body)


def _export_langgraph(path: Path, items: list[Any], counts: Counts) -> None:
    """The items as the store's own ``langgraph.db``; their recall ids are those the memories
    keep in recall.db."""
    lite = _sqlite.connect(path, langgraph_schema.SQLITE, error=StoreError, what="LangGraph store")
    try:
        with lite:
            lite.execute("BEGIN")
            lite.executemany(
                f"INSERT INTO {langgraph_schema.ITEMS.sqlite} ({', '.join(_ITEM_COLUMNS)})"
                f" VALUES ({placeholders(_ITEM_COLUMNS)})",
                [tuple(r) for r in items],
            )
    finally:
        lite.close()
    counts.langgraph_items = len(items)


def _export_recall(lite: sqlite3.Connection, memories: list[Any], meta: list[Any], counts: Counts) -> None:
    n = len(_MEMORY_COLUMNS)
    with lite:
        lite.execute("BEGIN")
        lite.executemany(
            f"INSERT INTO memories ({', '.join(_MEMORY_COLUMNS)}) VALUES ({placeholders(_MEMORY_COLUMNS)})",
            [tuple(m[:n]) for m in memories],
        )
        lite.executemany(
            "INSERT INTO memories_fts (rowid, body, context, dated) VALUES (?, ?, ?, ?)",
            [(m[0], m[n], m[9], m[n + 1]) for m in memories],
        )
        vectors = [
            (m[0], _floats(m[n + 2]).tobytes()) for m in memories if m[n + 2] is not None
        ]
        lite.executemany("INSERT INTO embeddings (memory_id, vector) VALUES (?, ?)", vectors)
        lite.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta)
    counts.memories, counts.vectors = len(memories), len(vectors)


def _floats(vector: Any) -> np.ndarray:
    """A pgvector value as the little-endian float32 array recall.db stores."""
    return np.asarray(vector.to_numpy() if hasattr(vector, "to_numpy") else vector, dtype="<f4")


def _export_sessions(
    lite: sqlite3.Connection, sessions: list[Any], messages: list[Any], counts: Counts
) -> None:
    with lite:
        lite.execute("BEGIN")
        lite.executemany(
            f"INSERT INTO sessions ({', '.join(_SESSION_COLUMNS)}) VALUES ({placeholders(_SESSION_COLUMNS)})",
            [(s[0], None, *s[2:]) for s in sessions],
        )
        links = [(s[1], s[0]) for s in sessions if s[1]]
        lite.executemany("UPDATE sessions SET parent_id = ? WHERE id = ?", links)
        lite.executemany(
            f"INSERT INTO messages ({', '.join(_MESSAGE_COLUMNS)}) VALUES ({placeholders(_MESSAGE_COLUMNS)})",
            [tuple(m) for m in messages],
        )
    counts.sessions, counts.messages = len(sessions), len(messages)
