"""The tables of the curated notes in PostgreSQL, described once.

The files backend keeps the notes as files (``memories/``); in a shared
database they are rows of the tables below. ``POSTGRES`` holds this domain's
statements of each numbered PostgreSQL migration (assembled in order by
:mod:`silcrow.schema`); a migration that shipped never changes.
"""

from __future__ import annotations

from silcrow._table import Table

NOTES = Table(("profile", "target_file", "body", "updated_at"), postgres="curated_notes")
JOURNAL = Table(("seq", "profile", "target", "record"), postgres="curated_journal")
BACKUPS = Table(("id", "profile", "target_file", "body", "created_at"), postgres="curated_backups")
PENDING = Table(("profile", "body", "updated_at"), postgres="pending_proposals")
LEDGER = Table(("profile", "body", "updated_at"), postgres="curated_ledger")
TABLES = (NOTES, JOURNAL, BACKUPS, PENDING, LEDGER)

#: The one profile whose notes a version-1 database holds, else "default": the owner given to
#: the recall and session rows that version 1 stored without one (see migration 2).
V1_OWNER = (
    "SELECT CASE WHEN count(DISTINCT profile) = 1 THEN min(profile) ELSE 'default' END"
    " FROM (SELECT profile FROM curated_notes UNION SELECT profile FROM curated_journal) AS p"
)

POSTGRES: dict[int, tuple[str, ...]] = {
    1: (
        # Notes are bytes: a damaged file's undecodable bytes (and NULs) survive an import.
        """
            CREATE TABLE curated_notes (
                profile     text NOT NULL,
                target_file text NOT NULL,
                body        bytea NOT NULL DEFAULT '',
                updated_at  timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (profile, target_file)
            )
            """,
        # One JSON record per committed change, as in the files' .journal.jsonl (ASCII JSON,
        # so surrogate-escaped text round-trips; jsonb would reject it).
        """
            CREATE TABLE curated_journal (
                seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                profile text NOT NULL,
                target  text NOT NULL,
                record  text NOT NULL
            )
            """,
        "CREATE INDEX curated_journal_target ON curated_journal (profile, target, seq)",
        """
            CREATE TABLE curated_backups (
                id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                profile     text NOT NULL,
                target_file text NOT NULL,
                body        bytea NOT NULL,
                created_at  timestamptz NOT NULL DEFAULT now()
            )
            """,
    ),
    3: (
        # The same document as the files' .pending.json (silcrow.store._pending.DocumentBox),
        # changed under the row's lock: a profile holds at most a few hundred small records.
        """
            CREATE TABLE pending_proposals (
                profile    text PRIMARY KEY,
                body       text NOT NULL DEFAULT '',
                updated_at timestamptz NOT NULL DEFAULT now()
            )
            """,
    ),
    5: (
        # Entry metadata and the archive (silcrow.store._ledger), one JSON document per profile
        # as in the files' .ledger.json, changed under the row's lock.
        """
            CREATE TABLE curated_ledger (
                profile    text PRIMARY KEY,
                body       text NOT NULL DEFAULT '',
                updated_at timestamptz NOT NULL DEFAULT now()
            )
            """,
    ),
}
