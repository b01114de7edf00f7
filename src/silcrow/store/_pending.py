"""Pending proposals: writes from a model that wait for the user's approval.

With ``[memory] write_policy = "approve"`` a write that comes from a model (the
agent's memory tool, MCP, REST with a token) is not applied: the store checks
it as far as it can without writing (target, fields, threat scan, whether
``old_text`` addresses one entry, the budget) and keeps it here. A person then
approves it, which runs it through the normal write path, or rejects it.

A proposal records what (action, target, content, old_text or a batch's
operations), who (session, client, token name) and when; a write the threat
scan could only *hold* (``threats.verdict`` == "hold") is kept with the
scanner's reason, so the person approving it sees why it was held.

The box is bounded (:data:`MAX_PENDING`): adding to a full one drops the
oldest proposal, and the caller is told which. Each storage backend keeps its
own box: a private JSON file next to the notes (written with the files'
atomic write under their lock), or a table of the PostgreSQL database.
"""

from __future__ import annotations

import contextvars
import json
import secrets
import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from silcrow.errors import StoreError
from silcrow.store import _entries as E

WRITE_POLICIES = ("auto", "approve")
MAX_PENDING = 100
# Decided proposals kept (newest last) so a rejection's reason can still be read.
MAX_DECIDED = 50
PENDING_FILE = ".pending.json"


@dataclass(frozen=True)
class Proposer:
    """Who made a write, a proposal or a decision: the session (known, as the agent's own), the
    session a server's caller *claims* (``X-Silcrow-Session``, ``Mcp-Session-Id``: a header
    anyone can send, so never shown as fact), the client (agent, mcp, rest, web, library) and
    the name and id of the API token it came with."""

    session: str | None = None
    client: str | None = None
    token: str | None = None
    token_id: str | None = None
    claimed_session: str | None = None

    def over(self, base: Proposer) -> Proposer:
        """These fields, each unset one taken from ``base`` (but not its session when this one
        claims one: the caller said which session it is, the base only guessed)."""
        merged = {f.name: getattr(self, f.name) or getattr(base, f.name) for f in fields(self)}
        if self.claimed_session:
            merged["session"] = self.session
        return Proposer(**merged)

    def record(self) -> dict[str, str]:
        """The fields that are set, as kept in proposals and journal records."""
        return {k: v for k, v in asdict(self).items() if v}


# How each field of a recorded caller is shown to a person (CLI, REST clients, the inspector).
_WHO_LABELS = {"session": "session", "claimed_session": "session (claimed)", "client": "client",
               "token": "token", "token_id": "token id"}


def who_text(who: Any) -> str:
    """A recorded caller (``Proposer.record()``, a proposal's ``who``) in words, e.g.
    ``client rest, token agent-1 (id 1a2b3c4d), session (claimed) s-42``."""
    if not isinstance(who, dict):
        return ""
    parts = []
    for key, value in who.items():
        if key in ("id", "token_id") or value in (None, ""):
            continue
        text = f"{_WHO_LABELS.get(key, key)} {value}"
        if key == "token" and who.get("token_id"):
            text += f" (id {who['token_id']})"
        parts.append(text)
    return ", ".join(parts)


# The proposer of writes made in this context; servers set it per request, the agent per
# session (a context variable, so it follows a request onto its worker thread).
current_proposer: contextvars.ContextVar[Proposer | None] = contextvars.ContextVar(
    "silcrow_proposer", default=None)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Proposal:
    """One pending write (see the module doc). ``held`` is the threat scanner's reason when
    the scan could only hold the content; ``last_error`` why the last approval failed."""

    id: str
    time: str
    target: str
    action: str  # add | replace | remove | batch
    content: str | None = None
    old_text: str | None = None
    operations: list[dict[str, Any]] | None = None
    who: dict[str, str | None] = field(default_factory=dict)
    held: str | None = None
    patterns: list[str] | None = None
    last_error: str | None = None
    status: str = "pending"  # pending | rejected
    reason: str | None = None  # the rejection's reason
    decided: str | None = None
    decided_by: dict[str, str] | None = None  # who decided it (Proposer.record())

    @classmethod
    def new(cls, *, target: str, action: str, proposer: Proposer | None, **what: Any) -> Proposal:
        who: dict[str, str | None] = dict((proposer or Proposer()).record())
        return cls(id=secrets.token_hex(4), time=now(), target=target, action=action, who=who, **what)

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: Any) -> Proposal | None:
        """The proposal ``data`` stands for; None for something that is not one (skipped)."""
        if not isinstance(data, dict):
            return None
        names = {f.name for f in fields(cls)}
        try:
            proposal = cls(**{k: v for k, v in data.items() if k in names})
        except TypeError:
            return None
        ok = all(isinstance(getattr(proposal, k), str) for k in ("id", "time", "target", "action"))
        return proposal if ok else None

    def summary(self) -> str:
        """One line naming the proposal, for messages."""
        what = self.content if self.action in ("add", "replace") else self.old_text
        if self.action == "batch":
            what = f"{len(self.operations or [])} operation(s)"
        return f"{self.id} ({self.action} {self.target}: {str(what)[:60]!r})"


class ProposalBox(ABC):
    """Where a store's pending proposals live (one box per profile)."""

    @abstractmethod
    def waiting(self) -> list[Proposal]:
        """Pending proposals, oldest first."""

    @abstractmethod
    def add(self, proposal: Proposal, limit: int = MAX_PENDING) -> list[Proposal]:
        """Keep ``proposal``; returns the oldest ones dropped to stay within ``limit``."""

    @abstractmethod
    def take(self, proposal_id: str) -> Proposal | None:
        """Remove the pending proposal ``proposal_id`` and return it (None when there is none):
        of two approvals of the same proposal at once, only one gets it."""

    @abstractmethod
    def put_back(self, proposal: Proposal) -> None:
        """Return a taken proposal (its approval failed) to its place in the queue."""

    @abstractmethod
    def decide(self, proposal: Proposal) -> None:
        """Keep a rejected proposal (with its reason) among the recent decisions."""

    @abstractmethod
    def decided(self) -> list[Proposal]:
        """Recently rejected proposals, oldest first."""


def _ordered(items: list[Proposal]) -> list[Proposal]:
    return sorted(items, key=lambda p: p.time)


class DocumentBox(ProposalBox):
    """A box kept as one JSON document ``{"pending": [...], "decided": [...]}``; subclasses
    say how to read it and how to change it under a lock."""

    @abstractmethod
    def _read(self) -> str: ...

    @abstractmethod
    def _change(self, change: Any) -> Any:
        """Run ``change(state) -> (state, value)`` on the parsed document under a lock, write the
        new state, return the value."""

    @staticmethod
    def parse(text: str) -> dict[str, list[Proposal]]:
        try:
            data = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        state: dict[str, list[Proposal]] = {}
        for key in ("pending", "decided"):
            items = data.get(key)
            items = items if isinstance(items, list) else []
            state[key] = [p for item in items if (p := Proposal.from_dict(item))]
        return state

    @staticmethod
    def render(state: dict[str, list[Proposal]]) -> str:
        return json.dumps({k: [p.as_dict() for p in v] for k, v in state.items()},
                          ensure_ascii=True, indent=1) + "\n"

    def waiting(self) -> list[Proposal]:
        return self.parse(self._read())["pending"]

    def decided(self) -> list[Proposal]:
        return self.parse(self._read())["decided"]

    def add(self, proposal: Proposal, limit: int = MAX_PENDING) -> list[Proposal]:
        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], list[Proposal]]:
            pending = [*state["pending"], proposal]
            dropped = pending[: max(0, len(pending) - limit)]
            state["pending"] = pending[len(dropped):]
            return state, dropped

        result: list[Proposal] = self._change(change)
        return result

    def take(self, proposal_id: str) -> Proposal | None:
        if all(p.id != proposal_id for p in self.waiting()):
            return None  # not there: no need for the lock (nor to create the file)

        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], Proposal | None]:
            found = next((p for p in state["pending"] if p.id == proposal_id), None)
            state["pending"] = [p for p in state["pending"] if p.id != proposal_id]
            return state, found

        result: Proposal | None = self._change(change)
        return result

    def put_back(self, proposal: Proposal) -> None:
        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], None]:
            state["pending"] = _ordered([*(p for p in state["pending"] if p.id != proposal.id), proposal])
            return state, None

        self._change(change)

    def restore(self, text: str) -> None:
        """Replace the whole box with the document ``text`` (moving a profile between backends)."""
        self._change(lambda _state: (self.parse(text), None))

    def decide(self, proposal: Proposal) -> None:
        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], None]:
            state["decided"] = [*state["decided"], proposal][-MAX_DECIDED:]
            return state, None

        self._change(change)


class MemoryBox(DocumentBox):
    """A box in this process only, for backends that keep nothing on disk (tests, a dict)."""

    def __init__(self) -> None:
        self._text = ""
        self._lock = threading.Lock()

    def _read(self) -> str:
        return self._text

    def _change(self, change: Any) -> Any:
        with self._lock:
            state, value = change(self.parse(self._text))
            self._text = self.render(state)
        return value


def checked_policy(policy: Any) -> str:
    if policy not in WRITE_POLICIES:
        raise StoreError(f"write_policy must be 'auto' or 'approve', got {policy!r}")
    return str(policy)


def with_error(proposal: Proposal, error: str) -> Proposal:
    return replace(proposal, last_error=error)


def changes(proposal: Proposal, current: list[str]) -> list[dict[str, Any]]:
    """What ``proposal`` would do to ``current`` (its target's live entries), step by step:
    ``before`` the entry ``old_text`` addresses now, ``after`` the new text, ``stale`` why
    ``old_text`` no longer addresses exactly one entry. A batch's steps are each shown against
    the entries as they are now, not as the steps before them would leave them."""
    steps = proposal.operations if proposal.action == "batch" else [
        {"action": proposal.action, "content": proposal.content, "old_text": proposal.old_text}]
    out: list[dict[str, Any]] = []
    for step in steps or []:
        if not isinstance(step, dict):
            continue
        action, old = step.get("action"), step.get("old_text")
        before: str | None = None
        stale: str | None = None
        if action in ("replace", "remove") and isinstance(old, str):
            match = E.find(current, old)
            if not match.found:
                stale = f"no entry contains {old!r} now"
            elif match.ambiguous:
                stale = f"{len(match.distinct)} different entries contain {old!r} now"
            else:
                before = current[match.indexes[0]]
        after = step.get("content") if action in ("add", "replace") else None
        out.append({"action": action, "old_text": old, "before": before, "after": after, "stale": stale})
    return out
