"""What silcrow's Claude Code hooks do (``silcrow hook EVENT``, installed by ``silcrow connect``).

Claude Code runs a hook command with the event's JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, and ``prompt`` for UserPromptSubmit) and, for SessionStart and
UserPromptSubmit, adds ``hookSpecificOutput.additionalContext`` from the JSON on stdout to the
model's context.

- ``session-start``: the curated notes' prompt section, the frozen snapshot the agent's system
  prompt gets. It is taken once per session and kept in ``<home>/hooks/claude-code/``, so a
  resumed or compacted session sees the same text (a write made during the session shows up in
  the next one, as everywhere in silcrow).
- ``user-prompt-submit``: what recall finds for the prompt, through the same
  :meth:`MemoryManager.prefetch` as the agent loop: trivial prompts skipped, threats filtered,
  fence tags stripped, the block fenced in ``<memory-context>``.
- ``pre-compact`` and ``session-end``: the part of the transcript written since the last time
  is read (from the byte offset kept per transcript) and ingested into recall.

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
from typing import Any

from silcrow._atomic import replace_file
from silcrow._json import loads
from silcrow._private import private_dir, write_private

__all__ = ["HookResult", "run_hook"]

log = logging.getLogger(__name__)

#: Seconds each hook may take before it gives up (below the timeout connect writes for it).
DEADLINES = {"session-start": 20.0, "user-prompt-submit": 20.0, "pre-compact": 100.0, "session-end": 100.0}
_KEEP_SNAPSHOTS_DAYS = 30


@dataclass
class HookResult:
    """What the hook prints: ``stdout`` for Claude Code, ``message`` on stderr (why nothing was done)."""

    stdout: str = ""
    message: str = ""


def run_hook(event: str, payload_text: str, home: Path) -> HookResult:
    """Run hook ``event`` for ``home`` on the hook JSON ``payload_text``; never raises, and returns
    within the event's deadline."""
    deadline = DEADLINES.get(event)
    if deadline is None:
        return HookResult(message=f"silcrow: unknown hook event {event!r}; use one of {', '.join(DEADLINES)}")
    try:
        payload = loads(payload_text) if payload_text.strip() else {}
    except json.JSONDecodeError as exc:
        return HookResult(message=f"silcrow: the hook input is not JSON ({exc}); nothing done")
    if not isinstance(payload, dict):
        return HookResult(message="silcrow: the hook input is not a JSON object; nothing done")
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
        store = open_profile(home).store()
        store.load()
        section = store.system_prompt_section()
        store.note_prompt_use(f"claude-code:{key}" if key else None)  # entry metadata: in a prompt
        if snapshot is not None:
            private_dir(folder, home=home)
            write_private(snapshot, section.encode("utf-8"))
            _forget_old(folder)
    if not section.strip():
        return HookResult()
    return HookResult(stdout=_context("SessionStart", section))


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
    manager = profile.recall(session, provider=provider, prefetch_timeout=DEADLINES["user-prompt-submit"] - 5)
    try:
        block = manager.prefetch(prompt, session_id=session)  # screened and fenced, as for the agent
    finally:
        manager.shutdown()
    if not block:
        return HookResult()
    return HookResult(stdout=_context("UserPromptSubmit", block))


def ingest_transcript(payload: dict[str, Any], home: Path) -> HookResult:
    """Ingest what the transcript gained since the last time (PreCompact, SessionEnd)."""
    from silcrow.home import open_profile
    from silcrow.recall import MAX_RECORD_CHARS
    from silcrow.recall.coding import parse_claude_code
    from silcrow.recall.local import LocalProvider
    from silcrow.recall.policy import stored

    path_text = payload.get("transcript_path")
    if not isinstance(path_text, str) or not path_text:
        return HookResult(message="silcrow: the hook input has no transcript_path; nothing ingested")
    path = Path(path_text).expanduser()
    offsets_file = _state_dir(home) / "offsets.json"
    offsets = _load(offsets_file)
    mark = offsets.get(str(path), {})
    offset, line = int(mark.get("offset", 0)), int(mark.get("line", 1))
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < offset:  # the file was replaced or cut: read it again from the start
            offset, line = 0, 1
        handle.seek(offset)
        data = handle.read(size - offset)
    complete = data[: data.rfind(b"\n") + 1]  # a line being written is read next time
    if not complete:
        return HookResult()
    transcript = parse_claude_code(complete.decode("utf-8", "replace"), source=str(path), first_line=line)
    for record in transcript.records:
        # Stored text, as the agent's turns: a reply that echoed its recalled <memory-context>
        # is not stored again with the fence.
        record.text = stored(record.text)[:MAX_RECORD_CHARS]
    provider = open_profile(home).provider()
    if provider is None:
        return HookResult(message="silcrow: recall is off (provider 'none'); transcript not ingested")
    if not provider.is_available():
        return HookResult(message=f"silcrow: recall provider {provider.name!r} is not available "
                          f"({provider.unavailable_reason() or 'no reason given'}); transcript not ingested")
    provider.initialize(str(payload.get("session_id") or ""), home=str(home))
    try:
        if isinstance(provider, LocalProvider):
            provider.ingest(transcript.records)
        else:  # another provider learns the conversation as the agent hands it over, turn by turn
            _sync_pairs(provider, transcript.records)
    finally:
        provider.shutdown()
    offsets[str(path)] = {"offset": offset + len(complete), "line": line + complete.count(b"\n")}
    replace_file(offsets_file, json.dumps(offsets, indent=2, sort_keys=True) + "\n")
    bad = f"; {len(transcript.malformed)} malformed line(s) skipped" if transcript.malformed else ""
    return HookResult(message=f"silcrow: ingested {len(transcript.records)} turns from {path.name}{bad}"
                      if bad else "")


def _sync_pairs(provider: Any, records: list[Any]) -> None:
    from silcrow.recall.policy import outgoing

    user = ""
    for record in records:
        if record.speaker == "user":
            user = record.text
        elif user:
            # Secrets redacted for a provider outside silcrow, as the manager does for the agent.
            turn = outgoing(provider, (user, record.text))
            provider.sync_turn(*turn, session_id=record.session_id)
            user = ""


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
