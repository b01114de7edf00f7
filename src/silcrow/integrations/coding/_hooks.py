"""What silcrow's Claude Code hooks do (``silcrow hook EVENT``, installed by ``silcrow connect``).

Claude Code runs a hook command with the event's JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, and ``prompt`` for UserPromptSubmit) and, for SessionStart and
UserPromptSubmit, adds ``hookSpecificOutput.additionalContext`` from the JSON on stdout to the
model's context.

- ``session-start``: the curated notes' prompt section, the frozen snapshot the agent's system
  prompt gets: with the ``PROJECT.md`` block of the project (git work tree) holding the event's
  ``cwd``, and nothing of any other project. It is taken once per session and kept in
  ``<home>/hooks/claude-code/``, so a resumed or compacted session sees the same text (a write
  made during the session shows up in the next one, as everywhere in silcrow).
- ``user-prompt-submit``: what recall finds for the prompt, through the same
  :meth:`MemoryManager.prefetch` as the agent loop: trivial prompts skipped, a long prompt
  searched by its last 4,000 characters, threats filtered, fence tags stripped, the block
  fenced in ``<memory-context>``. In a project (the git work tree holding ``cwd``), memories
  recall knows to be of another project (turns of coding sessions imported from another work
  tree) are left out; memories that name no project are everyone's.
- ``pre-compact`` and ``session-end``: the part of the transcript written since the last time
  is read (from the byte offset kept per transcript) in batches of whole lines of about 1 MiB
  (:mod:`._unread`), each ingested into recall and its offset kept before the next is read.

The hook input is read up to :data:`MAX_INPUT_BYTES`; a larger one (a pasted file of many
megabytes as the prompt) is read to its end, none of it kept, and the hook does nothing.

A hook never stops the user: any failure, and running past its deadline, ends it with exit 0,
nothing on stdout and the reason on stderr (Claude Code shows it in its debug output).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from silcrow._atomic import replace_file
from silcrow._json import loads
from silcrow._private import private_dir, write_private
from silcrow.integrations.coding._unread import MAX_LINE_BYTES, batches

__all__ = ["HookResult", "run_hook"]

log = logging.getLogger(__name__)

#: Seconds each hook may take before it gives up (below the timeout connect writes for it).
DEADLINES = {"session-start": 20.0, "user-prompt-submit": 20.0, "pre-compact": 100.0, "session-end": 100.0}
_KEEP_SNAPSHOTS_DAYS = 30
#: The largest hook input parsed. Claude Code sends the whole prompt; a prompt larger than this
#: gets no recalled context (recall searches with the prompt's end anyway).
MAX_INPUT_BYTES = 8 * 1024 * 1024


@dataclass
class HookResult:
    """What the hook prints: ``stdout`` for Claude Code, ``message`` on stderr (why nothing was done)."""

    stdout: str = ""
    message: str = ""


def run_hook(event: str, payload: str | bytes | BinaryIO, home: Path) -> HookResult:
    """Run hook ``event`` for ``home`` on the hook JSON ``payload`` (its text, or a stream such as
    stdin, read up to :data:`MAX_INPUT_BYTES`); never raises, and returns within the event's
    deadline."""
    deadline = DEADLINES.get(event)
    if deadline is None:
        return HookResult(message=f"silcrow: unknown hook event {event!r}; use one of {', '.join(DEADLINES)}")
    if not isinstance(payload, (str, bytes)):
        read = _bounded(payload)
        if isinstance(read, int):
            return HookResult(message=f"silcrow: the hook input is {read:,} bytes, over the "
                              f"{MAX_INPUT_BYTES:,} silcrow reads; nothing done")
        payload = read
    try:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        del payload  # a large prompt is not held three times over while the hook runs
        parsed = loads(text) if text.strip() else {}
    except UnicodeDecodeError as exc:
        return HookResult(message=f"silcrow: the hook input is not UTF-8 ({exc}); nothing done")
    except json.JSONDecodeError as exc:
        return HookResult(message=f"silcrow: the hook input is not JSON ({exc}); nothing done")
    del text
    if not isinstance(parsed, dict):
        return HookResult(message="silcrow: the hook input is not a JSON object; nothing done")
    return _within(event, parsed, home, deadline)


def _bounded(stream: BinaryIO) -> bytes | int:
    """The stream's bytes, or (when over :data:`MAX_INPUT_BYTES`) how many there were: the rest
    is read and dropped in small pieces, so the writer is never left blocked on a full pipe."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) <= MAX_INPUT_BYTES:
        return data
    total = len(data)
    del data
    while piece := stream.read(1024 * 1024):
        total += len(piece)
    return total


def _within(event: str, payload: dict[str, Any], home: Path, deadline: float) -> HookResult:
    handler: Callable[[dict[str, Any], Path], HookResult] = _HANDLERS[event]
    box: list[HookResult] = []

    def work() -> None:
        try:
            box.append(handler(payload, home))
        except Exception as exc:  # a hook must never fail the user's prompt
            log.debug("hook %s failed", event, exc_info=True)
            box.append(HookResult(message=f"silcrow: {event} hook failed: {type(exc).__name__}: {exc}"))

    thread = threading.Thread(target=work, name=f"silcrow-hook-{event}", daemon=True)
    thread.start()
    thread.join(deadline)
    if not box:
        return HookResult(message=f"silcrow: {event} hook gave up after {deadline:.0f}s; nothing added")
    return box[0]


def _context(event_name: str, text: str) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}},
                      ensure_ascii=False)


def _state_dir(home: Path) -> Path:
    return private_dir(home / "hooks" / "claude-code", home=home)


def _session_key(payload: dict[str, Any]) -> str:
    session = str(payload.get("session_id") or "")
    # a file name: Claude Code's ids are UUIDs, anything else is reduced to safe characters
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in session)[:128]


def session_start(payload: dict[str, Any], home: Path) -> HookResult:
    from silcrow.home import open_profile

    key = _session_key(payload)
    folder = _state_dir(home) / "sessions"
    snapshot = folder / f"{key}.txt" if key else None
    if snapshot is not None and snapshot.is_file():
        section = snapshot.read_text(encoding="utf-8")
    else:
        notes = open_profile(home).notes(project=_project(payload))
        notes.load()
        section = notes.prompt_section()
        notes.note_prompt_use(f"claude-code:{key}" if key else None)  # entry metadata: in a prompt
        if snapshot is not None:
            private_dir(folder, home=home)
            write_private(snapshot, section.encode("utf-8"))
            _forget_old(folder)
    if not section.strip():
        return HookResult()
    return HookResult(stdout=_context("SessionStart", section))


def _project(payload: dict[str, Any]) -> Path | None:
    """The project the session runs in: the git work tree holding the event's ``cwd`` (None
    without one, or outside any work tree)."""
    from silcrow._projects import find_project

    cwd = payload.get("cwd")
    return find_project(cwd) if isinstance(cwd, str) and os.path.isabs(cwd) else None


def _forget_old(folder: Path) -> None:
    """Snapshots of sessions not seen for a month are dropped."""
    cutoff = time.time() - _KEEP_SNAPSHOTS_DAYS * 86400
    for path in folder.glob("*.txt"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
        except OSError:
            continue


def user_prompt_submit(payload: dict[str, Any], home: Path) -> HookResult:
    from silcrow.home import open_profile

    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return HookResult()
    profile = open_profile(home)
    provider = profile.provider()
    if provider is None:
        return HookResult()
    if not provider.is_available():
        why = provider.unavailable_reason() or "no reason given"
        return HookResult(message=f"silcrow: recall provider {provider.name!r} is not available ({why}); "
                          "no recalled context added")
    session = str(payload.get("session_id") or "")
    # The session's project: recall leaves out what it knows to be another project's (the
    # imported sessions of other work trees), so a prompt here gets no snippet of theirs.
    root = _project(payload)
    manager = profile.recall(session, provider=provider, prefetch_timeout=DEADLINES["user-prompt-submit"] - 5,
                             context={"project": str(root)} if root is not None else None)
    try:
        block = manager.prefetch(prompt, session_id=session)  # screened and fenced, as for the agent
    finally:
        manager.shutdown()
    if not block:
        return HookResult()
    return HookResult(stdout=_context("UserPromptSubmit", block))


def ingest_transcript(payload: dict[str, Any], home: Path) -> HookResult:
    """Ingest what the transcript gained since the last time (PreCompact, SessionEnd), a
    bounded batch of whole lines at a time, keeping the offset after each."""
    from silcrow.home import open_profile
    from silcrow.recall import MAX_RECORD_CHARS, parse_claude_code
    from silcrow.recall.local import LocalProvider
    from silcrow.recall.policy import stored

    path_text = payload.get("transcript_path")
    if not isinstance(path_text, str) or not path_text:
        return HookResult(message="silcrow: the hook input has no transcript_path; nothing ingested")
    path = Path(path_text).expanduser()
    provider = open_profile(home).provider()
    if provider is None:
        return HookResult(message="silcrow: recall is off (provider 'none'); transcript not ingested")
    if not provider.is_available():
        return HookResult(message=f"silcrow: recall provider {provider.name!r} is not available "
                          f"({provider.unavailable_reason() or 'no reason given'}); transcript not ingested")
    offsets_file = _state_dir(home) / "offsets.json"
    offsets = _load(offsets_file)
    mark = offsets.get(str(path), {})
    offset, line = int(mark.get("offset", 0)), int(mark.get("line", 1))
    turns, malformed, too_long = 0, 0, []
    waiting = ""  # a user turn whose reply is in the next batch
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < offset:  # replaced or cut: read it again from the start
            offset, line = 0, 1
        if size == offset:
            return HookResult()
        provider.initialize(str(payload.get("session_id") or ""), home=str(home))
        try:
            for batch in batches(handle, offset, line):
                transcript = parse_claude_code(batch.data.decode("utf-8", "replace"), source=str(path),
                                               first_line=batch.first_line)
                for record in transcript.records:
                    # Stored text, as the agent's turns: a reply that echoed its recalled
                    # <memory-context> is not stored again with the fence.
                    record.text = stored(record.text)[:MAX_RECORD_CHARS]
                if isinstance(provider, LocalProvider):
                    provider.ingest(transcript.records)
                else:  # another provider learns the conversation as the agent hands it over
                    waiting = _sync_pairs(provider, transcript.records, waiting)
                turns += len(transcript.records)
                malformed += len(transcript.malformed)
                too_long += batch.too_long
                offsets = _load(offsets_file)  # another hook of another transcript may have written
                offsets[str(path)] = {"offset": batch.end, "line": batch.end_line}
                replace_file(offsets_file, json.dumps(offsets, indent=2, sort_keys=True) + "\n")
        finally:
            provider.shutdown()
    notes = [f"{malformed} malformed line(s) skipped"] if malformed else []
    if too_long:
        shown = ", ".join(map(str, too_long[:5])) + (" ..." if len(too_long) > 5 else "")
        notes.append(f"{len(too_long)} line(s) over {MAX_LINE_BYTES // (1024 * 1024)} MiB skipped "
                     f"(line {shown})")
    if not notes:
        return HookResult()
    return HookResult(message=f"silcrow: ingested {turns} turns from {path.name}; {'; '.join(notes)}")


def _sync_pairs(provider: Any, records: list[Any], user: str = "") -> str:
    """Sync each user turn with the assistant's reply to it as one turn; returns the user turn
    still waiting for its reply (``user``: the one left from the batch before)."""
    from silcrow.recall.policy import outgoing

    for record in records:
        if record.speaker == "user":
            user = record.text
        elif user:
            # Secrets redacted for a provider outside silcrow, as the manager does for the agent.
            turn = outgoing(provider, (user, record.text))
            provider.sync_turn(*turn, session_id=record.session_id)
            user = ""
    return user


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


_HANDLERS: dict[str, Callable[[dict[str, Any], Path], HookResult]] = {
    "session-start": session_start,
    "user-prompt-submit": user_prompt_submit,
    "pre-compact": ingest_transcript,
    "session-end": ingest_transcript,
}
