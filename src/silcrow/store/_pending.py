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

What a person reviews is the proposal's *net effect* (:func:`effect`): its steps
applied in order to a copy of the live entries, as entries removed, added and
changed, with a fingerprint (``base``) of the entries it was computed against.
Approving with that ``base`` applies exactly that effect, or is refused as
stale when the entries have changed since.

The box is bounded by count and by size, in all and per caller (the constants below); a
full box refuses the new proposal, telling the model why, and never drops one
already waiting, so a flood from one caller cannot push out another's. A
proposal leaves the box only in the same durable step that records its fate
(see :meth:`~silcrow.store.Transaction.claim`). Each storage backend keeps its
own box: a private JSON file next to the notes (written with the files'
atomic write under their lock), or a row of the PostgreSQL database.
"""

from __future__ import annotations

import contextvars
import difflib
import hashlib
import json
import secrets
import threading
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from silcrow import safety as threats
from silcrow._json import loads
from silcrow.errors import StoreError
from silcrow.store._edits import (
    Edit,
    Where,
    add_edit,
    batch_edit,
    checked_content,
    checked_old_text,
    remove_edit,
    replace_edit,
)
from silcrow.store._results import Refusal, Refused

WRITE_POLICIES = ("auto", "approve")
#: Proposals waiting at most, from all callers together.
MAX_PENDING = 100
#: Proposals waiting at most from one caller (its token, else its session, else its client).
MAX_PER_CALLER = 20
#: Operations in one batch proposal at most.
MAX_OPERATIONS = 50
#: Size of one proposal at most, as stored (JSON, UTF-8 bytes).
MAX_PROPOSAL_BYTES = 64 * 1024
#: Size of all waiting proposals together at most (JSON, UTF-8 bytes).
MAX_BOX_BYTES = 2 * 1024 * 1024
#: Size of one caller's waiting proposals together at most: under a fifth of the box, as
#: MAX_PER_CALLER is a fifth of MAX_PENDING, so no caller (nor two) fills it.
MAX_CALLER_BYTES = 400 * 1024
# Decided proposals kept (newest last) so a decision and its reason can still be read.
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
    ``client "rest", token "agent-1" (id "1a2b3c4d"), session (claimed) "s-42"``. Every value is
    the caller's to choose (a session header, a client name), so each is shown quoted and escaped
    (:func:`~silcrow.safety.display_safe`): none can pass for the output around it."""
    if not isinstance(who, dict):
        return ""
    parts = []
    for key, value in who.items():
        if key in ("id", "token_id") or value in (None, ""):
            continue
        name = _WHO_LABELS.get(key) or threats.display_safe(str(key), quoted=True)
        text = f"{name} {threats.display_safe(str(value), quoted=True)}"
        if key == "token" and who.get("token_id"):
            text += f" (id {threats.display_safe(str(who['token_id']), quoted=True)})"
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
    why: str | None = None  # why it was proposed, when a review pass made it (see _review)
    decided_by: dict[str, str] | None = None  # who decided it (Proposer.record())
    finding: str | None = None  # the review finding it stands for (_review.finding_key)

    @classmethod
    def new(cls, *, target: str, action: str, proposer: Proposer | None, **what: Any) -> Proposal:
        who: dict[str, str | None] = dict((proposer or Proposer()).record())
        return cls(id=secrets.token_hex(4), time=now(), target=target, action=action, who=who, **what)

    def as_dict(self) -> dict[str, Any]:
        # Shallow (not dataclasses.asdict, which deep-copies every operation): read-only use.
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}

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
    def decided(self) -> list[Proposal]:
        """Recently decided proposals (approved or rejected), oldest first."""

    @abstractmethod
    def add(self, proposal: Proposal) -> None:
        """Keep ``proposal``; refused (:class:`Refused`) when the box or the caller's share of
        it is full (see :func:`admitted`). Nothing already waiting is ever dropped."""

    @abstractmethod
    def reject(self, proposal_id: str, reason: str | None,
               by: dict[str, str] | None = None) -> Proposal | None:
        """Move the pending proposal ``proposal_id`` to the decided ones as rejected (``by``:
        who decided, ``Proposer.record()``), in one durable step; returns it (None when it is
        not pending: of two decisions, one wins)."""

    @abstractmethod
    def note_error(self, proposal_id: str, error: str) -> None:
        """Record why the last approval of a pending proposal was refused."""

    @abstractmethod
    def settle(self, proposal: Proposal) -> None:
        """Move a pending proposal to the decided ones as approved, by its ``decided_by``
        (backends without a durable box; others do this in the notes' transaction, see
        Transaction.settle)."""

    @abstractmethod
    def restore(self, text: str) -> None:
        """Replace the whole box with the document ``text`` (moving a profile between backends)."""


def _ordered(items: list[Proposal]) -> list[Proposal]:
    return sorted(items, key=lambda p: p.time)


def size(proposal: Proposal) -> int:
    """The bytes ``proposal`` takes in the box (its JSON, as stored)."""
    return len(json.dumps(proposal.as_dict(), ensure_ascii=True))


def caller(who: dict[str, Any]) -> str:
    """Whose quota a proposal counts against: its token (proven), else its session (claimed),
    else its client."""
    for key in ("token_id", "token", "session", "claimed_session", "client"):
        if who.get(key):
            return f"{key} {who[key]}"
    return "unknown"


def admitted(pending: list[Proposal], proposal: Proposal) -> None:
    """Refuse ``proposal`` when keeping it would pass a bound of the box (count, bytes, the
    caller's share); says which bound and what to do."""
    tail = ("Nothing was saved. Tell the user that proposals are waiting for their review "
            "(`silcrow memory pending`, or the inspector), and do not retry until they decide.")
    mine = caller(proposal.who)
    yours = [p for p in pending if caller(p.who) == mine]
    if len(yours) >= MAX_PER_CALLER:
        raise Refused(Refusal(
            f"Not saved: {MAX_PER_CALLER} of your proposals are already waiting for the user's approval "
            f"(at most {MAX_PER_CALLER} per caller). {tail}", target=proposal.target))
    taken = sum(size(p) for p in yours)
    if taken + size(proposal) > MAX_CALLER_BYTES:
        raise Refused(Refusal(
            f"Not saved: your proposals already waiting for the user's approval take {taken:,} bytes and "
            f"this one {size(proposal):,}, over the {MAX_CALLER_BYTES:,} bytes one caller may have waiting. "
            f"{tail}", target=proposal.target))
    if len(pending) >= MAX_PENDING:
        raise Refused(Refusal(
            f"Not saved: the box of pending proposals is full ({MAX_PENDING} waiting). {tail}",
            target=proposal.target))
    used = sum(size(p) for p in pending)
    if used + size(proposal) > MAX_BOX_BYTES:
        raise Refused(Refusal(
            f"Not saved: the box of pending proposals is full ({used:,} of {MAX_BOX_BYTES:,} bytes used, "
            f"this proposal takes {size(proposal):,}). {tail}", target=proposal.target))


def usage(pending: list[Proposal]) -> dict[str, Any]:
    """How full the box is, for the person reviewing it: ``full`` (new proposals from anyone
    are refused) and ``full_callers`` (callers whose new proposals are refused)."""
    per_caller = Counter(caller(p.who) for p in pending)
    caller_bytes: Counter[str] = Counter()
    for p in pending:
        caller_bytes[caller(p.who)] += size(p)
    used = sum(caller_bytes.values())
    return {
        "waiting": len(pending), "bytes": used, "max_waiting": MAX_PENDING, "max_bytes": MAX_BOX_BYTES,
        "max_per_caller": MAX_PER_CALLER, "max_bytes_per_caller": MAX_CALLER_BYTES,
        "full": len(pending) >= MAX_PENDING or used >= MAX_BOX_BYTES - MAX_PROPOSAL_BYTES,
        # As for the box: a caller near its byte share may be refused a proposal of the largest size.
        "full_callers": sorted(c for c, n in per_caller.items() if n >= MAX_PER_CALLER
                               or caller_bytes[c] >= MAX_CALLER_BYTES - MAX_PROPOSAL_BYTES),
    }


def box_warnings(box: dict[str, Any]) -> list[str]:
    """What a person reviewing should know about a box :func:`usage` describes, in words."""
    lines = []
    if box.get("full"):
        lines.append(f"The box is full ({box['waiting']} waiting, {box['bytes']:,} bytes): new proposals "
                     "from every caller are refused until you approve or reject some.")
    if box.get("full_callers"):
        shown = ", ".join(threats.display_safe(str(c), quoted=True) for c in box["full_callers"])
        lines.append(f"At (or near) their share of {box['max_per_caller']} waiting or "
                     f"{box.get('max_bytes_per_caller', MAX_CALLER_BYTES):,} bytes, so their new proposals "
                     f"may be refused: {shown}.")
    project = box.get("project")  # a project's notes have a box of their own (Notes.box_usage)
    if isinstance(project, dict):
        lines.extend(f"The project's notes: {line}" for line in box_warnings(project))
    return lines


def settled(state: dict[str, list[Proposal]], proposal_id: str, status: str,
            reason: str | None = None, by: dict[str, str] | None = None) -> Proposal | None:
    """Move ``proposal_id`` from ``state``'s pending to its decided list with ``status`` and
    who decided (``by``), in place; returns the decided proposal, or None when it was not
    pending."""
    found = next((p for p in state["pending"] if p.id == proposal_id), None)
    if found is None:
        return None
    state["pending"] = [p for p in state["pending"] if p.id != proposal_id]
    decided = replace(found, status=status, reason=reason or None, decided=now(), last_error=None,
                      decided_by=by or None)
    state["decided"] = [*state["decided"], decided][-MAX_DECIDED:]
    return decided


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
            data = loads(text) if text.strip() else {}
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
        # One proposal a line: compact, and still readable by a person.
        parts = {k: ",\n".join(json.dumps(p.as_dict(), ensure_ascii=True) for p in v)
                 for k, v in state.items()}
        return "{" + ",\n".join(f'"{k}": [\n{v}\n]' for k, v in parts.items()) + "}\n"

    def waiting(self) -> list[Proposal]:
        return self.parse(self._read())["pending"]

    def decided(self) -> list[Proposal]:
        return self.parse(self._read())["decided"]

    def add(self, proposal: Proposal) -> None:
        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], None]:
            admitted(state["pending"], proposal)
            state["pending"] = [*state["pending"], proposal]
            return state, None

        self._change(change)

    def reject(self, proposal_id: str, reason: str | None,
               by: dict[str, str] | None = None) -> Proposal | None:
        if all(p.id != proposal_id for p in self.waiting()):
            return None  # not there: no need for the lock (nor to create the file)

        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], Proposal | None]:
            return state, settled(state, proposal_id, "rejected", reason, by)

        result: Proposal | None = self._change(change)
        return result

    def note_error(self, proposal_id: str, error: str) -> None:
        def change(state: dict[str, list[Proposal]]) -> tuple[dict[str, list[Proposal]], None]:
            state["pending"] = [replace(p, last_error=error) if p.id == proposal_id else p
                                for p in state["pending"]]
            return state, None

        self._change(change)

    def settle(self, proposal: Proposal) -> None:
        self._change(lambda state: (state, settled(state, proposal.id, "approved", by=proposal.decided_by)))

    def restore(self, text: str) -> None:
        """Replace the whole box with the document ``text`` (moving a profile between backends)."""
        self._change(lambda _state: (self.parse(text), None))


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


# ------------------------------------------------------------------ what a proposal does


def fingerprint(entries: list[str]) -> str:
    """A short digest of a target's entries: what a review was computed against."""
    data = json.dumps(entries, ensure_ascii=True).encode("ascii")
    return hashlib.sha256(data).hexdigest()[:16]


def steps(proposal: Proposal) -> list[Any]:
    """The operations of ``proposal`` (one for a single write)."""
    if proposal.action == "batch":
        return list(proposal.operations or [])
    op: dict[str, Any] = {"action": proposal.action}
    op.update({k: v for k, v in (("content", proposal.content), ("old_text", proposal.old_text)) if v})
    return [op]


def edit_of(proposal: Proposal, where: Where, holds: list[threats.ThreatHit] | None = None,
            scan: bool = True) -> Edit:
    """The edit ``proposal`` makes, checked again (fields, and the threat scan unless not
    ``scan``) as when it was made: its steps in order, all or nothing. Refused
    (:class:`Refused`) when it cannot be made."""
    if proposal.action == "batch":
        return batch_edit(where, proposal.operations, holds, force=not scan)
    if proposal.action not in ("add", "replace", "remove"):
        raise Refused(Refusal(f"proposal {proposal.id} has an unknown action {proposal.action!r}; reject it"))
    hint = "the proposal has no content; reject it"
    if proposal.action == "add":
        return add_edit(checked_content(proposal.content, hint, not scan, holds))
    old_text = checked_old_text(proposal.old_text, proposal.action)
    if proposal.action == "remove":
        return remove_edit(where, old_text)
    return replace_edit(where, old_text, checked_content(proposal.content, hint, not scan, holds))


def useful_steps(operations: list[Any], where: Where, current: list[str]) -> list[Any]:
    """``operations`` without the steps that change nothing when applied in order to ``current``
    (a repeated add, a replace by the same text): they are not stored. The operations were
    checked (and scanned) already."""
    kept: list[Any] = []
    state = list(current)
    for op in operations:
        after = batch_edit(where, [op], force=True)(state)[0]
        if after != state:
            kept.append(op)
        state = after
    return kept


def net_changes(before: list[str], after: list[str]) -> list[dict[str, str | None]]:
    """Entries removed (``after`` None), added (``before`` None) and changed, in order."""
    out: list[dict[str, str | None]] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old, new = before[i1:i2], after[j1:j2]
        paired = min(len(old), len(new)) if tag == "replace" else 0
        out.extend({"before": o, "after": n} for o, n in zip(old[:paired], new[:paired], strict=True))
        out.extend({"before": o, "after": None} for o in old[paired:])
        out.extend({"before": None, "after": n} for n in new[paired:])
    return out


def effect(proposal: Proposal, current: list[str], where: Where) -> dict[str, Any]:
    """What approving ``proposal`` now would do to ``current`` (its target's live entries):
    ``changes`` (see :func:`net_changes`), ``base`` (the fingerprint of ``current``; pass it to
    approve), ``after`` (the entries it would leave) and ``problem``: why it cannot apply
    now (``stale`` when its ``old_text`` no longer finds exactly one entry). The threat scan
    is left to the approval, which runs it again (it ran when the proposal was made)."""
    out: dict[str, Any] = {"base": fingerprint(current), "changes": [], "problem": None, "stale": False,
                           "after": list(current)}
    try:
        after = edit_of(proposal, where, scan=False)(current)[0]
    except Refused as refused:
        out["problem"], out["stale"] = refused.refusal.error, refused.refusal.unmatched
        return out
    out["changes"], out["after"] = net_changes(current, after), after
    return out
