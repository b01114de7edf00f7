"""Shared fixtures: a real PostgreSQL server for the tests that need one (see pg_support), and a
user home and temporary directory of their own for the `make demo` walkthroughs."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pg_support
import pytest


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg_support.PgServer]:
    server = pg_support.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_dsn(pg_server: pg_support.PgServer) -> Iterator[str]:
    """The DSN of a fresh, migrated database on the test server."""
    dsn = pg_server.new_database()
    try:
        yield dsn
    finally:
        pg_server.drop(dsn)


# The behavioural tests of the curated store that are not about files also run on PostgreSQL:
# every door builds a profile's notes backend through store._store.notes_backend, and
# for "postgres" that name gives a PostgresBackend whose profile is the home directory, so
# every home of a test has notes of its own, as with files. Tests about files are listed out.
_BOTH_CURATED_BACKENDS = {"test_store_results.py", "test_store_snapshot.py", "test_store_history.py",
                          "test_tool.py", "test_store_gate.py", "test_store_upkeep.py", "test_gate_review.py"}
# They write or read MEMORY.md / the journal file by hand, or lock the sidecar file.
_ABOUT_FILES = {
    "test_a_hand_edit_keeps_what_matches_and_starts_fresh_otherwise",
    "test_entries_from_before_metadata_are_marked_unknown",
    "test_compaction_keeps_metadata_of_records_it_drops",
    "test_the_ledger_lives_beside_the_notes_privately",
    "test_a_file_that_would_not_round_trip_is_backed_up_before_a_rewrite",
    "test_no_match_lists_current_entries_sanitized",
    "test_ambiguous_match_previews_are_sanitized",
    "test_over_limit_refusal_lists_current_entries_sanitized",
    "test_batch_failure_echoes_sanitized_entries",
    "test_undo_refusal_lists_current_entries_sanitized",
    "test_drift_problems_do_not_echo_the_oversized_entry",
    "test_clean_entries_with_an_emoji_joiner_are_shown_with_visible_codes",
    "test_tool_results_echo_only_sanitized_entries",
    "test_lone_surrogates_are_refused_never_raised_never_written",
    "test_entries_flagged_at_load_are_blocked_in_the_prompt_but_kept_on_disk",
    "test_hidden_unicode_on_disk_is_blocked",
    "test_over_budget_file_is_marked_and_cut_to_head_and_tail",
    "test_over_budget_note_asks_to_consolidate_when_replace_and_remove_work",
    "test_over_budget_note_for_a_drifted_file_asks_for_the_user_not_a_consolidation",
    "test_undo_refuses_to_discard_a_change_made_outside_silcrow",
    "test_a_change_the_journal_missed_is_recorded_at_the_next_write",
    "test_a_torn_journal_line_is_skipped",
    "test_the_journal_is_compacted_to_its_newest_records",
    "test_last_record_reads_the_journal_backwards_across_chunks",
    "test_the_tool_never_raises",
    "test_lock_timeout_becomes_an_error_result",
    "test_records_are_stored_as_deltas_and_read_whole",
    "test_lone_surrogate_through_the_tool_is_a_json_refusal",
}


# `make check` runs the tests not marked slow, in about three minutes; `make test` runs them all.
# Slow, besides the tests marked one by one: whatever needs the real PostgreSQL (a server per
# run, a database per test), and these files, whose tests start servers, kill processes, load
# several models or fuzz (`pytest --durations=0` shows them at the top).
_SLOW_FILES = {
    "test_agent_bench.py", "test_cli_chat.py", "test_cli_gate.py", "test_coding_clients_real.py",
    "test_coding_connect.py", "test_coding_hooks.py", "test_coding_import.py", "test_demo_agent.py",
    "test_demo_memory.py", "test_embedders_bge.py", "test_embedders_e5.py", "test_gate_crash.py",
    "test_hermes_real.py", "test_hindsight_real.py", "test_import_fuzz.py", "test_integration_extras.py",
    "test_model_runs.py", "test_openviking_real.py", "test_packaging_imports.py", "test_private_files.py",
    "test_providers_bench.py", "test_recall_bench.py", "test_recall_local_concurrency.py",
    "test_startup.py", "test_store_any_file.py", "test_store_concurrency.py", "test_store_crash.py",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        callspec = getattr(item, "callspec", None)
        needs_postgres = ({"pg_server", "pg_dsn"} & set(getattr(item, "fixturenames", ()))
                          or (callspec is not None and "postgres" in callspec.params.values()))
        if name in _SLOW_FILES or name.startswith("test_serve_") or needs_postgres:
            item.add_marker(pytest.mark.slow)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.path.name in _BOTH_CURATED_BACKENDS:
        backends = ["files"] if metafunc.definition.originalname in _ABOUT_FILES else ["files", "postgres"]
        metafunc.parametrize("curated_storage", backends, indirect=True)


@pytest.fixture(autouse=True)
def curated_storage(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    backend = getattr(request, "param", "files")
    if backend == "postgres":
        from silcrow.config import ProfileSettings
        from silcrow.store import PostgresBackend

        dsn = request.getfixturevalue("pg_dsn")

        def notes_backend(where: ProfileSettings, **_: object) -> PostgresBackend:
            # One profile per home directory, so tests with several homes keep them apart.
            return PostgresBackend(dsn, profile=str(where.path.resolve()))

        # The one place a profile's notes are opened (MemoryStore(home), Profile.store(), the agent).
        monkeypatch.setattr("silcrow.store._store.notes_backend", notes_backend)
    return str(backend)


@pytest.fixture
def demo_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``(user home, TMPDIR)`` for a walkthrough: HOME is an empty directory (the `silcrow`
    subprocesses inherit it), no silcrow or model setting leaks in from the environment, and
    temporary directories go to a fresh TMPDIR, so a test can show nothing was left behind."""
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    for name in ("SILCROW_HOME", "SILCROW_PROFILE", "SILCROW_PROVIDER", "SILCROW_PROVIDERS",
                 "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    return user_home, scratch
