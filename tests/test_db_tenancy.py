"""Profiles sharing one PostgreSQL database keep their recall memories and sessions apart:
through the CLI, the library, `silcrow serve` (REST and MCP, one token per profile), import and
export, and after migrating a database made before recall and sessions had an owner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import psycopg
import pytest
from pg_support import PgServer
from serve_support import CONFIG, http_client, tokens
from test_cli_recall import MESSAGES, run, write_jsonl

from silcrow import schema
from silcrow.db import migrate
from silcrow.models import get_embedder
from silcrow.recall.local import PostgresRecall
from silcrow.schema import database
from silcrow.serve import ServerProcess
from silcrow.sessions import PostgresSessions


def _root(root: Path, dsn: str, profiles: tuple[str, ...]) -> Path:
    """A base home whose profiles all use the database ``dsn``."""
    storage = f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n'
    for home in (root, *(root / "profiles" / p for p in profiles)):
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(CONFIG + storage, encoding="utf-8")
    return root


def _cli(root: Path, profile: str, *args: str) -> Any:
    code, out, err = run("--home", str(root), "--profile", profile, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_profile_never_recalls_or_lists_what_another_stored(pg_dsn: str, tmp_path: Path) -> None:
    root = _root(tmp_path / "base", pg_dsn, ("alice", "bob"))
    chat = write_jsonl(tmp_path / "chat.jsonl", MESSAGES)
    assert _cli(root, "alice", "recall", "ingest", str(chat))["stored"] == len(MESSAGES)
    found = _cli(root, "alice", "recall", "search", "Pixel kitten", "-k", "3")
    assert found and "Pixel" in found[0]["text"]
    assert _cli(root, "bob", "recall", "search", "Pixel kitten", "-k", "3") == []
    assert _cli(root, "bob", "recall", "stats")["memories"] == 0
    # The same conversation is new to bob: identity is per profile, not database-wide.
    again = _cli(root, "bob", "recall", "ingest", str(chat))
    assert (again["stored"], again["duplicates"]) == (len(MESSAGES), 0)
    # bob forgetting everything about Pixel leaves alice's memories alone.
    code, _, err = run("--home", str(root), "--profile", "bob", "recall", "forget", "Pixel", "--yes")
    assert code == 0, err
    assert "Pixel" in _cli(root, "alice", "recall", "search", "Pixel kitten", "-k", "1")[0]["text"]

    alice = PostgresSessions(pg_dsn, "alice")
    sid = alice.create(title="the kiln plan")
    alice.append(sid, {"role": "user", "content": "the kiln goes in the garage"})
    assert [s["id"] for s in _cli(root, "alice", "sessions", "list")] == [sid]
    assert _cli(root, "bob", "sessions", "list") == []
    assert _cli(root, "bob", "sessions", "search", "kiln") == []
    code, _, err = run("--home", str(root), "--profile", "bob", "sessions", "show", sid)
    assert code == 1 and "no session" in err
    assert len(_cli(root, "alice", "sessions", "search", "kiln")) == 1


def test_sessions_with_the_same_id_in_two_profiles_stay_apart(pg_dsn: str) -> None:
    alice, bob = PostgresSessions(pg_dsn, "alice"), PostgresSessions(pg_dsn, "bob")
    sid = alice.create(title="alice's")
    alice.append(sid, {"role": "user", "content": "alice's secret is the blue door"})
    with database(pg_dsn).connect() as conn:  # as after importing one home into both profiles
        conn.execute("INSERT INTO silcrow.sessions (id, root_id, title, created_at, updated_at, profile)"
                     " SELECT id, root_id, 'bob''s', created_at, updated_at, 'bob' FROM silcrow.sessions")
    assert bob.messages(sid) == [] and bob.get(sid).title == "bob's"
    bob.append(sid, {"role": "user", "content": "bob's note"})
    assert [m["content"] for m in alice.messages(sid)] == ["alice's secret is the blue door"]
    assert bob.search("blue door") == [] and len(alice.search("blue door")) == 1
    branch = bob.branch(sid)
    assert [m["content"] for m in bob.messages(branch)] == ["bob's note"]
    assert [s.id for s in alice.list()] == [sid]


def test_import_and_export_move_one_profile(pg_dsn: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    chat = write_jsonl(tmp_path / "chat.jsonl", MESSAGES)
    code, _, err = run("--home", str(home), "recall", "ingest", str(chat), "--embedder", "none")
    assert code == 0, err
    for name in ("alice", "bob"):  # the same home twice: the second gets fresh memory ids
        code, out, err = run("db", "import", "--from-home", str(home), "--profile-name", name,
                             "--dsn", pg_dsn, "--json")
        assert code == 0, err
        assert json.loads(out)["memories"] == len(MESSAGES)
    code, _, err = run("db", "import", "--from-home", str(home), "--profile-name", "bob", "--dsn", pg_dsn)
    assert code == 1 and "of profile 'bob'" in err
    none = get_embedder("none")
    alice, bob = PostgresRecall(pg_dsn, none, "alice"), PostgresRecall(pg_dsn, none, "bob")
    [hit] = alice.search("Lisbon", 1, (None, None))
    assert bob.delete([hit.id]) == 0 and alice.search("Lisbon", 1, (None, None)) == [hit]
    assert bob.delete(bob.find_ids(_everything(), (None, None))) == len(MESSAGES)
    code, out, err = run("db", "export", "--to-home", str(tmp_path / "bob"), "--profile-name", "bob",
                         "--dsn", pg_dsn, "--json")
    assert code == 0 and json.loads(out)["memories"] == 0, err
    code, out, err = run("db", "export", "--to-home", str(tmp_path / "alice"), "--profile-name", "alice",
                         "--dsn", pg_dsn, "--json")
    assert code == 0 and json.loads(out)["memories"] == len(MESSAGES), err


def _everything() -> Any:
    from silcrow.recall.local import MemoryFilter

    return MemoryFilter(contains="")


@pytest.mark.slow
def test_a_token_never_reaches_another_profiles_recall_or_sessions(pg_dsn: str, tmp_path: Path) -> None:
    root = _root(tmp_path / "base", pg_dsn, ("a", "b"))
    keys = tokens(root)
    a_sessions = PostgresSessions(pg_dsn, "a")
    sid = a_sessions.create(title="private")
    a_sessions.append(sid, {"role": "user", "content": "the safe code is hidden under the kiln"})
    chat = write_jsonl(tmp_path / "chat.jsonl", MESSAGES)
    _cli(root, "a", "recall", "ingest", str(chat))
    with ServerProcess(root) as server:
        a = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['a']}"})
        b = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {keys['b']}"})
        added = a.post("/v1/recall", json={"text": "The spare key is in the blue teapot."})
        assert added.is_success, added.text
        found = a.post("/v1/recall/search", json={"query": "spare key teapot", "k": 3}).json()
        assert "teapot" in json.dumps(found)
        ids = [r["id"] for r in found["results"]]
        for query in ("spare key teapot", "Pixel kitten", "Lisbon marathon"):
            shown = b.post("/v1/recall/search", json={"query": query, "k": 5})
            assert shown.is_success and shown.json()["results"] == [], shown.text
        gone = b.delete(f"/v1/recall/{ids[0]}")
        assert gone.status_code == 404
        assert "teapot" in a.post("/v1/recall/search", json={"query": "teapot", "k": 1}).text
        assert "kiln" in a.get("/v1/sessions/search", params={"q": "kiln"}).text
        shown = b.get("/v1/sessions/search", params={"q": "kiln"})
        assert shown.is_success and shown.json()["results"] == [] and sid not in shown.text

        async def over_mcp() -> None:
            async with http_client(server.url, keys["b"]) as client:
                for name, args in (("recall_search", {"query": "teapot", "k": 5}),
                                   ("recall_search", {"query": "Pixel kitten", "k": 5}),
                                   ("session_search", {"query": "kiln"})):
                    result = await client.call_tool(name, args)
                    assert not result.is_error and result.structured_content
                    assert result.structured_content["results"] == [], result.structured_content
                result = await client.call_tool("recall_forget", {"id": ids[0]})
                assert result.structured_content and result.structured_content.get("removed", 0) == 0
            async with http_client(server.url, keys["a"]) as client:
                result = await client.call_tool("recall_search", {"query": "teapot", "k": 1})
                assert "teapot" in result.content[0].text  # type: ignore[union-attr]
                result = await client.call_tool("session_search", {"query": "kiln"})
                assert "kiln" in result.content[0].text  # type: ignore[union-attr]

        anyio.run(over_mcp)
        assert server.alive()


def _version_1_database(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> str:
    dsn = pg_server.empty_database()
    assert migrate(database(dsn), schema.MIGRATIONS[:1]) == [1]
    return dsn


def _fill_version_1(dsn: str, note_profiles: tuple[str, ...]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET search_path = silcrow, public")
        for profile in note_profiles:
            conn.execute(
                "INSERT INTO curated_notes (profile, target_file, body) VALUES (%s, 'MEMORY.md', 'x')",
                (profile,),
            )
        fact = "The boat is moored at pier nine."
        conn.execute(
            "INSERT INTO recall_memories (kind, text, content_hash, created_at, body)"
            " VALUES ('fact', %s, 'h1', 0, %s)", (fact, fact)
        )
        conn.execute("INSERT INTO sessions (id, root_id, title, created_at, updated_at)"
                     " VALUES ('s1', 's1', 'boats', '2026-01-01', '2026-01-01'),"
                     " ('s2', 's1', 'boats 2', '2026-01-02', '2026-01-02')")
        conn.execute("UPDATE sessions SET parent_id = 's1' WHERE id = 's2'")
        conn.execute("INSERT INTO messages (session_id, seq, role, content, created_at)"
                     " VALUES ('s1', 1, 'user', 'the boat is at pier nine', '2026-01-01')")


@pytest.mark.parametrize(("note_profiles", "owner"), [(("alice",), "alice"), (("alice", "bob"), "default")])
def test_migration_2_gives_old_rows_the_profile_they_came_from(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch, note_profiles: tuple[str, ...], owner: str
) -> None:
    dsn = _version_1_database(pg_server, monkeypatch)
    try:
        _fill_version_1(dsn, note_profiles)
        with pytest.raises(Exception, match="schema version 1"):
            PostgresSessions(dsn, owner)
        assert schema.migrate(database(dsn)) == [v for v, _, _ in schema.MIGRATIONS if v > 1]
        assert schema.check_schema(database(dsn)) == schema.SCHEMA_VERSION
        none = get_embedder("none")
        others = "bob" if owner != "bob" else "carol"
        [hit] = PostgresRecall(dsn, none, owner).search("boat pier", 5, (None, None))
        assert hit.text == "The boat is moored at pier nine."
        with psycopg.connect(dsn) as conn:  # migration 4 counted the rows that were there
            counted = conn.execute("SELECT profile, memories FROM silcrow.recall_counts").fetchall()
        assert counted == [(owner, 1)]
        with psycopg.connect(dsn) as conn:  # and migration 8 their words
            words = conn.execute("SELECT profile, lexeme, memories FROM silcrow.recall_terms"
                                 " WHERE lexeme IN ('boat', 'pier', 'moor') ORDER BY lexeme").fetchall()
        assert words == [(owner, "boat", 1), (owner, "moor", 1), (owner, "pier", 1)]
        assert PostgresRecall(dsn, none, others).search("boat pier", 5, (None, None)) == []
        mine = PostgresSessions(dsn, owner)
        assert [s.id for s in mine.list()] == ["s2", "s1"] and mine.get("s2").parent_id == "s1"
        assert [m["content"] for m in mine.messages("s1")] == ["the boat is at pier nine"]
        assert len(mine.search("pier")) == 1
        theirs = PostgresSessions(dsn, others)
        assert theirs.list() == [] and theirs.search("pier") == []
        # New rows after the migration take their profile from the connection, never nothing.
        with psycopg.connect(dsn, autocommit=True) as conn, pytest.raises(psycopg.Error):
            conn.execute("INSERT INTO silcrow.sessions (id, root_id, created_at, updated_at)"
                         " VALUES ('s3', 's3', 'now', 'now')")
    finally:
        pg_server.drop(dsn)


def test_importing_vectors_of_another_model_leaves_them_to_the_databases_model(
    pg_dsn: str, tmp_path: Path
) -> None:
    from silcrow.recall.local import RecallRecord, RecallStore

    home = tmp_path / "home"
    onnx = get_embedder("onnx")
    store = RecallStore(home / "recall.db", onnx)
    store.ingest([RecallRecord(text="The boat is moored at pier nine.", kind="fact")], (None, None))
    store.close()
    with database(pg_dsn).connect() as conn:  # another profile's memories were embedded by another model
        conn.execute("INSERT INTO silcrow.recall_meta (key, value) VALUES ('embedder', 'other-model/384')")
    code, out, err = run("db", "import", "--from-home", str(home), "--profile-name", "alice",
                         "--dsn", pg_dsn, "--json")
    assert code == 0, err
    assert (json.loads(out)["memories"], json.loads(out)["vectors"]) == (1, 0)
    with database(pg_dsn).connect() as conn:
        meta = conn.execute("SELECT value FROM silcrow.recall_meta WHERE key = 'embedder'").fetchone()
        bare = conn.execute("SELECT count(*) FROM silcrow.recall_memories WHERE embedding IS NULL").fetchone()
    assert (meta[0], bare[0]) == ("other-model/384", 1)
