"""Chat exports of hosted assistants read into :class:`RecallRecord` lists.

- **ChatGPT** (Settings > Data controls > Export): ``conversations.json`` is
  a list of conversations, each a tree of messages under ``mapping`` (node id
  -> ``{message, parent, children}``) with ``current_node`` the leaf of the
  branch the user last saw. Only that branch is read, root first, so edited
  and regenerated messages that were abandoned are not remembered.
  A message has ``author.role``, ``create_time`` (unix seconds),
  ``recipient`` (``"all"``, or the tool the assistant calls) and ``content``
  with ``content_type`` and ``parts`` (text, or objects such as images and
  the transcripts of voice mode's audio).
- **Claude.ai** (Settings > Privacy > Export data): ``conversations.json`` is
  a list of conversations with ``uuid``, ``name`` and ``chat_messages``, each
  message with ``uuid``, ``sender`` (``human``/``assistant``), ``text`` or
  ``content`` blocks, and ``created_at`` (ISO 8601).

A message's id in the export is its external id, so importing the same
export again stores nothing twice. What is left out is counted by reason in
``skipped`` (the CLI prints the summary).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from silcrow.errors import RecallError
from silcrow.recall._records import RecallRecord

__all__ = ["is_chatgpt", "is_claude", "parse_chatgpt", "parse_claude"]

#: Roles whose messages are instructions or machinery, not conversation.
_NOT_SAID = {"system", "tool"}


def _conversations(data: Any) -> list[Any]:
    return data if isinstance(data, list) else [data]


def is_chatgpt(data: Any) -> bool:
    first = next(iter(_conversations(data)), None)
    return isinstance(first, dict) and isinstance(first.get("mapping"), dict)


def is_claude(data: Any) -> bool:
    first = next(iter(_conversations(data)), None)
    return isinstance(first, dict) and isinstance(first.get("chat_messages"), list)


def _epoch(value: Any) -> datetime | None:
    """The time of unix seconds; None for anything that is not a date (missing, NaN, too large)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(float(value), tz=UTC).astimezone(UTC)
        except (ValueError, OverflowError, OSError):
            return None
    return None


def _iso(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        when = when if when.tzinfo else when.replace(tzinfo=UTC)
        when.astimezone(UTC)  # stored as UTC: it must have a UTC date (not year 0 or 10000)
    except (ValueError, OverflowError):
        return None
    return when


def _branch(mapping: dict[str, Any], leaf: Any) -> list[dict[str, Any]]:
    """The nodes from the root to ``leaf`` (or, without one, along the first children)."""
    if isinstance(leaf, str) and leaf in mapping:
        path: list[dict[str, Any]] = []
        seen: set[str] = set()
        node: Any = leaf
        while isinstance(node, str) and isinstance(mapping.get(node), dict) and node not in seen:
            seen.add(node)
            path.append(mapping[node])
            node = mapping[node].get("parent")
        return path[::-1]
    roots = [n for n in mapping.values() if isinstance(n, dict) and not n.get("parent")]
    path, step = [], roots[0] if roots else None
    while isinstance(step, dict) and len(path) <= len(mapping):
        path.append(step)
        children = step.get("children")
        first = children[0] if isinstance(children, list) and children else None
        step = mapping.get(first) if isinstance(first, str) else None
    return path


def _chatgpt_text(content: Any) -> str | None:
    """The text of a message's content, or None when it holds no text (images, code runs)."""
    if not isinstance(content, dict):
        return None
    kind = content.get("content_type")
    if kind in ("text", "multimodal_text"):
        given = content.get("parts")
        # A list of parts; a bare string read as one part (iterating it would split it into letters).
        parts = [_part_text(p) for p in (given if isinstance(given, list) else [given])]
        said = [p for p in parts if p is not None and p.strip()]
        return "\n".join(said) if said else None
    return None


def _part_text(part: Any) -> str | None:
    """A text part, or the transcript of a voice-mode audio part; None for images and files."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict) and part.get("content_type") == "audio_transcription":
        text = part.get("text")
        return text if isinstance(text, str) else None
    return None


def parse_chatgpt(data: Any, *, source: str, skipped: Counter[str] | None = None) -> list[RecallRecord]:
    """Records of a ChatGPT ``conversations.json`` (a list of conversations, or one)."""
    skipped = Counter() if skipped is None else skipped
    records: list[RecallRecord] = []
    for n, conv in enumerate(_conversations(data)):
        if not isinstance(conv, dict) or not isinstance(conv.get("mapping"), dict):
            raise RecallError(
                f"{source}: conversation {n} has no 'mapping' of messages; is this a ChatGPT export?"
            )
        conv_id = str(conv.get("conversation_id") or conv.get("id") or f"chatgpt-{n}")
        title = conv.get("title") if isinstance(conv.get("title"), str) else ""
        # A message without a time was sent after the one before it: it takes that one's time
        # (not the conversation's start, which would date it before what it answers).
        last = _epoch(conv.get("create_time"))
        for node in _branch(conv["mapping"], conv.get("current_node")):
            msg = node.get("message") if isinstance(node, dict) else None
            if not isinstance(msg, dict):
                continue  # the empty root node every tree has
            when = _epoch(msg.get("create_time")) or last
            last = when
            role = msg["author"].get("role") if isinstance(msg.get("author"), dict) else None
            role = role if isinstance(role, str) else None
            if role is None or role in _NOT_SAID:
                skipped[f"{role or 'unknown'} messages (not conversation)"] += 1
                continue
            if msg.get("recipient") not in (None, "all"):
                # The assistant calling a tool (an image prompt, a search, a memory note).
                skipped["tool calls (not conversation)"] += 1
                continue
            meta = msg.get("metadata")
            if isinstance(meta, dict) and meta.get("is_visually_hidden_from_conversation"):
                skipped["hidden messages"] += 1
                continue
            text = _chatgpt_text(msg.get("content"))
            if text is None:
                skipped["messages without text (images, files, code output)"] += 1
                continue
            records.append(RecallRecord(
                text=text, kind="turn", session_id=conv_id, speaker=role,
                timestamp=when,
                external_id=str(msg.get("id") or node.get("id")),
                metadata={"source": "chatgpt", "title": title},
            ))
    return records


def _claude_text(msg: dict[str, Any]) -> str | None:
    blocks = msg.get("content")
    if isinstance(blocks, list):
        parts = [b["text"] for b in blocks
                 if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        joined = "\n".join(p for p in parts if p.strip())
        if joined:
            return joined
    text = msg.get("text")
    return text if isinstance(text, str) and text.strip() else None


def parse_claude(data: Any, *, source: str, skipped: Counter[str] | None = None) -> list[RecallRecord]:
    """Records of a Claude.ai export's ``conversations.json``."""
    skipped = Counter() if skipped is None else skipped
    records: list[RecallRecord] = []
    for n, conv in enumerate(_conversations(data)):
        if not isinstance(conv, dict) or not isinstance(conv.get("chat_messages"), list):
            raise RecallError(
                f"{source}: conversation {n} has no 'chat_messages' list; is this a Claude export?"
            )
        conv_id = str(conv.get("uuid") or f"claude-{n}")
        title = conv.get("name") if isinstance(conv.get("name"), str) else ""
        for i, msg in enumerate(conv["chat_messages"]):
            if not isinstance(msg, dict):
                skipped["entries that are not messages"] += 1
                continue
            sender = msg.get("sender")
            if sender not in ("human", "assistant"):
                skipped[f"{sender if isinstance(sender, str) and sender else 'unknown'} messages"
                        " (not conversation)"] += 1
                continue
            text = _claude_text(msg)
            if text is None:
                skipped["messages without text (images, files, code output)"] += 1
                continue
            records.append(RecallRecord(
                text=text, kind="turn", session_id=conv_id,
                speaker="user" if sender == "human" else "assistant",
                timestamp=_iso(msg.get("created_at")) or _iso(conv.get("created_at")),
                external_id=str(msg.get("uuid") or f"{conv_id}#{i}"),
                metadata={"source": "claude", "title": title},
            ))
    return records
