"""Importing Claude Code transcripts and Codex rollouts into recall (`silcrow recall ingest`).

The transcripts under tests/data/coding/ are small excerpts written line for line in the
clients' formats; tests/data/coding/README.md names the public transcripts each follows
(marot/spotter test/fixtures/transcripts/4d5611e5-....jsonl for Claude Code, madshn/localpush
src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/rollout-....jsonl for Codex).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from silcrow.recall import load_records
from silcrow.recall._coding import (
    CLAUDE_CODE,
    CODEX,
    detect,
    load_transcripts,
    parse_claude_code,
    transcript_files,
)
from silcrow.recall.local import LocalProvider, PostgresRecall, RecallRecord

DATA = Path(__file__).parent / "data" / "coding"
TIDEPOOL = (
    DATA / "claude" / "projects" / "-home-ana-src-tidepool" / "5b1f0c7e-3d2a-4f61-9a8e-2c4d6e8f0a11.jsonl"
)
SILCROW = Path(sys.executable).parent / "silcrow"
ROLLOUT = next((DATA / "codex" / "sessions").rglob("rollout-*.jsonl"))


def test_a_claude_code_transcript_keeps_user_and_assistant_text_with_time_session_and_project() -> None:
    skipped: Counter[str] = Counter()
    records = load_records(TIDEPOOL, skipped)
    assert [(r.speaker, r.text[:24]) for r in records] == [
        ("user", "The nightly job that cop"),
        ("assistant", "The upload is streamed f"),
        ("user", "Good catch. Set the chun"),
        ("assistant", "Done: backup.sh now pipe"),
    ]
    first = records[0]
    assert first.session_id == "5b1f0c7e-3d2a-4f61-9a8e-2c4d6e8f0a11"
    assert first.timestamp is not None and first.timestamp.isoformat() == "2026-02-12T16:02:25.284000+00:00"
    assert first.external_id == "a1e0c2d4-0000-4f00-8000-000000000001"  # the entry's uuid
    assert first.metadata == {
        "source": "claude-code",
        "project": "/home/ana/src/tidepool",
        "git_branch": "main",
    }
    # Everything else is counted, not silently dropped; the half-written last line is named.
    assert skipped["thinking blocks"] == 1
    assert skipped["tool calls"] == 1
    assert skipped["tool results"] == 1
    assert skipped["entries Claude Code wrote itself (meta, compaction summaries)"] == 1
    assert skipped["slash-command and shell-escape entries"] == 1
    assert skipped["entries without text"] == 1  # the blank text block before a reply
    assert skipped["bookkeeping entries (summaries, snapshots, progress)"] == 4
    malformed = [why for why in skipped if why.startswith("malformed lines")]
    assert malformed == [f"malformed lines, not JSON ({TIDEPOOL}: line 15)"]


def test_a_sub_agent_transcript_is_all_sidechain_and_stores_nothing() -> None:
    skipped: Counter[str] = Counter()
    files = [p for p in transcript_files(DATA / "claude") if "subagents" in p.parts]
    assert len(files) == 1
    assert load_transcripts(files, client=None, skipped=skipped) == []
    assert skipped == Counter({"sidechain (sub-agent) entries": 2})


def test_a_codex_rollout_keeps_the_conversation_and_skips_what_codex_injected() -> None:
    skipped: Counter[str] = Counter()
    records = load_records(ROLLOUT, skipped)
    assert [(r.speaker, r.text) for r in records] == [
        ("user", "Add a health check endpoint that reports whether the tide gauge feed is stale."),
        (
            "assistant",
            "I added GET /healthz: it returns 503 when the last tide gauge reading is older than 15 minutes.",
        ),
    ]
    assert {r.session_id for r in records} == {"019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"}
    assert {r.metadata["project"] for r in records} == {"/home/ana/src/tidepool"}
    assert records[0].external_id == "L4"  # no id in a 0.46 rollout: the line number stands in
    assert skipped["context Codex injected (environment, instruction files)"] == 1
    assert skipped["developer messages (instructions)"] == 1
    assert skipped["thinking blocks"] == 1
    assert skipped["tool calls"] == 1 and skipped["tool results"] == 1
    assert skipped["client events (event_msg: message copies, token counts)"] == 4


def test_formats_are_told_apart_by_content() -> None:
    assert detect(TIDEPOOL.read_text(encoding="utf-8")) == CLAUDE_CODE
    assert detect(ROLLOUT.read_text(encoding="utf-8")) == CODEX
    generic = '{"role": "user", "content": "hi", "session_id": "s"}\n'
    assert detect(generic) is None
    assert [r.text for r in load_records_text(generic)] == ["hi"]  # the other reader still gets it


def load_records_text(text: str) -> list[RecallRecord]:
    from silcrow.recall import read_records

    return read_records(text, source="<test>")


def test_reading_from_an_offset_keeps_the_file_line_numbers() -> None:
    lines = TIDEPOOL.read_text(encoding="utf-8").splitlines(keepends=True)
    tail = "".join(lines[10:])
    transcript = parse_claude_code(tail, source="t", first_line=11)
    assert transcript.malformed == [15]
    assert [r.speaker for r in transcript.records] == ["user", "assistant"]


# -- the command line, as a user runs it ------------------------------------------------------------


def _home_with_transcripts(tmp_path: Path) -> Path:
    home = tmp_path / "user"
    shutil.copytree(DATA / "claude", home / ".claude")
    shutil.copytree(DATA / "codex", home / ".codex")
    return home


def _silcrow(home: Path, silcrow_home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "SILCROW_HOME": str(silcrow_home),
        "NO_COLOR": "1",
        "COLUMNS": "200",
    }
    env.pop("CLAUDE_CONFIG_DIR", None)
    env.pop("CODEX_HOME", None)
    return subprocess.run(
        [str(SILCROW), *args], capture_output=True, text=True, env=env, timeout=300, check=False
    )


def test_ingest_from_claude_code_on_a_fresh_home_then_search_by_meaning(tmp_path: Path) -> None:
    home, silcrow_home = _home_with_transcripts(tmp_path), tmp_path / "silcrow"
    done = _silcrow(home, silcrow_home, "recall", "ingest", "--from", "claude-code")
    assert done.returncode == 0, done.stderr
    assert f"stored 6 of 6 records from {home / '.claude' / 'projects'}" in done.stdout
    assert "2 sidechain (sub-agent) entries" in done.stdout
    assert "malformed lines, not JSON" in done.stdout and "line 15" in done.stdout
    assert "Traceback" not in done.stderr
    again = _silcrow(home, silcrow_home, "recall", "ingest", "--from", "claude-code", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["stored"] == 0  # importing twice adds nothing
    # Found by meaning: no word of the question is in the answer it should find first.
    found = _silcrow(
        home,
        silcrow_home,
        "recall",
        "search",
        "why did the database backup fail at night",
        "-k",
        "3",
        "--json",
    )
    assert found.returncode == 0, found.stderr
    texts = [hit["text"] for hit in json.loads(found.stdout)]
    assert any("copies the Postgres dumps to object storage" in t for t in texts), texts
    assert not any("date picker" in t for t in texts[:1])


def test_search_can_be_limited_to_a_project(tmp_path: Path) -> None:
    home, silcrow_home = _home_with_transcripts(tmp_path), tmp_path / "silcrow"
    assert _silcrow(home, silcrow_home, "recall", "ingest", "--from", "claude-code").returncode == 0
    assert _silcrow(home, silcrow_home, "recall", "ingest", "--from", "codex").returncode == 0
    query = ("which locale should dates fall back to", "-k", "10", "--json")
    everywhere = json.loads(_silcrow(home, silcrow_home, "recall", "search", *query).stdout)
    assert any("en-GB" in hit["text"] for hit in everywhere)
    tidepool = _silcrow(home, silcrow_home, "recall", "search", *query, "--project", "/home/ana/src/tidepool")
    assert tidepool.returncode == 0, tidepool.stderr
    texts = [hit["text"] for hit in json.loads(tidepool.stdout)]
    assert texts and not any("en-GB" in t for t in texts)
    assert any("healthz" in t for t in texts)  # Codex sessions carry their project too
    kestrel = json.loads(
        _silcrow(home, silcrow_home, "recall", "search", *query, "--project", "/home/ana/src/kestrel").stdout
    )
    assert {h["session_id"] for h in kestrel} == {"8c2e4a6b-1f3d-4e5a-b7c9-0d1e2f3a4b5c"}
    # A directory above the project takes it in; a sibling with a common prefix does not.
    above = json.loads(
        _silcrow(home, silcrow_home, "recall", "search", *query, "--project", "/home/ana").stdout
    )
    assert len(above) == len(everywhere)
    assert (
        json.loads(
            _silcrow(home, silcrow_home, "recall", "search", *query, "--project", "/home/ana/src/tide").stdout
        )
        == []
    )


def test_a_directory_path_and_errors_that_say_what_to_do(tmp_path: Path) -> None:
    home, silcrow_home = _home_with_transcripts(tmp_path), tmp_path / "silcrow"
    done = _silcrow(home, silcrow_home, "recall", "ingest", str(home / ".codex" / "sessions"))
    assert done.returncode == 0, done.stderr
    assert "stored 2 of 2 records" in done.stdout
    bad = _silcrow(home, silcrow_home, "recall", "ingest", "--from", "gemini")
    assert bad.returncode == 2 and "use claude-code or codex" in bad.stderr
    nothing = _silcrow(home, silcrow_home, "recall", "ingest")
    assert nothing.returncode == 2 and "--from claude-code" in nothing.stderr
    shutil.rmtree(home / ".claude")
    missing = _silcrow(home, silcrow_home, "recall", "ingest", "--from", "claude-code")
    assert missing.returncode == 1
    assert f"no claude-code sessions at {home / '.claude' / 'projects'}" in missing.stderr
    assert "Traceback" not in missing.stderr + bad.stderr + nothing.stderr


# -- the project filter on both backends ----------------------------------------------------------


def _records() -> list[RecallRecord]:
    return load_transcripts(transcript_files(DATA), client=None, skipped=Counter())


def test_project_filter_on_sqlite(tmp_path: Path) -> None:
    provider = LocalProvider(tmp_path, embedder="none")
    provider.initialize("test", home=tmp_path)
    try:
        provider.ingest(_records())
        hits = provider.search(
            "backup dump timeout health", k=20, mode="lexical", project="/home/ana/src/kestrel"
        ).hits
        assert hits == ()
        hits = provider.search(
            "backup dump timeout health", k=20, mode="lexical", project="/home/ana/src/tidepool"
        ).hits
        assert hits and all(h.session_id != "8c2e4a6b-1f3d-4e5a-b7c9-0d1e2f3a4b5c" for h in hits)
        assert len(provider.search("backup dump timeout health", k=20, mode="lexical").hits) >= len(hits)
    finally:
        provider.shutdown()


def test_project_filter_on_postgres(pg_dsn: str) -> None:
    from silcrow.models import get_embedder

    store = PostgresRecall(pg_dsn, get_embedder("none"), "alice")
    try:
        store.ingest(_records(), (None, None))
        kestrel = store.search(
            "locale fallback date picker", 10, (None, None), mode="lexical", project="/home/ana/src/kestrel"
        )
        assert kestrel and {h.session_id for h in kestrel} == {"8c2e4a6b-1f3d-4e5a-b7c9-0d1e2f3a4b5c"}
        assert (
            store.search(
                "locale fallback date picker",
                10,
                (None, None),
                mode="lexical",
                project="/home/ana/src/tidepool",
            )
            == []
        )
        assert (
            store.search(
                "locale fallback date picker", 10, (None, None), mode="lexical", project="/home/ana/src/tide"
            )
            == []
        )
        assert (
            store.search("locale fallback date picker", 10, (None, None), mode="lexical", project="/home/ana")
            == kestrel
        )
    finally:
        store.close()


@pytest.mark.parametrize("client", [CLAUDE_CODE, CODEX])
def test_default_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: str) -> None:
    from silcrow.recall._coding import default_dir

    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    expected = {CLAUDE_CODE: tmp_path / ".claude" / "projects", CODEX: tmp_path / ".codex" / "sessions"}
    assert default_dir(client) == expected[client]
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert (
        default_dir(client)
        == {CLAUDE_CODE: tmp_path / "cc" / "projects", CODEX: tmp_path / "cx" / "sessions"}[client]
    )
