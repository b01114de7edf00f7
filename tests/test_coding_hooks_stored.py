"""What the Claude Code hooks hand to recall is stored text, as the agent's own turns are: a
reply that echoed its recalled <memory-context> is stored without the fence, and a provider
outside silcrow gets the turns with secrets redacted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_coding_hooks import SESSION, base, hook
from test_recall_hygiene import SECRETS

from silcrow.integrations.coding._hooks import _sync_pairs
from silcrow.recall.local import LocalProvider, RecallRecord
from silcrow.safety import FENCE_CLOSE, FENCE_OPEN

ECHO = (f"As your notes say:\n{FENCE_OPEN}\n[System note: recalled background]\n"
        f"the backup bucket is tidepool-dumps-eu\n{FENCE_CLOSE}\nso the chunk size is the culprit.")


def _entry(kind: str, text: str, n: int) -> str:
    message: dict[str, Any] = {"role": kind, "content": [{"type": "text", "text": text}]}
    return json.dumps({"type": kind, "isSidechain": False, "sessionId": SESSION,
                       "cwd": "/home/ana/src/tidepool",
                       "uuid": f"00000000-0000-4000-8000-00000000000{n}",
                       "timestamp": f"2026-02-12T16:0{n}:00.000Z", "message": message}) + "\n"


def test_an_echoed_fence_is_not_stored_again(tmp_path: Path) -> None:
    home = tmp_path / "silcrow"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(_entry("user", "why does the backup upload time out?", 1)
                          + _entry("assistant", ECHO, 2), encoding="utf-8")
    done = hook(home, "session-end", base("SessionEnd", transcript_path=str(transcript), reason="other"))
    assert done.returncode == 0, done.stderr
    provider = LocalProvider(home, embedder="none")
    provider.initialize("check", home=home)
    try:
        texts = [h.text for h in provider.search("chunk size culprit tidepool", k=10, mode="lexical").hits]
    finally:
        provider.shutdown()
    assert any("chunk size is the culprit" in t for t in texts), texts
    assert not any("memory-context" in t for t in texts), texts


class _Recording:
    """A provider kept outside silcrow (``external``, like any third-party plugin)."""

    name, external = "recording", True

    def __init__(self) -> None:
        self.turns: list[tuple[str, str]] = []

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        self.turns.append((user, assistant))


def test_turns_for_a_provider_outside_silcrow_have_secrets_redacted() -> None:
    provider = _Recording()
    _sync_pairs(provider, [
        RecallRecord(text="deploy with " + SECRETS["github-token"], kind="turn", session_id="s",
                     speaker="user"),
        RecallRecord(text="done; " + SECRETS["aws-key"], kind="turn", session_id="s", speaker="assistant"),
    ])
    [(user, reply)] = provider.turns
    assert SECRETS["github-token"] not in user and "[REDACTED:github-token]" in user
    assert SECRETS["aws-key"] not in reply and "[REDACTED:aws-key]" in reply
