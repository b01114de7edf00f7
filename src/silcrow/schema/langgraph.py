"""The table of LangGraph stores (:class:`silcrow.integrations.langgraph.SilcrowStore`), described
once: ``langgraph.db`` of a profile on files, ``langgraph_items`` in a shared PostgreSQL database.

Kept outside the ``langgraph`` package so that :mod:`silcrow.schema` can assemble the migration
without the LangGraph SDK installed. A migration that shipped never changes.
"""

from __future__ import annotations

from silcrow._table import Table

__all__ = [
    "ITEMS",
    "SQLITE",
]

#: ``prefix``: the namespace's labels joined by "." (LangGraph forbids "." in a label, so the
#: text is unambiguous); ``value``: the item's JSON; ``recall_id``: the recall memory that
#: indexes it for search (None when it is not indexed).
ITEMS = Table(("prefix", "key", "value", "recall_id", "created_at", "updated_at"),
              sqlite="items", postgres="langgraph_items", postgres_only=("profile",))
TABLES = (ITEMS,)

SQLITE: list[tuple[int, str, tuple[str, ...]]] = [
    (1, "items of a LangGraph store", (
        """
        CREATE TABLE items (
            prefix     TEXT NOT NULL,
            key        TEXT NOT NULL,
            value      TEXT NOT NULL,
            recall_id  INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (prefix, key)
        )
        """,
        "CREATE INDEX items_recall ON items (recall_id)",
    )),
]

POSTGRES: dict[int, tuple[str, ...]] = {
    6: (
        """
        CREATE TABLE langgraph_items (
            prefix     text NOT NULL,
            key        text NOT NULL,
            value      text NOT NULL,
            recall_id  bigint,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL,
            profile    text NOT NULL DEFAULT current_setting('silcrow.profile') CHECK (profile <> ''),
            PRIMARY KEY (profile, prefix, key)
        )
        """,
        "CREATE INDEX langgraph_items_recall ON langgraph_items (profile, recall_id)",
    ),
}
