"""The bounds of silcrow's Claude Code hooks on huge input: a prompt is searched by its end, a hook
input over 8 MiB is not parsed, and a transcript is read in bounded batches of whole lines.
(How much memory each takes on a 50 MB prompt and a 150 MB transcript: bench/hook_bounds.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_coding_hooks import SESSION, base, hook

from silcrow.integrations.coding import _hooks, _unread
from silcrow.integrations.hermes._bridge import HermesBridge
from silcrow.recall import MemoryManager, MemoryProvider
from silcrow.recall.local import LocalProvider
from silcrow.recall.policy import prefetch_query

FILLER = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"


def _line(n: int, role: str, content: object) -> str:
    return json.dumps({"type": role, "sessionId": SESSION, "uuid": f"00000000-0000-4000-8000-{n:012d}",
                       "cwd": "/home/ana/src/tidepool", "timestamp": "2026-02-12T16:02:25Z",
                       "message": {"role": role, "content": content}}) + "\n"


class Asked(MemoryProvider):
    """A provider that keeps the queries it is asked (the manager's prefetch calls it)."""

    name = "asked"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def is_available(self) -> bool:
        return True

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        pass

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return []

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        self.queries.append(query)
        return "The nightly backup upload to S3 times out after 300 seconds."

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        self.queries.append(query)


def test_a_long_prompt_is_searched_by_its_end() -> None:
    question = "why did the nightly backup upload fail?"
    prompt = "Our Svelte frontend and Vite build, remember them.\n" + FILLER * 100 + question
    asked = Asked()
    manager = MemoryManager()
    manager.add_provider(asked)
    manager.initialize("s")
    try:
        block = manager.prefetch(prompt, session_id="s")
        manager.queue_prefetch(prompt, session_id="s")
        manager.flush(10)
    finally:
        manager.shutdown()
    assert "300 seconds" in block
    assert len(asked.queries) == 2
    for query in asked.queries:
        assert len(query) <= 4000 and query.endswith(question) and "Svelte" not in query
        assert query.split()[0] in FILLER.split()  # from the start of a word
    short = "Svelte? " + question
    assert prefetch_query(short) == short  # a prompt within the cap is searched whole


def test_the_hermes_bridge_searches_a_long_message_by_its_end(tmp_path: Path) -> None:
    """Hermes runs its own manager and calls the bridge directly: the same rule holds there."""
    question = "why did the nightly backup upload fail?"
    prompt = "Our Svelte frontend and Vite build, remember them.\n" + FILLER * 100 + question
    asked = Asked()
    bridge = HermesBridge()
    bridge._recall, bridge._loaded_for, bridge._home = asked, tmp_path / "hermes", tmp_path / "home"
    bridge.initialize("s", hermes_home=str(tmp_path / "hermes"))
    assert "300 seconds" in bridge.prefetch(prompt, session_id="s")
    bridge.queue_prefetch(prompt, session_id="s")
    assert len(asked.queries) == 2
    assert all(len(q) <= 4000 and q.endswith(question) and "Svelte" not in q for q in asked.queries)


def test_a_hook_input_over_the_bound_is_not_parsed(tmp_path: Path) -> None:
    home = tmp_path / "silcrow"
    prompt = FILLER * (_hooks.MAX_INPUT_BYTES // len(FILLER) + 10) + "why did the backup fail?"
    done = hook(home, "user-prompt-submit", base("UserPromptSubmit", prompt=prompt))
    assert done.returncode == 0 and done.stdout == ""
    assert f"over the {_hooks.MAX_INPUT_BYTES:,} silcrow reads; nothing done" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_over_long_transcript_line_is_passed_over_and_the_rest_ingested(tmp_path: Path) -> None:
    home = tmp_path / "silcrow"
    transcript = tmp_path / "t.jsonl"
    pasted = FILLER * (_unread.MAX_LINE_BYTES // len(FILLER) + 1)  # one pasted log, over 4 MiB
    lines = [_line(1, "user", "How do I rotate the backup keys?"),
             _line(2, "assistant", [{"type": "text", "text": "Run ops/rotate-keys.sh on the bastion."}]),
             _line(3, "user", pasted),
             _line(4, "assistant", [{"type": "text", "text": "That log shows the upload timing out."}])]
    transcript.write_text("".join(lines), encoding="utf-8")
    done = hook(home, "session-end", base("SessionEnd", transcript_path=str(transcript), reason="other"))
    assert done.returncode == 0, done.stderr
    assert "ingested 3 turns" in done.stderr and "1 line(s) over 4 MiB skipped (line 3)" in done.stderr
    offsets = json.loads((home / "hooks" / "claude-code" / "offsets.json").read_text(encoding="utf-8"))
    assert offsets[str(transcript)] == {"offset": transcript.stat().st_size, "line": 5}
    provider = LocalProvider(home, embedder="none")
    provider.initialize("check", home=home)
    try:
        found = provider.search("backup keys rotate upload log lorem ipsum", k=50, mode="lexical")
    finally:
        provider.shutdown()
    texts = sorted(h.text for h in found.hits)
    assert len(texts) == 3 and not any("lorem ipsum" in t for t in texts), texts


@pytest.mark.parametrize("tail", ["", '{"type": "user", "message": {"content": "half writ'])
def test_batches_hold_whole_lines_within_their_bound(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "t.jsonl"
    short = [f"line {n} {FILLER}" for n in range(40_000)]  # ~3 MB of short lines
    long_line = "x" * (_unread.MAX_LINE_BYTES + 123) + "\n"
    text = "".join(short[:20_000]) + long_line + "".join(short[20_000:]) + long_line + tail
    path.write_text(text, encoding="utf-8")
    data = path.read_bytes()
    with path.open("rb") as handle:
        got = list(_unread.batches(handle, 0, 1))
    bound = _unread.BATCH_BYTES + _unread.MAX_LINE_BYTES
    assert all(len(b.data) <= bound and b.data.endswith(b"\n") for b in got if b.data)
    assert len(got) > 3
    assert [n for b in got for n in b.too_long] == [20_001, 40_002]
    kept = b"".join(b.data for b in got)
    assert kept == ("".join(short)).encode()  # every short line once, in order; the long ones not
    assert got[-1].end == len(data) - len(tail.encode()) and got[-1].end_line == 40_003
    for before, after in zip(got, got[1:], strict=False):  # each batch starts where the last ended
        assert after.first_line == before.end_line + len(after.too_long)
