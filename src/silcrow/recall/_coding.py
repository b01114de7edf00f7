"""Reading coding-agent transcripts into :class:`RecallRecord` lists.

Two formats, both JSON Lines written by the client as a session goes on, told
apart by content:

- **Claude Code** (``~/.claude/projects/<project>/<session>.jsonl``): one entry
  per line; ``type`` ``"user"`` or ``"assistant"`` entries carry an Anthropic
  ``message`` (``content`` a string or a list of blocks) with ``uuid``,
  ``timestamp``, ``sessionId``, ``cwd`` (the project) and ``isSidechain``.
  One assistant reply is written as several lines, one per content block
  (``text``, ``thinking``, ``tool_use``), each with its own ``uuid``. Tool
  results come back as ``user`` entries whose content is ``tool_result``
  blocks. Other entry types (``summary``, ``file-history-snapshot``,
  ``progress``, ``queue-operation``, attachments, ...) are bookkeeping.
- **Codex CLI rollouts** (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``):
  ``{"timestamp", "type", "payload"}`` per line; ``session_meta`` names the
  session (``payload.id``) and its ``cwd``; ``response_item`` payloads of type
  ``message`` (role ``user``/``assistant``/``developer``, content parts
  ``input_text``/``output_text``) are the conversation, next to ``reasoning``,
  ``function_call`` and ``function_call_output`` items; ``event_msg`` entries
  repeat the messages for the UI and ``turn_context`` records settings.

User and assistant text become ``turn`` records that keep their time, the
session and the project (``metadata["project"]``, the working directory);
tool calls, tool results, thinking, sidechains (sub-agents) and the context a
client injects are counted in ``skipped`` and left out. A line that is not
JSON is skipped and its line number reported, since a transcript being written
can end in half a line. Every record has an external id (the entry's uuid or
id, else its line number), so reading a transcript again stores nothing twice.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from silcrow._json import loads
from silcrow.errors import RecallError
from silcrow.recall._records import RecallRecord

CLAUDE_CODE = "claude-code"
CODEX = "codex"
CLIENTS = (CLAUDE_CODE, CODEX)

_CLAUDE_TYPES = frozenset({"user", "assistant", "summary", "system", "file-history-snapshot", "progress",
                           "queue-operation", "attachment", "last-prompt", "custom-title", "ai-title"})
_CODEX_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
# What Codex puts in user messages itself: the environment and the instruction files it read.
_CODEX_INJECTED = ("<environment_context>", "<user_instructions>", "<INSTRUCTIONS>",
                   "# AGENTS.md instructions", "<user_shell_command>", "<turn_aborted>",
                   "<skills_instructions>")
# What Claude Code writes as a user entry when a slash command or a shell escape runs.
_CLAUDE_COMMAND = ("<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>",
                   "<local-command-caveat>", "<bash-input>", "<bash-stdout>", "<bash-stderr>")
_SNIFF_LINES = 50
_SNIFF_CHARS = 1_000_000


@dataclass
class Transcript:
    """What reading one transcript gave: the records, and what was left out (with why)."""

    records: list[RecallRecord] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    malformed: list[int] = field(default_factory=list)  # line numbers that were not JSON objects


def default_dir(client: str, home: Path | None = None) -> Path:
    """Where ``client`` keeps its transcripts: ``~/.claude/projects`` (or ``$CLAUDE_CONFIG_DIR/projects``)
    and ``~/.codex/sessions`` (or ``$CODEX_HOME/sessions``)."""
    base = Path.home() if home is None else home
    if client == CLAUDE_CODE:
        config = os.environ.get("CLAUDE_CONFIG_DIR")
        return (Path(config).expanduser() if config and home is None else base / ".claude") / "projects"
    if client == CODEX:
        config = os.environ.get("CODEX_HOME")
        return (Path(config).expanduser() if config and home is None else base / ".codex") / "sessions"
    raise RecallError(f"unknown client {client!r}; use {' or '.join(CLIENTS)}")


def transcript_files(directory: Path, client: str | None = None) -> list[Path]:
    """The transcripts under ``directory``, oldest name first: ``*.jsonl`` at any depth (Codex:
    ``rollout-*.jsonl``). Claude Code's sub-agent transcripts are included: their entries are
    sidechain entries, counted as such."""
    pattern = "rollout-*.jsonl" if client == CODEX else "*.jsonl"
    return sorted(p for p in directory.rglob(pattern) if p.is_file())


def _objects(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if not line.strip():
            continue
        try:
            value = loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            yield value


def detect(raw: str) -> str | None:
    """``"claude-code"``, ``"codex"`` or None (another format), from the first lines of ``raw``.

    Only lines that can be an entry are parsed (an object with a ``"type"``, not over a
    megabyte): every file ``recall ingest`` reads comes through here, and a chat export that is
    one line of a hundred megabytes must not be parsed twice.
    """
    head = (line for line in itertools.islice(io.StringIO(raw.removeprefix("\ufeff")), _SNIFF_LINES)
            if line.lstrip().startswith("{") and len(line) <= _SNIFF_CHARS and '"type"' in line)
    for entry in _objects(head):
        kind = entry.get("type")
        if not isinstance(kind, str):  # {"type": [...]} is no entry of either client
            continue
        if kind in _CODEX_TYPES and isinstance(entry.get("payload"), dict):
            return CODEX
        if kind in _CLAUDE_TYPES and ("sessionId" in entry or "parentUuid" in entry or "leafUuid" in entry
                                      or "messageId" in entry):
            return CLAUDE_CODE
        if "role" in entry and "content" in entry:
            return None  # a generic JSONL message file
    return None


def read_transcript(raw: str, *, source: str, client: str | None = None, first_line: int = 1) -> Transcript:
    """Records of a Claude Code transcript or a Codex rollout (``client`` None: detected).

    ``first_line`` is the number of the first line of ``raw`` (reading a transcript from an
    offset), so line numbers stay those of the file.
    """
    client = client or detect(raw)
    if client == CLAUDE_CODE:
        return parse_claude_code(raw, source=source, first_line=first_line)
    if client == CODEX:
        return parse_codex(raw, source=source, first_line=first_line)
    raise RecallError(f"{source}: not a Claude Code transcript or a Codex rollout")


def merge_into(transcript: Transcript, source: str, skipped: Counter[str]) -> list[RecallRecord]:
    """The records of ``transcript``; what it left out is added to ``skipped``, its malformed
    lines under a reason that names them."""
    skipped.update(transcript.skipped)
    if transcript.malformed:
        shown = ", ".join(str(n) for n in transcript.malformed[:10])
        more = f" and {len(transcript.malformed) - 10} more" if len(transcript.malformed) > 10 else ""
        word = "line" if len(transcript.malformed) == 1 else "lines"
        skipped[f"malformed lines, not JSON ({source}: {word} {shown}{more})"] += len(transcript.malformed)
    return transcript.records


def _lines(raw: str, first_line: int, out: Transcript) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(raw.removeprefix("\ufeff").splitlines(), start=first_line):
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except json.JSONDecodeError:
            out.malformed.append(lineno)
            continue
        if not isinstance(entry, dict):
            out.malformed.append(lineno)
            continue
        yield lineno, entry


def _timestamp(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _metadata(client: str, project: str, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"source": client}
    if project:
        meta["project"] = project
    meta.update({k: v for k, v in extra.items() if v})
    return meta


def parse_claude_code(raw: str, *, source: str = "<data>", first_line: int = 1) -> Transcript:
    """Records of a Claude Code session transcript (see the module docstring)."""
    out = Transcript()
    skipped = out.skipped
    for lineno, entry in _lines(raw, first_line, out):
        kind = entry.get("type")
        if kind not in ("user", "assistant"):
            skipped["bookkeeping entries (summaries, snapshots, progress)"] += 1
            continue
        if entry.get("isSidechain") is True:
            skipped["sidechain (sub-agent) entries"] += 1
            continue
        if entry.get("isMeta") is True or entry.get("isCompactSummary") is True:
            skipped["entries Claude Code wrote itself (meta, compaction summaries)"] += 1
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            skipped["entries without a message"] += 1
            continue
        text = _claude_text(message.get("content"), skipped)
        if text is None:
            continue
        if kind == "user" and text.lstrip().startswith(_CLAUDE_COMMAND):
            skipped["slash-command and shell-escape entries"] += 1
            continue
        role = message.get("role") if message.get("role") in ("user", "assistant") else kind
        session = str(entry.get("sessionId") or "")
        uuid = entry.get("uuid")
        out.records.append(RecallRecord(
            text=text, kind="turn", session_id=session, speaker=str(role),
            timestamp=_timestamp(entry.get("timestamp")),
            external_id=str(uuid) if uuid else f"L{lineno}",
            metadata=_metadata(CLAUDE_CODE, str(entry.get("cwd") or ""), git_branch=entry.get("gitBranch")),
        ))
    return out


def _claude_text(content: Any, skipped: Counter[str]) -> str | None:
    """The text of a message's content; None (counted) when it holds none."""
    if isinstance(content, str):
        if content.strip():
            return content
        skipped["entries without text"] += 1
        return None
    if not isinstance(content, list):
        skipped["entries without text"] += 1
        return None
    texts: list[str] = []
    for block in content:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text" and isinstance(block.get("text"), str):
            if block["text"].strip():
                texts.append(block["text"])
        elif kind == "tool_use":
            skipped["tool calls"] += 1
        elif kind == "tool_result":
            skipped["tool results"] += 1
        elif kind in ("thinking", "redacted_thinking"):
            skipped["thinking blocks"] += 1
        elif kind is not None:
            skipped[f"{kind} blocks"] += 1
    if texts:
        return "\n".join(texts)
    if not content:
        skipped["entries without text"] += 1
    elif all(isinstance(b, dict) and b.get("type") == "text" for b in content):
        skipped["entries without text"] += 1  # blank text blocks ("\n\n" before a tool call)
    return None


def parse_codex(raw: str, *, source: str = "<data>", first_line: int = 1) -> Transcript:
    """Records of a Codex CLI rollout (see the module docstring)."""
    out = Transcript()
    skipped = out.skipped
    session, project = "", ""
    for lineno, entry in _lines(raw, first_line, out):
        kind, payload = entry.get("type"), entry.get("payload")
        if not isinstance(payload, dict):
            skipped["entries without a payload"] += 1
            continue
        if kind == "session_meta":
            session = str(payload.get("id") or payload.get("session_id") or session)
            project = str(payload.get("cwd") or project)
            continue
        if kind == "turn_context":
            project = str(payload.get("cwd") or project)  # the working directory can change mid-session
            continue
        if kind != "response_item":
            skipped["client events (event_msg: message copies, token counts)"] += 1
            continue
        item = payload.get("type")
        if item in ("function_call", "custom_tool_call", "local_shell_call", "web_search_call",
                    "tool_search_call"):
            skipped["tool calls"] += 1
            continue
        if item in ("function_call_output", "custom_tool_call_output", "tool_search_output"):
            skipped["tool results"] += 1
            continue
        if item == "reasoning":
            skipped["thinking blocks"] += 1
            continue
        if item != "message":
            skipped[f"{item} items"] += 1
            continue
        role = payload.get("role")
        if role not in ("user", "assistant"):
            skipped[f"{role} messages (instructions)"] += 1
            continue
        text = _codex_text(payload.get("content"))
        if not text.strip():
            skipped["entries without text"] += 1
            continue
        if role == "user" and text.lstrip().startswith(_CODEX_INJECTED):
            skipped["context Codex injected (environment, instruction files)"] += 1
            continue
        ident = payload.get("id")
        out.records.append(RecallRecord(
            text=text, kind="turn", session_id=session, speaker=str(role),
            timestamp=_timestamp(entry.get("timestamp")),
            external_id=str(ident) if ident else f"L{lineno}",
            metadata=_metadata(CODEX, project),
        ))
    return out


def _codex_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
             and p.get("type") in ("input_text", "output_text", "text")]
    return "\n".join(t for t in texts if t.strip())


def load_transcripts(
    paths: Iterable[Path], *, client: str | None, skipped: Counter[str],
    progress: Callable[[int], None] | None = None,
) -> list[RecallRecord]:
    """Records of every transcript in ``paths`` (``client`` None: each file's format is detected).

    A file that cannot be read, or that is not a transcript of a known client, is counted in
    ``skipped`` and the others are read: one bad file in months of sessions must not stop the
    import. ``progress`` gets the number of files read so far.
    """
    records: list[RecallRecord] = []
    for done, path in enumerate(paths, start=1):
        try:
            raw = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            skipped[f"unreadable files ({path.name}: {exc.__class__.__name__})"] += 1
        else:
            kind = client or detect(raw)
            if kind is None:
                skipped["files that are not Claude Code or Codex transcripts"] += 1
            elif raw.strip():
                records.extend(merge_into(read_transcript(raw, source=str(path), client=kind),
                                          str(path), skipped))
        if progress is not None:
            progress(done)
    return records
