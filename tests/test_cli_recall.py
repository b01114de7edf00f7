"""`silcrow recall ...` and `silcrow providers` through the real root CLI and the real local provider."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import silcrow.cli._recall as recall_cli
from silcrow.cli.main import main

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")

MESSAGES = [
    {"role": "user", "content": "My sister Ana just adopted a grey kitten called Pixel.",
     "timestamp": "2024-03-02T10:00:00Z", "session_id": "s1"},
    {"role": "assistant", "content": "Congratulations to Ana! Pixel is a lovely name.",
     "timestamp": "2024-03-02T10:00:05Z", "session_id": "s1"},
    {"role": "user", "content": "I am training for the Lisbon half marathon in October.",
     "timestamp": "2024-04-10T08:00:00Z", "session_id": "s2"},
    {"role": "assistant", "content": "Good luck with the training plan.",
     "timestamp": "2024-04-10T08:00:04Z", "session_id": "s2"},
    {"role": "user", "content": "Our team migrated the billing service from MySQL to PostgreSQL.",
     "timestamp": "2024-05-21T15:30:00Z", "session_id": "s3"},
    {"role": "assistant", "content": "Noted, billing now runs on PostgreSQL.",
     "timestamp": "2024-05-21T15:30:03Z", "session_id": "s3"},
]

LOCOMO = {
    "speaker_a": "Joanna", "speaker_b": "Nate",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Joanna", "dia_id": "D1:1", "text": "I finished writing my first screenplay yesterday!"},
        {"speaker": "Nate", "dia_id": "D1:2", "text": "Amazing. I won my video game tournament."},
    ],
    "session_2_date_time": "10:37 am on 27 June, 2023",
    "session_2": [
        {"speaker": "Nate", "dia_id": "D2:1", "text": "I adopted a turtle named Shelly."},
    ],
}


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # If --home were ignored anywhere, files would land here instead.
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "env-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    monkeypatch.setenv("NO_COLOR", "1")


def run(*args: str) -> tuple[int, str, str]:
    """`silcrow ARGS` in process; (exit code, stdout, stderr), never a traceback."""
    out, err = io.StringIO(), io.StringIO()
    real_out, real_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        with pytest.raises(SystemExit) as info:
            main(list(args))
    finally:
        sys.stdout, sys.stderr = real_out, real_err
    o, e = ANSI.sub("", out.getvalue()), ANSI.sub("", err.getvalue())
    assert "Traceback" not in o + e
    code = info.value.code
    return (code if isinstance(code, int) else 0), o, e


def write_jsonl(path: Path, messages: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with MESSAGES ingested once through the CLI with the real offline model."""
    base = tmp_path_factory.mktemp("ingested")
    home = base / "home"
    code, out, err = run("--home", str(home), "recall", "ingest",
                         str(write_jsonl(base / "chat.jsonl", MESSAGES)), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["stored"] == len(MESSAGES) and result["duplicates"] == 0
    return home


def test_search_finds_the_right_turn_with_the_real_model(ingested: Path) -> None:
    code, out, err = run("--home", str(ingested), "recall", "search", "what pet does my sister have?",
                         "-k", "3", "--json")
    assert code == 0, err
    hits = json.loads(out)
    assert len(hits) == 3
    assert "Pixel" in hits[0]["text"] and hits[0]["speaker"] == "user"
    assert hits[0]["date"].startswith("2024-03-02")
    assert hits[0]["score"] >= hits[1]["score"] >= hits[2]["score"]


def test_search_table_and_k(ingested: Path) -> None:
    code, out, _ = run("--home", str(ingested), "recall", "search", "database migration", "-k", "1")
    assert code == 0
    assert "PostgreSQL" in out and "2024-05-21" in out
    assert "Lisbon" not in out  # -k 1: one row only


def test_ingest_again_skips_duplicates(ingested: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "again.jsonl", MESSAGES[:2])
    code, out, err = run("--home", str(ingested), "recall", "ingest", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["stored"] == 0 and json.loads(out)["duplicates"] == 2


def test_ingesting_an_undated_file_twice_stores_nothing_new(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    undated = [{k: v for k, v in m.items() if k != "timestamp"} for m in MESSAGES]
    undated.append(dict(undated[0]))  # the same words again later in the file: a second memory
    path = write_jsonl(tmp_path / "undated.jsonl", undated)
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)["stored"] == len(undated)
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)["stored"] == 0 and json.loads(out)["duplicates"] == len(undated)


def test_stats(ingested: Path) -> None:
    code, out, err = run("--home", str(ingested), "recall", "stats", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["memories"] == len(MESSAGES) and data["sessions"] == 3
    assert data["embedder"].startswith("onnx") and data["dim"] == 384  # the model the vectors came from
    code, out, _ = run("--home", str(ingested), "recall", "stats")
    assert code == 0 and "memories" in out and "384" in out
    # stats loads no model, so it has no vector index to count: it must not claim 0 rows
    assert data["embedded"] == len(MESSAGES) and data.get("index_rows", len(MESSAGES)) == len(MESSAGES)


def test_a_failed_first_ingest_leaves_no_database(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(
        f'embedder = "openai"\nembedder_url = "http://127.0.0.1:{port}/v1"\nembedder_model = "m"\n',
        encoding="utf-8",
    )
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES)
    code, _, err = run("--home", str(home), "recall", "ingest", str(path))
    assert code == 1 and "cannot reach the embeddings endpoint" in " ".join(err.split())
    assert not list(home.glob("recall.db*"))
    code, _, err = run("--home", str(home), "recall", "search", "Pixel")
    assert code == 1 and "no recall database" in err


def test_an_ingest_failing_mid_way_removes_the_database_it_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from silcrow.errors import RecallError
    from silcrow.recall.local import LocalProvider

    def broken(self: LocalProvider, records: object, **_kw: object) -> int:
        self.store  # the database is open (created) by now  # noqa: B018
        raise RecallError("embeddings endpoint answered HTTP 500")

    monkeypatch.setattr(LocalProvider, "ingest", broken)
    home = tmp_path / "home"
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES)
    code, _, err = run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")
    assert code == 1 and "HTTP 500" in err
    assert not list(home.glob("recall.db*"))
    monkeypatch.undo()
    assert run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")[0] == 0
    code, _, err = run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0 and (home / "recall.db").exists()  # an existing database is never removed


def test_forget_by_text_and_by_id(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES)
    assert run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")[0] == 0

    code, _, err = run("--home", str(home), "recall", "forget", "PostgreSQL")  # stdin is not a tty
    assert code == 2 and "--yes" in err
    code, out, _ = run("--home", str(home), "recall", "forget", "postgresql", "--yes", "--json")
    assert code == 0 and json.loads(out)["removed"] == 2

    code, out, _ = run("--home", str(home), "recall", "search", "Lisbon", "--json", "--embedder", "none")
    target = json.loads(out)[0]
    assert "Lisbon" in target["text"]
    code, out, _ = run("--home", str(home), "recall", "forget", str(target["id"]), "--yes")
    assert code == 0 and "deleted 1 memory" in out
    code, out, _ = run("--home", str(home), "recall", "stats", "--json")
    assert json.loads(out)["memories"] == len(MESSAGES) - 3

    code, _, err = run("--home", str(home), "recall", "forget", str(target["id"]), "--yes")
    assert code == 1 and "no memory matched" in err
    code, out, err = run("--home", str(home), "recall", "forget", "zebra crossing", "--yes", "--json")
    assert code == 1 and json.loads(out) == {"target": "zebra crossing", "removed": 0}
    assert "no memory matched" in err


def test_locomo_file_keeps_speakers_and_dates(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = tmp_path / "conv.json"
    path.write_text(json.dumps(LOCOMO), encoding="utf-8")
    code, out, err = run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0, err
    assert "stored 3 of 3 records" in " ".join(out.split())
    code, out, _ = run("--home", str(home), "recall", "search", "turtle", "--json", "--embedder", "none")
    hit = json.loads(out)[0]
    assert hit["speaker"] == "Nate" and hit["date"].startswith("2023-06-27")
    assert hit["external_id"] == "D2:1"


def test_ingest_drives_a_progress_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(recall_cli, "console_err", Console(file=screen, force_terminal=True, width=100))
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES)
    code, _, err = run("--home", str(tmp_path / "home"), "recall", "ingest", str(path), "--embedder", "none")
    assert code == 0, err
    drawn = ANSI.sub("", screen.getvalue())
    assert "ingesting" in drawn and f"{len(MESSAGES)}/{len(MESSAGES)}" in drawn


def test_bad_input_files_are_one_line_errors(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    code, _, err = run("--home", home, "recall", "ingest", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "is not a file" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{not json\n', encoding="utf-8")
    code, _, err = run("--home", home, "recall", "ingest", str(bad))
    assert code == 1 and "line 1" in err and "not valid JSON" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    code, _, err = run("--home", home, "recall", "ingest", str(empty))
    assert code == 1 and "empty" in err


def test_reading_commands_do_not_create_a_database(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for args in (["search", "tea"], ["stats"], ["forget", "tea", "--yes"]):
        code, _, err = run("--home", str(home), "recall", *args)
        assert code == 1 and "no recall database" in err and "recall ingest" in err
    assert not (home / "recall.db").exists()


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    assert run("--home", home, "recall", "search", "tea", "-k", "0")[0] == 2
    assert run("--home", home, "recall", "search", "   ")[0] == 2
    assert run("--home", home, "recall", "ingest", str(tmp_path))[0] == 2  # a directory


def test_unknown_embedder_is_a_clear_error(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES[:1])
    home = str(tmp_path / "home")
    code, _, err = run("--home", home, "recall", "ingest", str(path), "--embedder", "nosuch")
    assert code == 1 and "unknown embedder 'nosuch'" in err


def test_providers_lists_local_as_selected(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, out, err = run("--home", str(home), "providers", "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["local"] == {"name": "local", "available": True, "reason": "", "selected": True}
    code, out, _ = run("--home", str(home), "providers")
    assert code == 0 and "local" in out and "yes" in out


def test_providers_warns_about_an_unknown_configured_provider(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('provider = "nosuch"\n', encoding="utf-8")
    code, out, _ = run("--home", str(home), "providers")
    assert code == 0 and "'nosuch'" in " ".join(out.split()) and "not installed" in " ".join(out.split())
    code, out, _ = run("--home", str(home), "providers", "--json")
    assert json.loads(out)[0]["selected"] is False


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ('embedder = "bogus"\n', "unknown embedder 'bogus'"),
        ('embedder = "fastembed"\n', "pip install silcrow[fastembed]"),
        ('embedder = "openai"\n', "needs a base URL"),
        ('embedder = "openai"\nembedder_model = "text-embedding-3-small"\n', "needs a base URL"),
    ],
)
def test_providers_checks_the_configured_embedder(tmp_path: Path, config: str, reason: str) -> None:
    if "fastembed" in config:
        try:
            import fastembed  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("fastembed is installed here")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(config, encoding="utf-8")
    code, out, err = run("--home", str(home), "providers", "--json")
    assert code == 0, err
    local = {r["name"]: r for r in json.loads(out)}["local"]
    assert local["available"] is False and reason in local["reason"], local
    code, out, _ = run("--home", str(home), "providers")
    assert code == 0 and re.search(r"local\s*│\s*no\b", out), out
    assert not (home / "recall.db").exists()


def test_console_script_in_a_subprocess(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("silcrow")
    proc = subprocess.run(
        [str(exe), "--home", str(tmp_path / "home"), "recall", "stats"],
        capture_output=True, text=True, encoding="utf-8", timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().startswith("error: no recall database")
    assert "Traceback" not in proc.stderr


def test_embedder_settings_from_config_toml_are_used(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('embedder = "onnx"\nembedder_model = "not-a-real-model"\n',
                                      encoding="utf-8")
    path = write_jsonl(tmp_path / "c.jsonl", MESSAGES[:1])
    code, _, err = run("--home", str(home), "recall", "ingest", str(path))
    assert code == 1 and "only runs all-MiniLM-L6-v2" in " ".join(err.split())
    # An explicit --embedder is not mixed with another embedder's settings.
    assert run("--home", str(home), "recall", "ingest", str(path), "--embedder", "none")[0] == 0


def test_a_json_array_of_messages_is_one_conversation_and_imports_once(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    messages = [{"role": "user", "content": "My sister has a parrot called Kiwi."},
                {"role": "assistant", "content": "Kiwi is a lovely name."},
                {"role": "user", "content": "My sister has a parrot called Kiwi."}]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)["stored"] == 3
    code, out, err = run("--home", home, "recall", "ingest", str(path), "--json", "--embedder", "none")
    assert code == 0, err
    assert json.loads(out)["stored"] == 0 and json.loads(out)["duplicates"] == 3
