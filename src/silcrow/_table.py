"""What a table holds, declared once by the domain that owns it.

Each domain's ``_schema`` module describes its tables with :class:`Table`;
its SQLite migrations, the PostgreSQL migrations, import/export
(:mod:`silcrow.transfer`) and the queries that list columns read the column
names from there, and ``tests/test_schema.py`` checks the description
against migrated databases of both engines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """A table of one domain: its columns on both engines and its name in each."""

    #: The columns both engines hold, in the order the migrations create them.
    columns: tuple[str, ...]
    #: The table's name in the domain's SQLite file (None: it has none there).
    sqlite: str | None = None
    #: The table's name in the PostgreSQL schema ``silcrow`` (None: it has none there).
    postgres: str | None = None
    #: Columns only the PostgreSQL table has (derived search columns, the owning profile).
    postgres_only: tuple[str, ...] = ()

    @property
    def postgres_columns(self) -> tuple[str, ...]:
        return (*self.columns, *self.postgres_only)

    def names(self, columns: tuple[str, ...] | None = None, *, alias: str = "") -> str:
        """``columns`` (default: :attr:`columns`) as a comma-separated SQL list, each prefixed
        with ``alias.`` when given."""
        prefix = f"{alias}." if alias else ""
        return ", ".join(prefix + c for c in (self.columns if columns is None else columns))
