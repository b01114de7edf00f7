"""Files changed outside silcrow: backed up, refused, explained; add still appends."""

from __future__ import annotations

from pathlib import Path

import pytest

from silcrow.store import MemoryStore


def _memory_file(home: Path) -> Path:
    (home / "memories").mkdir(parents=True, exist_ok=True)
    return home / "memories" / "MEMORY.md"


DRIFTED = {
    "padded_delimiter": b"Uses zsh\n\xc2\xa7 \nPrefers tabs",
    "bare_section_line": "Uses zsh\n§\n§\nPrefers tabs".encode(),
    "oversized_entry": ("Uses zsh\n§\n" + "pasted log line\n" * 40).encode(),
    "not_utf8": b"Uses zsh\n\xc2\xa7\nPrefers \xff tabs",
}


@pytest.mark.parametrize("kind", sorted(DRIFTED))
def test_drift_refuses_rewrites_and_keeps_a_backup(tmp_path: Path, kind: str) -> None:
    path = _memory_file(tmp_path)
    original = DRIFTED[kind]
    path.write_bytes(original)
    store = MemoryStore(tmp_path, memory_char_limit=300)

    for result in (
        store.replace("memory", "zsh", "Uses fish"),
        store.remove("memory", "zsh"),
        store.apply_batch("memory", [{"action": "add", "content": "x"}]),
    ):
        store.reset_turn()
        assert result["success"] is False
        assert "changed outside silcrow" in result["error"]
        assert "Fix the file by hand" in result["error"]
        backup = Path(result["backup"])
        assert backup.name.startswith("MEMORY.md.bak.")
        assert str(backup) in result["error"]
        assert backup.read_bytes() == original
        assert result["problems"]
    assert path.read_bytes() == original
    # One backup per distinct content, not one per refusal.
    assert len(list(path.parent.glob("MEMORY.md.bak.*"))) == 1

    report = store.doctor()[0]
    assert report["ok"] is False and report["backup"] is not None
    assert report["problems"]
    assert store.undo("memory")["success"] is False


@pytest.mark.parametrize("kind", ["padded_delimiter", "bare_section_line", "not_utf8"])
def test_add_still_appends_without_touching_existing_bytes(tmp_path: Path, kind: str) -> None:
    path = _memory_file(tmp_path)
    original = DRIFTED[kind]
    path.write_bytes(original)
    store = MemoryStore(tmp_path)
    result = store.add("memory", "The user is on call on Fridays")
    assert result["success"] is True
    assert "Warning" in result["message"]
    assert path.read_bytes() == original + "\n§\nThe user is on call on Fridays".encode()
    assert store.entries("memory")[-1] == "The user is on call on Fridays"


def test_oversized_entry_blocks_add_by_budget_and_says_why(tmp_path: Path) -> None:
    path = _memory_file(tmp_path)
    path.write_bytes(DRIFTED["oversized_entry"])
    store = MemoryStore(tmp_path, memory_char_limit=300)
    result = store.add("memory", "small fact")
    assert result["success"] is False
    assert "larger than the whole 300-char limit" in result["error"]
    assert path.read_bytes() == DRIFTED["oversized_entry"]


def test_whitespace_and_empty_entries_are_not_drift(tmp_path: Path) -> None:
    path = _memory_file(tmp_path)
    path.write_text("\n  Uses zsh  \n§\n\n§\nPrefers tabs\n\n", encoding="utf-8")
    store = MemoryStore(tmp_path)
    assert store.doctor()[0]["ok"] is True
    assert store.remove("memory", "zsh")["success"] is True
    assert path.read_text(encoding="utf-8") == "Prefers tabs"
    assert list(path.parent.glob("MEMORY.md.bak.*")) == []


def test_doctor_reports_both_files(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("memory", "fact")
    reports = store.doctor()
    assert [r["target"] for r in reports] == ["memory", "user"]
    first = reports[0]
    assert first["ok"] is True and first["problems"] == [] and first["backup"] is None
    assert first["entry_count"] == 1 and first["usage"] == "0% — 4/2,200 chars"
    assert first["path"] == str(store.path("memory"))
