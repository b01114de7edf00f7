"""The curated notes (MEMORY.md / USER.md) of one profile in PostgreSQL.

Implements :class:`~silcrow.store.StoreBackend`, so
:class:`~silcrow.store.MemoryStore` keeps every behaviour (substring
addressing, budgets, threat scanning, frozen snapshot, undo) unchanged.

A write is one transaction: ``SELECT ... FOR UPDATE`` locks the (profile,
target) row, the store re-reads and edits the text, and the new text and its
journal record commit together. Writers on any number of hosts queue on the
row lock and lose nothing; readers read the last committed text and never
wait. A writer killed mid-transaction leaves nothing behind: the server
rolls its transaction back.

``outside_edit`` has no meaning here: nobody edits a row behind silcrow's
back the way a person edits a file, and the text and its journal record
are one atomic commit, so the journal cannot miss a change. The journal is
the complete history by construction (edits made with plain SQL are outside
silcrow's contract, as hand-editing a SQLite file would be).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from silcrow import schema
from silcrow.db import Database
from silcrow.errors import LockTimeoutError, StoreError
from silcrow.store._backend import LedgerDocument, StoreBackend, Transaction
from silcrow.store._pending import DocumentBox, Proposal, ProposalBox, settled

WHAT = "curated notes"


def _text(body: bytes | memoryview | None, errors: str) -> str:
    return bytes(body or b"").decode("utf-8", errors=errors)


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def _record(raw: str) -> dict[str, Any] | None:
    try:
        record = json.loads(raw)
    except json.JSONDecodeError:
        return None
    return record if isinstance(record, dict) and "target" in record and "after" in record else None


def journal_line(record: dict[str, Any]) -> str:
    """A journal record as stored: ASCII JSON, as in the files' journal."""
    return json.dumps(record, ensure_ascii=True, separators=(",", ":"))


class PostgresTransaction(Transaction):
    def __init__(self, backend: PostgresBackend, conn: Any, target_file: str, text: str) -> None:
        self._backend = backend
        self._conn = conn
        self._target_file = target_file
        self._text = text
        self._box: dict[str, list[Proposal]] | None = None

    def read(self) -> str:
        return self._text

    def write(self, text: str) -> None:
        self._conn.execute(
            "UPDATE curated_notes SET body = %s, updated_at = now() WHERE profile = %s AND target_file = %s",
            (_bytes(text), self._backend.profile, self._target_file),
        )
        self._text = text

    def journal(self, record: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO curated_journal (profile, target, record) VALUES (%s, %s, %s)",
            (self._backend.profile, record.get("target", ""), journal_line(record)),
        )

    def last_record(self, target: str) -> dict[str, Any] | None:
        rows = self._conn.execute(
            "SELECT record FROM curated_journal WHERE profile = %s AND target = %s"
            " ORDER BY seq DESC LIMIT 20",
            (self._backend.profile, target),
        ).fetchall()
        return next((r for row in rows if (r := _record(row["record"])) is not None), None)

    def records(self, target: str) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT record FROM curated_journal WHERE profile = %s AND target = %s ORDER BY seq",
            (self._backend.profile, target),
        ).fetchall()
        return [r for row in rows if (r := _record(row["record"])) is not None]

    def claim(self, box: ProposalBox, proposal_id: str) -> Proposal | None:
        # The box row is locked after the notes row, as nothing locks them the other way round;
        # it changes, if at all, in this transaction: with the notes and their journal, or not.
        if self._box is None:
            profile = self._backend.profile
            self._conn.execute("INSERT INTO pending_proposals (profile) VALUES (%s) ON CONFLICT DO NOTHING",
                               (profile,))
            row = self._conn.execute("SELECT body FROM pending_proposals WHERE profile = %s FOR UPDATE",
                                     (profile,)).fetchone()
            self._box = DocumentBox.parse(str(row["body"]))
        return next((p for p in self._box["pending"] if p.id == proposal_id), None)

    def settle(self, box: ProposalBox, proposal: Proposal, text: str | None) -> None:
        if self._box is None or settled(self._box, proposal.id, "approved", by=proposal.decided_by) is None:
            raise StoreError(f"proposal {proposal.id} was not claimed in this transaction")
        self._conn.execute("UPDATE pending_proposals SET body = %s, updated_at = now() WHERE profile = %s",
                           (DocumentBox.render(self._box), self._backend.profile))

    def backup(self, text: str) -> str:
        row = self._conn.execute(
            "INSERT INTO curated_backups (profile, target_file, body) VALUES (%s, %s, %s) RETURNING id",
            (self._backend.profile, self._target_file, _bytes(text)),
        ).fetchone()
        return f"{self._backend.db.where} table silcrow.curated_backups id {row['id']}"


class PostgresBackend(StoreBackend):
    """MEMORY.md / USER.md of ``profile`` as rows of ``silcrow.curated_notes``."""

    def __init__(self, dsn: str, profile: str = "default") -> None:
        self.db: Database = schema.database(dsn)
        self.profile = profile

    def location(self, target_file: str) -> str:
        return f"{target_file} of profile {self.profile!r} in {self.db.where}"

    def read(self, target_file: str, *, strict: bool = False) -> str:
        def once() -> str:
            with self.db.transaction(StoreError, WHAT) as conn:
                row = conn.execute(
                    "SELECT body FROM curated_notes WHERE profile = %s AND target_file = %s",
                    (self.profile, target_file),
                ).fetchone()
            return _text(row["body"] if row else b"", "surrogateescape" if strict else "replace")

        return self.db.retrying(once)

    @contextlib.contextmanager
    def transaction(self, target_file: str) -> Iterator[Transaction]:
        with self.db.transaction(StoreError, WHAT, lock_error=LockTimeoutError) as conn:
            # The row must exist to be locked; a second creator waits on the key, then finds it.
            conn.execute(
                "INSERT INTO curated_notes (profile, target_file) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (self.profile, target_file),
            )
            row = conn.execute(
                "SELECT body FROM curated_notes WHERE profile = %s AND target_file = %s FOR UPDATE",
                (self.profile, target_file),
            ).fetchone()
            yield PostgresTransaction(self, conn, target_file, _text(row["body"], "surrogateescape"))

    def journal_records(self) -> Iterator[dict[str, Any]]:
        def once() -> list[dict[str, Any]]:
            with self.db.transaction(StoreError, WHAT) as conn:
                rows = conn.execute(
                    "SELECT record FROM curated_journal WHERE profile = %s ORDER BY seq", (self.profile,)
                ).fetchall()
            return [r for row in rows if (r := _record(row["record"])) is not None]

        return iter(self.db.retrying(once))

    def leftovers(self, target_file: str) -> list[str]:
        return []  # a transaction either commits whole or leaves nothing

    def proposals(self) -> ProposalBox:
        return PostgresBox(self)

    def ledger(self) -> LedgerDocument:
        return PostgresLedger(self)


class _ProfileDocument:
    """One text per profile in a table ``(profile, body, updated_at)``: read without a lock,
    changed under the row's lock (``SELECT ... FOR UPDATE``), so writers on any hosts take turns.
    The shape of the pending proposals' box and of the entry ledger."""

    def __init__(self, backend: PostgresBackend, table: str, what: str) -> None:
        self._backend, self._table, self._what = backend, table, what

    def text(self) -> str:
        db, profile = self._backend.db, self._backend.profile

        def once() -> str:
            with db.transaction(StoreError, self._what) as conn:
                row = conn.execute(f"SELECT body FROM {self._table} WHERE profile = %s",
                                   (profile,)).fetchone()
            return str(row["body"]) if row else ""

        return db.retrying(once)

    def rewrite(self, change: Any) -> Any:
        """``change(text) -> (new text, value)`` under the row lock; returns the value."""
        db, profile = self._backend.db, self._backend.profile
        with db.transaction(StoreError, self._what, lock_error=LockTimeoutError) as conn:
            conn.execute(f"INSERT INTO {self._table} (profile) VALUES (%s) ON CONFLICT DO NOTHING",
                         (profile,))
            row = conn.execute(f"SELECT body FROM {self._table} WHERE profile = %s FOR UPDATE",
                               (profile,)).fetchone()
            text, value = change(str(row["body"]))
            conn.execute(f"UPDATE {self._table} SET body = %s, updated_at = now() WHERE profile = %s",
                         (text, profile))
        return value


class PostgresBox(DocumentBox):
    """The pending proposals of one profile: a row of ``silcrow.pending_proposals``, changed
    under its row lock, so two approvers on any hosts take turns."""

    def __init__(self, backend: PostgresBackend) -> None:
        self._backend = backend
        self._row = _ProfileDocument(backend, "pending_proposals", "pending proposals")

    def _read(self) -> str:
        return self._row.text()

    def _change(self, change: Any) -> Any:
        def apply(text: str) -> tuple[str, Any]:
            state, value = change(self.parse(text))
            return self.render(state), value

        return self._row.rewrite(apply)


class PostgresLedger(LedgerDocument):
    """The entry metadata and archive of one profile: a row of ``silcrow.curated_ledger``,
    changed under its row lock. The journal is never compacted here, so nothing needs
    folding before records go."""

    def __init__(self, backend: PostgresBackend) -> None:
        self._row = _ProfileDocument(backend, "curated_ledger", "entry metadata")

    def read(self) -> str:
        return self._row.text()

    def change(self, change: Any) -> None:
        self._row.rewrite(lambda text: (change(text), None))
