"""The one SQLite layer under every SQLite file silcrow owns: connect, migrate, translate errors.

recall.db, sessions.db, the holographic fact store and the providers' outboxes
follow one policy:

* WAL mode, ``synchronous = NORMAL`` (crash-safe with WAL), foreign keys on,
  a busy timeout so concurrent writers queue instead of failing at once;
* numbered migrations recorded in a ``schema_migrations`` table of the file
  itself, each applied in its own ``BEGIN IMMEDIATE`` transaction so two
  processes opening a fresh file cannot both apply one;
* every :class:`sqlite3.Error` becomes the caller's :class:`SilcrowError`
  subclass with a message that says what to do ("database is locked" during
  a search included), via :func:`translated`.

The full-text helpers (:data:`STOPWORDS`, :func:`quote_term`) are shared by
recall and session search so a query means the same in both.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from silcrow._private import private_sqlite
from silcrow.errors import SilcrowError

#: (version, name, statements). Append only: never edit a migration that shipped.
Migrations = Sequence[tuple[int, str, tuple[str, ...]]]

# Function words carry no topic; bm25 already down-weights frequent words, but
# an OR query over them pulls in almost every row as a candidate, and every
# candidate is ranked. Dropped unless a query has nothing else.
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing done down during each either else ever every
    few for from further get gets got had has have having he her here hers herself him himself his how
    i if in into is it its itself just let like may me might mine more most much must my myself no nor
    not now of off often on once one only or other ought our ours ourselves out over own per please
    quite rather really said same say says shall she should since so some such than that the their
    theirs them themselves then there these they this those through thus to too under until up upon us
    very was we were what whatever when whenever where whereas wherever whether which while who whom
    whose why will with within without would yes yet you your yours yourself yourselves
    s t d ll m re ve don didn doesn isn aren wasn weren won wouldn shouldn couldn hasn haven hadn
    """.split()
)


def quote_term(term: str) -> str:
    """``term`` as an FTS5 string: operators, ``col:``, ``*`` and quotes inside it become literal."""
    return '"' + term.replace('"', '""') + '"'


def translate(exc: sqlite3.Error, error: type[SilcrowError], path: Path, what: str) -> SilcrowError:
    """``exc`` as ``error`` with a message that names the file and what to do."""
    text = str(exc)
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in text:
        return error(f"the {what} for {path} is closed; open it again")
    if "locked" in text or "busy" in text:
        return error(f"{path} stayed locked by another process for too long ({text}); try again in a moment")
    if isinstance(exc, sqlite3.DatabaseError) and ("malformed" in text or "not a database" in text):
        return error(
            f"{path} is not a usable {what} ({text}); move it aside and silcrow will start a new one"
        )
    return error(f"the {what} {path} failed: {text}; check the disk and the file")


@contextmanager
def translated(error: type[SilcrowError], path: Path, what: str) -> Iterator[None]:
    """Run a block with every :class:`sqlite3.Error` turned into ``error``."""
    try:
        yield
    except sqlite3.Error as exc:
        raise translate(exc, error, path, what) from exc


def connect(
    path: Path, migrations: Migrations, *, error: type[SilcrowError], what: str, timeout: float = 30.0
) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the database at ``path``; autocommit mode."""
    try:
        private_sqlite(path)
        conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise error(f"cannot open the {what} {path}: {exc}; check the path and its permissions") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        mode = _switch_to_wal(conn, timeout)
        if str(mode).lower() != "wal":
            raise error(f"{path} could not be switched to WAL mode (got {mode!r}); use a local disk")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, migrations, error=error, path=path)
    except sqlite3.Error as exc:
        conn.close()
        if "fts5" in str(exc).lower():
            raise error(
                f"this Python's SQLite lacks the FTS5 extension, which the {what} needs; "
                "use a Python built with a recent SQLite"
            ) from exc
        raise translate(exc, error, path, what) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _switch_to_wal(conn: sqlite3.Connection, timeout: float) -> str:
    """Set WAL mode, retrying while another process does the same to a fresh file.

    Changing the journal mode of a new database takes an exclusive lock, and
    SQLite answers SQLITE_BUSY at once, without calling the busy handler, when
    another connection holds a shared lock it would have to wait out (a
    deadlock guard). So ``busy_timeout`` does not cover this one statement.
    """
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if ("locked" not in text and "busy" not in text) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.1)


def applied_migrations(conn: sqlite3.Connection) -> list[tuple[int, str, float]]:
    """(version, name, applied_at) of every migration recorded in the database."""
    rows = conn.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
    return [(int(v), str(n), float(a)) for v, n, a in rows]


def migrate(
    conn: sqlite3.Connection, migrations: Migrations, *, error: type[SilcrowError], path: Path
) -> int:
    """Apply the missing migrations, each in its own transaction; returns the schema version."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    known = migrations[-1][0]
    newest = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
    stamped = int(conn.execute("PRAGMA user_version").fetchone()[0])  # where older files said it
    if stamped > known:
        newest = stamped
    if newest is not None and int(newest) > known:
        raise error(
            f"{path} has schema version {newest}, newer than this silcrow knows ({known}); upgrade silcrow"
        )
    for version, name, statements in migrations:
        if newest is not None and version <= int(newest):
            continue
        with transaction(conn):
            done = conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)).fetchone()
            if done is None:
                for sql in statements:
                    conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, time.time()),
                )
    return known


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction; IMMEDIATE takes the write lock first, so writers queue instead of deadlocking."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def statements(script: str) -> tuple[str, ...]:
    """The statements of an SQL script, one each (triggers' inner semicolons included), for a
    migration: :func:`migrate` runs them one by one inside its transaction."""
    found: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            found.append(current.strip())
            current = ""
    if current.strip():
        raise ValueError(f"incomplete SQL statement at the end of a script: {current.strip()[:80]!r}")
    return tuple(found)


def placeholders(values: Sequence[object]) -> str:
    """``?, ?, ?`` for an IN list."""
    return ", ".join("?" for _ in values)
