"""`silcrow db` against a real PostgreSQL: migrate, the start-up check, and a lossless
import/export round trip of a whole files home (notes, journal, recall.db, sessions.db)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from pg_support import PgServer
from test_cli_recall import run

from silcrow import schema
from silcrow.errors import ConfigError
from silcrow.models import Embedder, get_embedder
from silcrow.recall.local import LocalProvider, PostgresRecall, RecallRecord
from silcrow.sessions import PostgresSessions, SessionStore
from silcrow.store import MemoryStore, PostgresBackend


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder("onnx")


def _fill_home(home: Path, embedder: Embedder) -> None:
    store = MemoryStore(home)
    assert store.add("memory", "Project uses Python 3.12")["success"]
    assert store.add("memory", "Deploys go through GitHub Actions")["success"]
    assert store.replace("memory", "3.12", "Project uses Python 3.13")["success"]
    assert store.undo("memory")["success"]
    assert store.add("user", "Name: Sam; prefers tea")["success"]
    with open(home / "memories" / "USER.md", "ab") as handle:
        handle.write(b"\n\xa7\nbad byte \xff and a NUL \x00 kept as they are")  # a damaged hand edit
    provider = LocalProvider(home, embedder=embedder)
    provider.initialize("chat-1", user_id="sam")
    provider.ingest([
        RecallRecord(text="I started learning the cello", speaker="user", session_id="chat-1",
                     metadata={"mood": "glad"}),
        RecallRecord(text="How long have you played?", speaker="assistant", session_id="chat-1"),
        RecallRecord(text="Ana's puppy is called Pixel", kind="fact", external_id="F1"),
    ])
    provider.shutdown()
    with SessionStore(home / "sessions.db") as sessions:
        sid = sessions.create(title="cello", system_prompt="SYSTEM")
        sessions.append(sid, {"role": "user", "content": "I started learning the cello"})
        calls = [{"id": "c1", "type": "function", "function": {"name": "memory", "arguments": "{}"}}]
        sessions.append(sid, {"role": "assistant", "content": None, "tool_calls": calls})
        sessions.append(sid, {"role": "tool", "tool_call_id": "c1", "content": "{\"success\": true}"})
        sessions.append(sid, {"role": "assistant", "content": "How long have you played?"})
        sessions.append(sid, {"role": "user", "content": "two weeks"})
        sessions.compact(sid, 1, 1, "they talked about the cello")
        branch = sessions.branch(sid, title="cello, take two")
        sessions.append(branch, {"role": "user", "content": "and the viola?"})


def _files(home: Path) -> dict[str, Any]:
    """Everything a home holds, as comparable values."""
    out: dict[str, Any] = {}
    for name in ("MEMORY.md", "USER.md", ".journal.jsonl"):
        path = home / "memories" / name
        out[name] = path.read_bytes() if path.exists() else None
    # "file" is the identity (inode, size, times) of the notes file a record left on this disk, a
    # key for the next write's lookup: it names nothing another home could hold, so no move keeps it.
    out["journal"] = [{k: v for k, v in json.loads(line).items() if k != "file"}
                      for line in out[".journal.jsonl"].splitlines()]
    for db, tables in (("recall.db", ("memories", "embeddings", "meta")),
                       ("sessions.db", ("sessions", "messages"))):
        conn = sqlite3.connect(home / db)
        for table in tables:
            out[f"{db}:{table}"] = conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
        conn.close()
    return out


def test_import_then_export_is_lossless(pg_dsn: str, tmp_path: Path, embedder: Embedder) -> None:
    source, back = tmp_path / "source", tmp_path / "back"
    _fill_home(source, embedder)
    code, out, err = run("--home", str(source), "db", "import", "--from-home", str(source), "--dsn", pg_dsn,
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["profile"], report["notes"], report["memories"], report["vectors"]) == ("default", 2, 3, 3)
    assert report["sessions"] == 2 and report["journal_records"] == 5

    # The database serves what the home held, through every backend.
    store = MemoryStore(backend=PostgresBackend(pg_dsn))
    assert store.entries("memory") == ["Project uses Python 3.12", "Deploys go through GitHub Actions"]
    assert [r["action"] for r in store.history("memory")] == ["add", "add", "replace", "undo"]
    assert store.undo("memory")["success"] and store.entries("memory") == ["Project uses Python 3.12"]
    assert store.undo("user")["success"] is False  # the hand edit is not silcrow's to discard
    recall = PostgresRecall(pg_dsn, embedder)
    assert recall.search("what instrument is Sam learning?", 1, ("sam", None))[0].text == (
        "I started learning the cello")
    assert recall.search("puppy name", 1, ("sam", None))[0].external_id == "F1"
    sessions = PostgresSessions(pg_dsn)
    assert len(sessions.search("viola")) == 1 and len(sessions.search("cello")) == 1  # one lineage

    # Put the undo back so the export must equal the source, then export into a new home.
    source_state = _files(source)
    MemoryStore(source).undo("memory")  # the same step on the source keeps them comparable
    code, _, err = run("db", "export", "--to-home", str(back), "--dsn", pg_dsn)
    assert code == 0, err
    exported, original = _files(back), _files(source)
    assert source_state["MEMORY.md"] != original["MEMORY.md"]  # the undo did change both
    for key in ("MEMORY.md", "USER.md", "recall.db:memories", "recall.db:embeddings", "recall.db:meta",
                "sessions.db:sessions", "sessions.db:messages"):
        assert exported[key] == original[key], key
    # Journals agree record for record except the undo each side made on its own.
    assert exported["journal"][:5] == original["journal"][:5]
    assert [r["action"] for r in exported["journal"]] == [r["action"] for r in original["journal"]]
    # The exported home works as a home.
    with SessionStore(back / "sessions.db") as lite:
        assert len(lite.search("viola")) == 1
    provider = LocalProvider(back, embedder=embedder)
    provider.initialize("x", user_id="sam")
    assert provider.search("cello", 1).hits[0].speaker == "user"
    provider.shutdown()


def test_import_and_export_refuse_to_overwrite(pg_dsn: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    MemoryStore(home).add("memory", "a fact")
    assert run("db", "import", "--from-home", str(home), "--dsn", pg_dsn)[0] == 0
    code, _, err = run("db", "import", "--from-home", str(home), "--dsn", pg_dsn)
    assert code == 1 and "already holds notes of profile 'default'" in err and "nothing was changed" in err
    code, _, err = run("db", "export", "--to-home", str(home), "--dsn", pg_dsn)
    assert code == 1 and "already holds" in err and "nothing was written" in err
    code, _, err = run("db", "import", "--from-home", str(tmp_path / "nope"), "--dsn", pg_dsn)
    assert code == 1 and "is not a directory" in err


def test_migrate_and_the_start_up_check(pg_server: PgServer, tmp_path: Path) -> None:
    dsn = pg_server.empty_database()
    try:
        with pytest.raises(ConfigError, match="run `silcrow db migrate`"):
            MemoryStore(backend=PostgresBackend(dsn)).entries("memory")
        home = tmp_path / "home"
        home.mkdir()
        config = f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n'
        (home / "config.toml").write_text(config, encoding="utf-8")
        code, _, err = run("--home", str(home), "memory", "show")
        assert code == 1 and "schema version 0" in err and "silcrow db migrate" in err
        code, _, err = run("--home", str(home), "db", "status")
        assert code == 1 and "silcrow db migrate" in err
        code, out, err = run("--home", str(home), "db", "migrate", "--json")
        assert code == 0, err
        assert json.loads(out)["applied"] == [v for v, _, _ in schema.MIGRATIONS]
        code, out, _ = run("--home", str(home), "db", "migrate")
        assert code == 0 and "already up to date" in out
        assert run("--home", str(home), "memory", "add", "works now")[0] == 0
        code, out, _ = run("--home", str(home), "memory", "show")
        assert code == 0 and "works now" in out
    finally:
        pg_server.drop(dsn)


def test_clear_errors_without_a_database(tmp_path: Path) -> None:
    code, _, err = run("--home", str(tmp_path), "db", "migrate")
    assert code == 1 and "no database is configured" in err and "SILCROW_DATABASE_URL" in err
    (tmp_path / "config.toml").write_text('[storage]\nbackend = "postgres"\n', encoding="utf-8")
    code, _, err = run("--home", str(tmp_path), "memory", "show")
    assert code == 1 and "needs dsn" in err
    (tmp_path / "config.toml").write_text('[storage]\nbackend = "mysql"\n', encoding="utf-8")
    code, _, err = run("--home", str(tmp_path), "memory", "show")
    assert code == 1 and "storage.backend" in err and "one of files, postgres" in err
    bad = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"
    code, _, err = run("--home", str(tmp_path), "db", "status", "--dsn", bad)
    assert code == 1 and "cannot connect to PostgreSQL" in err and "127.0.0.1:1" in err


def test_import_refuses_a_profile_name_no_profile_option_could_select(pg_dsn: str, tmp_path: Path) -> None:
    # Imported under "my work" (or "../x"), the notes would sit in the database where no
    # `--profile` can reach them.
    home = tmp_path / "home"
    assert MemoryStore(home).add("memory", "a note to move")["success"]
    for name in ("my work", "../x", ""):
        code, _, err = run("--home", str(tmp_path / "other"), "db", "import", "--from-home", str(home),
                           "--profile-name", name, "--dsn", pg_dsn)
        assert code == 2, err
        assert "invalid profile name" in err
        code, _, err = run("--home", str(tmp_path / "other"), "db", "export", "--to-home",
                           str(tmp_path / "out"), "--profile-name", name, "--dsn", pg_dsn)
        assert code == 2, err
    assert MemoryStore(backend=PostgresBackend(pg_dsn, "my work")).entries("memory") == []


def test_show_after_switching_to_postgres_says_where_the_file_notes_are(pg_dsn: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert MemoryStore(home).add("memory", "a note written before the switch")["success"]
    config = f'[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n'
    (home / "config.toml").write_text(config, encoding="utf-8")
    code, out, err = run("--home", str(home), "memory", "show")
    assert code == 0 and "a note written" not in out
    assert str(home / "memories" / "MEMORY.md") in err and f"silcrow db import --from-home {home}" in err
    code, _, err = run("--home", str(home), "db", "import", "--from-home", str(home))
    assert code == 0, err
    code, out, err = run("--home", str(home), "memory", "show")
    assert code == 0 and "a note written before the switch" in out and "db import" not in err


def test_import_and_export_carry_entry_metadata_and_the_archive(pg_dsn: str, tmp_path: Path) -> None:
    source, back = tmp_path / "source", tmp_path / "back"
    store = MemoryStore(source)
    store.add("user", "Answers in French", origin="cli")
    store.add("user", "Allergic to penicillin", origin="tool")
    store.remove("user", "penicillin", origin="cli")
    store.load()
    store.note_prompt_use("s1")
    details, archived = store.details("user"), store.archived()
    code, _, err = run("--home", str(source), "db", "import", "--from-home", str(source), "--dsn", pg_dsn)
    assert code == 0, err
    shared = MemoryStore(backend=PostgresBackend(pg_dsn))
    assert shared.details("user") == details and shared.archived() == archived
    code, _, err = run("db", "export", "--to-home", str(back), "--dsn", pg_dsn)
    assert code == 0, err
    exported = MemoryStore(back)
    assert exported.details("user") == details and exported.archived() == archived
    assert exported.details("user")["user"][0]["prompt_sessions"] == 1


def _langgraph_items(home: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(home / "langgraph.db")
    try:
        return conn.execute("SELECT prefix, key, value, created_at, updated_at FROM items"
                            " ORDER BY prefix, key").fetchall()
    finally:
        conn.close()


def test_import_and_export_carry_the_langgraph_store(pg_dsn: str, tmp_path: Path, embedder: Embedder) -> None:
    from silcrow.integrations.langgraph import SilcrowStore

    source, shared, back = tmp_path / "source", tmp_path / "shared", tmp_path / "back"
    for home in (source, shared):
        home.mkdir()
    (source / "config.toml").write_text('embedder = "onnx"\n', encoding="utf-8")
    (shared / "config.toml").write_text(
        f'embedder = "onnx"\n[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n', encoding="utf-8")
    items = {
        (("users", "alice"), "hike"): {"text": "Spends weekends hiking in the Alps"},
        (("users", "alice"), "food"): {"text": "Favourite dish is salmon sushi", "n": 2, "tags": ["x"]},
        (("users", "bob"), "job"): {"text": "Works night shifts as a nurse at the city hospital"},
        (("pets",), "miso"): {"text": "A grey cat called Miso", "age": None},
    }
    with SilcrowStore(home=source) as store:
        for (namespace, key), value in items.items():
            store.put(namespace, key, value)
        store.put(("users", "alice"), "raw", {"text": "Eats sushi daily"}, index=False)
        before = {(ns, key): store.get(ns, key) for ns, key in [*items, (("users", "alice"), "raw")]}
    # Another profile already holds recall ids 1.., so the imported memories get new ids and the
    # items' links to them must follow.
    other = PostgresRecall(pg_dsn, embedder, profile="other")
    other.ingest([RecallRecord(text=f"someone else's memory {n}", kind="fact") for n in range(8)],
                 (None, None))
    other.close()

    code, out, err = run("--home", str(source), "db", "import", "--from-home", str(source), "--dsn", pg_dsn,
                         "--json")
    assert code == 0, err
    assert json.loads(out)["langgraph_items"] == 5

    def check(store: SilcrowStore) -> None:
        for (ns, key), item in before.items():
            got = store.get(ns, key)
            assert got is not None and item is not None
            assert (got.value, got.created_at, got.updated_at) == (
                item.value, item.created_at, item.updated_at)
        assert sorted(store.list_namespaces()) == [("pets",), ("users", "alice"), ("users", "bob")]
        found = store.search(("users", "alice"), query="what does she like to eat?")
        assert found[0].key == "food" and found[0].score is not None and found[0].score > 0
        assert found[-1].key == "raw" and found[-1].score is None
        assert store.search((), query="animals at home", limit=1)[0].key == "miso"
        assert store.search(("users",), query="medical career", limit=1)[0].key == "job"

    with SilcrowStore(home=shared) as store:
        check(store)

    code, out, err = run("db", "export", "--to-home", str(back), "--dsn", pg_dsn, "--json")
    assert code == 0, err
    assert json.loads(out)["langgraph_items"] == 5
    assert _langgraph_items(back) == _langgraph_items(source)
    (back / "config.toml").write_text('embedder = "onnx"\n', encoding="utf-8")
    with SilcrowStore(home=back) as store:
        check(store)
    code, _, err = run("db", "export", "--to-home", str(back), "--dsn", pg_dsn)
    assert code != 0 and "langgraph.db" in err
