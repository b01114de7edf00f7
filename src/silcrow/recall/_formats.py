"""Reading conversation files into :class:`RecallRecord` lists.

Four formats, told apart by content (not by file name); the ChatGPT and
Claude.ai exports are read by :mod:`silcrow.recall._exports`, Claude Code transcripts and Codex
rollouts by ``_coding.py``:

- **LoCoMo JSON**: one conversation object or a list of them. A conversation
  has ``speaker_a``/``speaker_b`` and ``session_N`` lists of
  ``{speaker, dia_id, text, ...}`` dialog turns, each session dated by
  ``session_N_date_time`` such as ``"1:56 pm on 8 May, 2023"``. The turns may
  sit at the top level or under a ``"conversation"`` key (both layouts are
  published). A turn's ``blip_caption`` (the caption of a shared photo) is
  kept in its text, since it is part of what was said.
- **JSONL messages**: one ``{"role", "content", "timestamp", "session_id"}``
  object per line (``timestamp`` ISO 8601 or unix seconds, optional; ``id``
  optional). A message without an ``id`` or a time gets ``"L<line number>"``
  as its external id, so ingesting the same file again stores nothing twice;
  a dated one is known by its time, session, speaker and text, wherever its
  line is in a newer export. A JSON array of such messages is read the same
  way, its position (from 1) standing in for the line number. ``tool`` and
  ``function`` messages and tool calls without text are skipped; content
  given as a list of parts has its ``{"type": "text"}`` parts read.

One message or turn that cannot be read (a broken line, a missing field, a
timestamp that is no date) is left out and counted under "unreadable messages",
naming the first; the rest is read. A file that is none of these formats, is
not UTF-8, nests deeper than any export or holds a lone UTF-16 surrogate
raises :class:`RecallError` naming the file, the line and what to do.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from silcrow._json import TooDeep, loads, position
from silcrow.errors import RecallError
from silcrow.recall import _coding as coding
from silcrow.recall._exports import is_chatgpt, is_claude, parse_chatgpt, parse_claude
from silcrow.recall._records import RecallRecord

__all__ = ["load_records", "parse_locomo", "parse_jsonl", "parse_locomo_datetime", "read_records"]

#: The path that means standard input.
STDIN = "-"
_AS_UTF8 = ("pass a chat export or conversation file saved as UTF-8 "
            "(convert other text with e.g. `iconv -f latin1 -t utf-8`)")

_SESSION_KEY = re.compile(r"^session_([0-9]{1,9})$")  # no int() of a 5,000-digit key
_LOCOMO_DT = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.IGNORECASE
)
_MONTHS = {
    name: n
    for n, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
         ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
         ("oct", "october"), ("nov", "november"), ("dec", "december")],
        start=1,
    )
    for name in names
}


def load_records(path: str | Path, skipped: Counter[str] | None = None) -> list[RecallRecord]:
    """Read a conversation file (``-``: standard input): LoCoMo JSON, JSONL messages, or a
    ChatGPT or Claude.ai ``conversations.json``. What is left out is counted in ``skipped``."""
    if str(path) == STDIN:
        # The bytes, decoded strictly: in a C or POSIX locale sys.stdin lets bad bytes through
        # as surrogates, which fail much later (storing them) instead of here.
        buffer = getattr(sys.stdin, "buffer", None)
        try:
            raw = buffer.read().decode("utf-8") if buffer is not None else sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise RecallError(f"standard input is not UTF-8 text ({exc}); {_AS_UTF8}") from exc
        return read_records(raw, source="<stdin>", skipped=skipped)
    file = Path(path)
    try:
        raw = file.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise RecallError(f"{file}: no such file; pass the path of a LoCoMo .json or a .jsonl file") from exc
    except UnicodeDecodeError as exc:
        raise RecallError(f"{file}: cannot read it as UTF-8 text ({exc}); {_AS_UTF8}") from exc
    except OSError as exc:
        raise RecallError(f"{file}: cannot read it ({exc})") from exc
    return read_records(raw, source=str(file), skipped=skipped)


def read_records(raw: str, *, source: str, skipped: Counter[str] | None = None) -> list[RecallRecord]:
    """Records of the text of a conversation file, whichever of the four formats it is."""
    raw = raw.removeprefix("\ufeff")  # the byte order mark Windows editors put before UTF-8
    if not raw.strip():
        what = "standard input" if source == "<stdin>" else "the file"
        raise RecallError(
            f"{source}: {what} is empty; expected LoCoMo JSON, JSONL messages or a ChatGPT/Claude export"
        )
    _refuse_lone_surrogates(raw, source)
    if (client := coding.detect(raw)) is not None:  # a Claude Code transcript or a Codex rollout
        transcript = coding.read_transcript(raw, source=source, client=client)
        return coding.merge_into(transcript, source, Counter() if skipped is None else skipped)
    try:
        data = loads(raw)
    except TooDeep as exc:
        raise RecallError(
            f"{source}: JSON {exc.msg} (line {exc.lineno} column {exc.colno}); "
            "no conversation export nests that deep: check that this is the right file"
        ) from None
    except json.JSONDecodeError as exc:
        if raw.lstrip().startswith(("{", "[")) and not _first_line_is_json(raw):
            # A (pretty-printed) JSON document that is broken: say where, not "line 1 of JSONL".
            raise RecallError(
                f"{source}: not valid JSON ({_json_problem(exc)}, line {exc.lineno} column {exc.colno})"
            ) from exc
        return parse_jsonl(raw, source=source, skipped=skipped)  # not one JSON document: one per line
    if isinstance(data, dict) and "role" in data and "content" in data:
        return parse_jsonl(raw, source=source, skipped=skipped)  # a one-line JSONL file
    if _is_message_list(data):  # a JSON array of messages: one conversation, read as JSONL is
        messages = [(n, f"{source}: message {n}", msg) for n, msg in enumerate(data, start=1)]
        return _messages(messages, source=source, skipped=skipped)
    if is_chatgpt(data):
        return parse_chatgpt(data, source=source, skipped=skipped)
    if is_claude(data):
        return parse_claude(data, source=source, skipped=skipped)
    return parse_locomo(data, source=source, skipped=skipped)


def _first_line_is_json(raw: str) -> bool:
    """Whether the first non-blank line is a JSON value by itself (as in JSONL)."""
    first = next((line for line in raw.splitlines() if line.strip()), "")
    try:
        loads(first)
    except json.JSONDecodeError:
        return False
    return True


# A \uD800-\uDFFF escape not itself escaped (an even run of backslashes before it).
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u([dD][89a-fA-F][0-9a-fA-F]{2})")
_SURROGATE_CHAR = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogates(raw: str, source: str) -> None:
    """Refuse text holding half of a UTF-16 surrogate pair (``"\\ud800"`` alone): no UTF-8 text
    can hold it, so it could never be stored, and a file holding one was damaged on its way."""
    found = _SURROGATE_CHAR.search(raw)
    offset = found.start() if found else None
    if offset is None and "\\u" in raw:
        matches = list(_SURROGATE_ESCAPE.finditer(raw))
        for n, m in enumerate(matches):
            high = m.group(2)[1].lower() in "89ab"
            start = m.start(2) - 2  # the backslash of this escape
            if high:
                after = matches[n + 1] if n + 1 < len(matches) else None
                if after is not None and after.start() == m.end() and not after.group(1) \
                        and after.group(2)[1].lower() in "cdef":
                    continue  # a pair: one character outside the BMP
            elif n > 0 and matches[n - 1].end() == m.start() and not m.group(1) \
                    and matches[n - 1].group(2)[1].lower() in "89ab":
                continue  # the second half of a pair
            offset = start
            break
    if offset is None:
        return
    line, column = position(raw, offset)
    raise RecallError(
        f"{source}: line {line} column {column} holds a lone UTF-16 surrogate (half of an emoji or "
        "other character, e.g. \\ud800 with no partner); no text can store it. Export the "
        "conversations again, or replace that escape with the character meant (or \\ufffd)"
    )


def _json_problem(exc: json.JSONDecodeError) -> str:
    """The decoder's message without a dangling "at" (``"Unterminated string starting at"``)."""
    return exc.msg.removesuffix(" at")


def parse_locomo_datetime(value: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> an aware UTC datetime."""
    m = _LOCOMO_DT.match(value)
    if m is None:
        raise ValueError(f"expected a date like '1:56 pm on 8 May, 2023', got {value!r}")
    hour, minute, ampm, day, month_name, year = m.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        raise ValueError(f"unknown month {month_name!r} in {value!r}")
    h = int(hour) % 12 + (12 if ampm.lower().startswith("p") else 0)
    return datetime(int(year), month, int(day), h, int(minute), tzinfo=UTC)


def parse_locomo(
    data: Any, *, source: str = "<data>", skipped: Counter[str] | None = None
) -> list[RecallRecord]:
    """Records of one LoCoMo conversation or a list of them, in dialog order; a turn that
    cannot be read is left out and counted in ``skipped``."""
    skipped = Counter() if skipped is None else skipped
    convs = data if isinstance(data, list) else [data]
    records: list[RecallRecord] = []
    for n, conv in enumerate(convs):
        where = f"{source}: conversation {n}" if isinstance(data, list) else source
        if not isinstance(conv, dict):
            raise RecallError(f"{where}: expected a JSON object, got {type(conv).__name__}")
        records.extend(_locomo_conversation(conv, where, n if isinstance(data, list) else None, skipped))
    if not records and any(k.startswith(UNREADABLE) for k in skipped):
        raise RecallError(f"{source}: no turn could be read ({', '.join(k for k in skipped)})")
    return records


def _locomo_conversation(
    conv: dict[str, Any], where: str, number: int | None, skipped: Counter[str]
) -> list[RecallRecord]:
    body = conv.get("conversation", conv)
    if not isinstance(body, dict) or "speaker_a" not in body:
        raise RecallError(
            f"{where}: not a LoCoMo conversation (no 'speaker_a' field); "
            "expected speaker_a, speaker_b, session_N and session_N_date_time"
        )
    conv_id = str(conv.get("sample_id") or (f"conv{number}" if number is not None else "conv"))
    sessions = sorted(
        (int(m.group(1)), key)
        for key in body
        if (m := _SESSION_KEY.match(key)) and isinstance(body[key], list)
    )
    if not sessions:
        raise RecallError(f"{where}: no session_N lists of dialog turns found")
    records: list[RecallRecord] = []
    for num, key in sessions:
        stamp_text = body.get(f"{key}_date_time")
        if not isinstance(stamp_text, str):
            raise RecallError(f"{where}: field '{key}_date_time' is missing or not a string")
        try:
            start = parse_locomo_datetime(stamp_text)
        except ValueError as exc:
            raise RecallError(f"{where}: field '{key}_date_time': {exc}") from exc
        for i, turn in enumerate(body[key]):
            field_name = f"{key}[{i}]"
            if not isinstance(turn, dict):
                skip(skipped, f"{where}: {field_name} is not an object")
                continue
            text, speaker = turn.get("text"), turn.get("speaker")
            if not isinstance(text, str) or not isinstance(speaker, str):
                skip(skipped, f"{where}: {field_name} needs string 'speaker' and 'text' fields")
                continue
            caption = turn.get("blip_caption")
            if isinstance(caption, str) and caption.strip():
                text = f"{text} [shared a photo: {caption.strip()}]"
            if not text.strip():
                continue
            dia_id = turn.get("dia_id")
            try:
                # One timestamp per session is all LoCoMo gives; a second per turn keeps order.
                stamp = start + timedelta(seconds=i)
            except OverflowError:  # a session in the last minute of the year 9999
                stamp = start
            records.append(
                RecallRecord(
                    text=text,
                    kind="turn",
                    session_id=f"{conv_id}/session_{num}",
                    speaker=speaker,
                    timestamp=stamp,
                    external_id=str(dia_id) if dia_id is not None else None,
                    metadata={"source": "locomo", "conversation": conv_id},
                )
            )
    return records


def _parse_timestamp(value: Any, where: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RecallError(f"{where}: 'timestamp' must be ISO 8601 text or unix seconds, got {value!r}")
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(float(value), tz=UTC).astimezone(UTC)
        except (ValueError, OverflowError, OSError) as exc:
            raise RecallError(
                f"{where}: 'timestamp' {value!r} is not a date (unix seconds expected; "
                "divide milliseconds by 1000)"
            ) from exc
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError as exc:
            raise RecallError(
                f"{where}: 'timestamp' {value!r} is not ISO 8601 (e.g. 2024-05-08T13:56:00Z)"
            ) from exc
        when = when if when.tzinfo else when.replace(tzinfo=UTC)
        try:
            when.astimezone(UTC)  # stored as UTC: it must have a UTC date (not year 0 or 10000)
        except (ValueError, OverflowError) as exc:
            raise RecallError(f"{where}: 'timestamp' {value!r} is out of range for a date") from exc
        return when
    raise RecallError(
        f"{where}: 'timestamp' must be ISO 8601 text or unix seconds, got {type(value).__name__}"
    )


def parse_jsonl(
    raw: str, *, source: str = "<data>", skipped: Counter[str] | None = None
) -> list[RecallRecord]:
    """Records of a JSONL file of ``{role, content, timestamp, session_id}`` messages."""
    skipped = Counter() if skipped is None else skipped
    messages: list[tuple[int, str, Any]] = []
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}: line {lineno}"
        try:
            messages.append((lineno, where, loads(line)))
        except json.JSONDecodeError as exc:
            # One broken line (an export cut short, a stray edit) costs that line, not the file.
            skip(skipped, f"{where}: not valid JSON ({_json_problem(exc)} at column {exc.colno})")
    return _messages(messages, source=source, skipped=skipped)


#: The reason under which messages that cannot be read are counted (one per file, with the first).
UNREADABLE = "unreadable messages"


def skip(skipped: Counter[str], problem: str) -> None:
    """Count one message that cannot be read, naming the first such problem in the reason."""
    key = next((k for k in skipped if k.startswith(UNREADABLE)), None)
    skipped[key or f"{UNREADABLE} (the first: {problem})"] += 1


def _is_message_list(data: Any) -> bool:
    """Whether ``data`` is a JSON array of chat messages (``[{"role", "content"}, ...]``)."""
    return (isinstance(data, list) and bool(data) and isinstance(data[0], dict)
            and "role" in data[0])


def _part_texts(content: list[Any]) -> str:
    """The text parts of content given as a list (``[{"type": "text", "text": ...}]``)."""
    texts = [p["text"] for p in content
             if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)]
    return "\n".join(t for t in texts if t.strip())


def _messages(
    messages: list[tuple[int, str, Any]], *, source: str, skipped: Counter[str] | None = None
) -> list[RecallRecord]:
    """Records of ``(number, where, message)`` triples; ``number`` (a line number, or the
    position in a JSON array) stands in for a missing id and time."""
    skipped = Counter() if skipped is None else skipped
    records: list[RecallRecord] = []
    for lineno, where, msg in messages:
        try:
            record = _message(lineno, where, msg, skipped)
        except RecallError as exc:  # one odd message is left out and counted, never the file
            skip(skipped, str(exc))
            continue
        if record is not None:
            records.append(record)
    if not records:
        left = f" ({', '.join(f'{n} {why}' for why, n in skipped.items())})" if skipped else ""
        raise RecallError(
            f"{source}: no messages found{left}; expected one JSON object per line or a JSON array of "
            '{"role": ..., "content": ...} messages'
        )
    return records


def _message(lineno: int, where: str, msg: Any, skipped: Counter[str]) -> RecallRecord | None:
    """The record of one message, None when it is not conversation (counted in ``skipped``);
    a message that cannot be read raises RecallError naming its line."""
    if not isinstance(msg, dict):
        raise RecallError(f"{where}: expected an object with role and content, got {type(msg).__name__}")
    role, content = msg.get("role"), msg.get("content")
    if not isinstance(role, str) or not role.strip():
        raise RecallError(f"{where}: field 'role' is missing or not a string")
    if role in ("tool", "function"):
        skipped[f"{role} messages (not conversation)"] += 1
        return None
    if content is None and (msg.get("tool_calls") or msg.get("function_call")):
        skipped["tool calls (not conversation)"] += 1
        return None
    if isinstance(content, list):
        content = _part_texts(content)
    if not isinstance(content, str):
        raise RecallError(f"{where}: field 'content' is missing or not a string")
    session = msg.get("session_id", "")
    if not isinstance(session, str | int):
        raise RecallError(f"{where}: field 'session_id' must be a string")
    if role == "system":
        skipped["system messages (not conversation)"] += 1
        return None
    if not content.strip():
        skipped["messages without text"] += 1
        return None
    when = _parse_timestamp(msg.get("timestamp"), where)
    if msg.get("id") is not None:
        external_id: str | None = str(msg["id"])
    elif when is None:
        # The line number stands in for a missing id and time: with the session, speaker
        # and text it identifies the message again when the file is read a second time.
        external_id = f"L{lineno}"
    else:
        # Time, session, speaker and text identify a dated message wherever its line is,
        # so a newer export with lines added before it does not store it again.
        external_id = None
    return RecallRecord(text=content, kind="turn", session_id=str(session), speaker=role,
                        timestamp=when, external_id=external_id)
