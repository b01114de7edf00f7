"""ChatGPT and Claude.ai exports read into records, and imported through the CLI."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_cli_recall import run

from silcrow.errors import RecallError
from silcrow.recall import load_records

DATA = Path(__file__).parent / "data" / "exports"
CHATGPT = DATA / "chatgpt-conversations.json"
CLAUDE = DATA / "claude-conversations.json"


def test_chatgpt_export_reads_the_branch_last_seen() -> None:
    skipped: Counter[str] = Counter()
    records = load_records(CHATGPT, skipped)
    assert [r.external_id for r in records] == ["n2", "n3", "n5", "m1"]
    assert [r.speaker for r in records] == ["user", "assistant", "user", "user"]
    assert records[2].text == "Here is my first bowl, a bit lopsided."  # the image part left out
    assert all("knitting" not in r.text for r in records)  # an abandoned regeneration
    assert records[0].session_id == "6632a1f0-1b2c-4d5e-8f90-0a1b2c3d4e5f"
    assert records[0].timestamp is not None and records[0].timestamp.year == 2024
    assert skipped == Counter({
        "system messages (not conversation)": 1, "tool messages (not conversation)": 1,
        "messages without text (images, files, code output)": 1,
    })


def test_claude_export() -> None:
    skipped: Counter[str] = Counter()
    records = load_records(CLAUDE, skipped)
    assert [r.speaker for r in records] == ["user", "assistant"]
    assert "Capela das Almas" in records[1].text  # text from the content blocks
    assert records[0].session_id == "0b9c6f52-8a7e-4a8f-9d3c-1e2f3a4b5c6d"
    assert str(records[0].timestamp).startswith("2024-06-01 09:00:10")
    assert skipped == Counter({"messages without text (images, files, code output)": 1})


def test_a_broken_export_says_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([{"mapping": {}}, {"title": "no mapping"}]), encoding="utf-8")
    with pytest.raises(RecallError, match="conversation 1 has no 'mapping'.*ChatGPT export"):
        load_records(path)


@pytest.mark.parametrize("export", [CHATGPT, CLAUDE], ids=["chatgpt", "claude"])
def test_importing_an_export_twice_adds_nothing(export: Path, tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    code, out, err = run("--home", home, "recall", "ingest", str(export), "--json", "--embedder", "none")
    assert code == 0, err
    first = json.loads(out)
    assert first["stored"] == first["records"] > 0 and first["skipped"]
    code, out, err = run("--home", home, "recall", "ingest", str(export), "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)["stored"] == 0


def test_ingest_from_standard_input_with_a_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(CHATGPT.read_text(encoding="utf-8")))
    code, out, err = run("--home", str(tmp_path / "home"), "recall", "ingest", "-", "--embedder", "none")
    assert code == 0, err
    assert "stored 4 of 4 records" in out
    assert "left out of -: 1 system messages (not conversation), 1 tool messages" in out


def test_empty_standard_input_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run("--home", str(tmp_path / "home"), "recall", "ingest", "-", "--embedder", "none")
    assert code != 0 and "standard input is empty" in err
