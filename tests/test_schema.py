"""Each table is described once (its domain's ``_schema`` module); the description must be what the
migrations build, on SQLite and on PostgreSQL, and the shipped PostgreSQL migrations never change."""

from __future__ import annotations

import ast
import hashlib
import json
import sqlite3
from pathlib import Path

import psycopg

import silcrow
from silcrow import _sqlite, schema
from silcrow._table import Table
from silcrow.errors import StoreError
from silcrow.models import get_embedder
from silcrow.recall.local import RecallStore
from silcrow.schema import langgraph as langgraph_schema
from silcrow.schema import recall as recall_schema
from silcrow.schema import sessions as sessions_schema
from silcrow.sessions import SessionStore

# sha256 of json.dumps(MIGRATIONS[:3]) as migrations 1-3 shipped (one list in silcrow/schema.py).
SHIPPED_1_TO_3 = "306856d73ad8d190ac2f55fb24f34b5424861ed785e75abb618248fe01e92880"


def test_the_shipped_migrations_are_applied_exactly_as_they_shipped() -> None:
    shipped = [list(m) for m in schema.MIGRATIONS[:3]]
    assert [m[0] for m in shipped] == [1, 2, 3]
    assert hashlib.sha256(json.dumps(shipped).encode()).hexdigest() == SHIPPED_1_TO_3
    versions = [v for v, _, _ in schema.MIGRATIONS]
    assert versions == list(range(1, len(versions) + 1)) and schema.SCHEMA_VERSION == versions[-1]


def _sqlite_tables(conn: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    # FTS5 keeps its index in shadow tables named after the virtual table (<name>_data, ...).
    virtual = {n for n in names if n.endswith("_fts")}
    kept = [n for n in names if n not in ("schema_migrations", "sqlite_sequence")
            and not any(n.startswith(v + "_") for v in virtual)]
    return {n: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({n})")) for n in kept}


def _declared(tables: tuple[Table, ...]) -> dict[str, tuple[str, ...]]:
    return {t.sqlite: t.columns for t in tables if t.sqlite is not None}


def test_the_sqlite_files_hold_the_described_tables(tmp_path: Path) -> None:
    RecallStore(tmp_path / "recall.db", get_embedder("none")).close()
    SessionStore(tmp_path / "sessions.db").close()
    _sqlite.connect(tmp_path / "langgraph.db", langgraph_schema.SQLITE, error=StoreError,
                    what="store").close()
    for name, tables in (("recall.db", recall_schema.TABLES), ("sessions.db", sessions_schema.TABLES),
                         ("langgraph.db", langgraph_schema.TABLES)):
        conn = sqlite3.connect(tmp_path / name)
        try:
            assert _sqlite_tables(conn) == _declared(tables), name
        finally:
            conn.close()


def test_the_migrated_postgres_database_holds_the_described_tables(pg_dsn: str) -> None:
    with psycopg.connect(pg_dsn) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'silcrow' AND table_name <> 'schema_migrations'"
            " ORDER BY table_name, ordinal_position"
        ).fetchall()
    held: dict[str, tuple[str, ...]] = {}
    for table, column in rows:
        held[table] = (*held.get(table, ()), column)
    declared = {t.postgres: t.postgres_columns for t in schema.TABLES if t.postgres is not None}
    assert held == declared



FOLDED = ["plain ASCII, digits 0-9 and ~punctuation~", "", "Zoë's café in São Paulo",
          "ÀÉÎÕÜ àéîõü ÇçÑñ ĀĒĪŌŪ ǅ", "東京 and ünïcode", "emoji 🎉 then é", "ASCII then one ÿ",
          "ß and Æ stay", "tab\tnewline\nend\x7f",
          "it’s “quoted” — no letter to fold…", "Ȁ inside the range, ɏ at its end, ɐ past it", "¿¡ before À"]


def test_postgres_folds_every_text_as_python_does_before_and_after_the_shortcut(pg_dsn: str) -> None:
    from silcrow.db import fold
    from silcrow.db._fold import FUNCTION_SQL

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        shortcut = conn.execute("SELECT silcrow.fold(t) FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, n)"
                                " ORDER BY n", (FOLDED,)).fetchall()
        conn.execute("CREATE SCHEMA before_shortcut")
        conn.execute(FUNCTION_SQL.replace("silcrow.fold", "before_shortcut.fold"))
        shipped = conn.execute("SELECT before_shortcut.fold(t) FROM unnest(%s::text[]) WITH ORDINALITY"
                               " AS u(t, n) ORDER BY n", (FOLDED,)).fetchall()
        conn.execute("DROP SCHEMA before_shortcut CASCADE")
    assert [r[0] for r in shortcut] == [r[0] for r in shipped] == [fold(t) for t in FOLDED]
    assert fold(FOLDED[2]) == "Zoe's cafe in Sao Paulo"  # the test would pass on no folding at all otherwise


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {name for name in found if name.startswith("silcrow")}


SRC = Path(silcrow.__file__).parent


def test_the_storage_layers_import_no_domain() -> None:
    # The one PostgreSQL layer and the one SQLite layer sit below the domains that use them.
    layers = [*(SRC / "db").glob("*.py")]
    layers += [SRC / "_sqlite.py", SRC / "_table.py"]
    allowed = ("silcrow.errors", "silcrow._private", "silcrow.db", "silcrow.db.")
    for path in layers:
        outside = {n for n in _imports(path) if not n.startswith(allowed)}
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_agent_uses_sessions_through_their_interface() -> None:
    for path in (SRC / "agent").glob("*.py"):
        inner = {n for n in _imports(path) if n.startswith("silcrow.sessions._")}
        assert not inner, f"agent/{path.name} reaches into {sorted(inner)}"
