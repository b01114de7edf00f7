"""The composition root: one function opens a home or profile, its settings and its storage."""

from __future__ import annotations

from pathlib import Path

import pytest

from silcrow import MemoryStore
from silcrow.errors import ConfigError
from silcrow.home import open_profile


def _config(directory: Path, text: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.toml").write_text(text, encoding="utf-8")


def test_default_profile_is_the_home_itself(tmp_path: Path) -> None:
    assert open_profile(tmp_path, "default").path == open_profile(tmp_path).path == tmp_path.absolute()
    work = open_profile(tmp_path, "work")
    assert (work.path, work.home, work.name) == (tmp_path / "profiles" / "work", tmp_path, "work")
    # A profile's directory opens as that profile of its home, whichever way it is named.
    assert open_profile(work.path).name == "work"


def test_a_profile_inherits_the_home_settings_and_may_override_them(tmp_path: Path) -> None:
    _config(tmp_path, 'memory_char_limit = 900\nprovider = "none"\n[recall.mem0]\nuser_id = "a"\n')
    _config(tmp_path / "profiles" / "work", "memory_char_limit = 500\n")
    work = open_profile(tmp_path, "work", environ={})
    assert work.settings.memory_char_limit == 500
    assert work.settings.provider == "none"
    assert work.settings.table("recall.mem0") == {"user_id": "a"}
    assert open_profile(tmp_path, environ={}).settings.memory_char_limit == 900


def test_a_profile_inherits_the_home_storage(tmp_path: Path) -> None:
    _config(tmp_path, '[storage]\nbackend = "postgres"\ndsn = "postgresql://u@h/db"\n')
    work = open_profile(tmp_path, "work", environ={})
    assert (work.storage.backend, work.storage.dsn) == ("postgres", "postgresql://u@h/db")
    # ... and the environment's DSN selects PostgreSQL by itself.
    plain = open_profile(tmp_path / "other", environ={"SILCROW_DATABASE_URL": "postgresql://e@h/db"})
    assert plain.storage.dsn == "postgresql://e@h/db"


def test_a_blank_database_url_is_unset(tmp_path: Path) -> None:
    """``export SILCROW_DATABASE_URL=" "`` must not select PostgreSQL on libpq's defaults."""
    files = open_profile(tmp_path, environ={"SILCROW_DATABASE_URL": "   "})
    assert files.storage.backend == "files"


def test_postgres_without_a_dsn_is_a_clear_error(tmp_path: Path) -> None:
    _config(tmp_path, '[storage]\nbackend = "postgres"\n')
    with pytest.raises(ConfigError, match="needs dsn"):
        open_profile(tmp_path, "work", environ={})


def test_memory_store_of_a_home_takes_its_limits(tmp_path: Path) -> None:
    _config(tmp_path, "memory_char_limit = 321\n")
    store = MemoryStore(tmp_path)
    assert store.char_limit("memory") == 321
    assert MemoryStore(tmp_path, memory_char_limit=99).char_limit("memory") == 99


def test_memory_store_of_a_postgres_home_writes_to_postgres(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SILCROW_DATABASE_URL", raising=False)
    _config(tmp_path, f'[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n')
    MemoryStore(tmp_path).add("memory", "the home writes to the database")
    MemoryStore(tmp_path / "profiles" / "work").add("memory", "the profile does too")
    assert not (tmp_path / "memories").exists()
    assert not (tmp_path / "profiles" / "work" / "memories").exists()
    from silcrow.store import PostgresBackend

    home_notes = MemoryStore(backend=PostgresBackend(pg_dsn, "default")).entries("memory")
    work_notes = MemoryStore(backend=PostgresBackend(pg_dsn, "work")).entries("memory")
    assert home_notes == ["the home writes to the database"]
    assert work_notes == ["the profile does too"]


def test_an_old_profiles_default_directory_is_not_silently_hidden(tmp_path: Path) -> None:
    (tmp_path / "profiles" / "default" / "memories").mkdir(parents=True)
    with pytest.raises(ConfigError, match="move its files into"):
        open_profile(tmp_path, "default")
    assert open_profile(tmp_path).path == tmp_path.absolute()  # the home itself still opens


def test_a_profile_overrides_a_home_setting_whichever_table_either_file_keeps_it(tmp_path: Path) -> None:
    # A key means the same in any table, so a profile's line wins wherever each file puts it.
    _config(tmp_path, '[memory]\nwrite_policy = "approve"\n[agent]\nnudge_interval = 3\n')
    _config(tmp_path / "profiles" / "work", "[memory]\nnudge_interval = 0\n")
    work = open_profile(tmp_path, "work", environ={})
    assert work.settings.agent.nudge_interval == 0
    assert work.settings.write_policy == "approve"
    _config(tmp_path, '[model]\nmodel = "m"\n[recall]\nembedder_model = "home-model"\n')
    _config(tmp_path / "profiles" / "work", '[model]\nembedder_model = "work-model"\n')
    assert open_profile(tmp_path, "work", environ={}).settings.embedder_model == "work-model"


@pytest.mark.parametrize("home_text, message", [
    ('memory_char_limit = "x"\n', "memory_char_limit must be"),
    ("colour = 1\n", "unknown setting 'colour'"),
    ('[storage]\nbackend = "pg"\n', "storage.backend must be"),
    ('[storage]\nbackend = "postgres"\n', "needs dsn"),
])
def test_an_error_in_the_home_config_names_the_home_config(
    tmp_path: Path, home_text: str, message: str
) -> None:
    # The profile has a config.toml of its own: the message must still send the user to the
    # file that holds the bad line, the home's.
    _config(tmp_path, home_text)
    _config(tmp_path / "profiles" / "work", 'model = "m"\n')
    with pytest.raises(ConfigError, match=message) as caught:
        open_profile(tmp_path, "work", environ={})
    assert str(tmp_path / "config.toml") in str(caught.value)


def test_the_recall_provider_of_a_profile_uses_the_storage_it_was_opened_with(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The DSN was given to open_profile (a flag, or an environment of its own), not in any file:
    # the notes are in the database, so recall must be there too, not in a recall.db beside them.
    from silcrow.recall.local import PostgresRecall

    monkeypatch.delenv("SILCROW_DATABASE_URL", raising=False)
    for opened in (open_profile(tmp_path, "work", dsn=pg_dsn, environ={}),
                   open_profile(tmp_path, "play", environ={"SILCROW_DATABASE_URL": pg_dsn})):
        assert opened.store().location("memory").startswith(f"MEMORY.md of profile {opened.name!r}")
        provider = opened.provider("local", embedder="none")
        assert provider is not None
        provider.initialize("s1", home=str(opened.path))
        try:
            assert isinstance(provider.store, PostgresRecall)  # type: ignore[attr-defined]
        finally:
            provider.shutdown()
        assert not (opened.path / "recall.db").exists()


def test_an_agent_of_a_home_takes_its_limits_as_memory_store_does(tmp_path: Path) -> None:
    from silcrow import Agent

    _config(tmp_path, "memory_char_limit = 321\nuser_char_limit = 123\n")
    agent = Agent(home=tmp_path, provider="none", api_key="unused", base_url="http://127.0.0.1:9")
    try:
        limits = (agent.notes.char_limit("memory"), agent.notes.char_limit("user"))
    finally:
        agent.close()
    assert limits == (321, 123) == (MemoryStore(tmp_path).char_limit("memory"),
                                    MemoryStore(tmp_path).char_limit("user"))
    given = Agent(home=tmp_path, provider="none", api_key="unused", base_url="http://127.0.0.1:9",
                  memory_char_limit=99)
    try:
        assert given.notes.char_limit("memory") == 99
    finally:
        given.close()


def test_open_profile_reads_the_home_from_the_environ_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "bogus"))
    given = tmp_path / "given"
    profile = open_profile(environ={"SILCROW_HOME": str(given)})
    assert profile.path == given.absolute() and profile.home == given.absolute()


def test_an_agent_given_an_opened_profile_uses_its_storage_and_settings(pg_dsn: str, tmp_path: Path) -> None:
    # The DSN is in no file: an agent that opened the home again would write beside it, in files.
    from silcrow import Agent
    from silcrow.recall.local import PostgresRecall

    opened = open_profile(tmp_path, "work", dsn=pg_dsn, environ={})
    agent = Agent(profile=opened, provider="local", embedder="none", api_key="unused",
                  base_url="http://127.0.0.1:9")
    try:
        assert agent.home == opened.path
        assert agent.notes.location("memory").startswith("MEMORY.md of profile 'work'")
        assert isinstance(agent.provider.store, PostgresRecall)  # type: ignore[union-attr]
    finally:
        agent.close()
    assert not (opened.path / "memories").exists() and not (opened.path / "recall.db").exists()
    with pytest.raises(ConfigError, match="not both"):
        Agent(home=tmp_path, profile=opened, provider="none")


def test_a_provider_of_a_profile_takes_its_settings_from_the_profile(tmp_path: Path) -> None:
    # config.toml is read when the profile is opened, once: a provider does not read it again.
    _config(tmp_path, '[recall.holographic]\nmin_trust_threshold = 0.25\n')
    opened = open_profile(tmp_path, environ={})
    _config(tmp_path, '[recall.holographic]\nmin_trust_threshold = 0.75\n')
    provider = opened.provider("holographic")
    assert provider is not None
    assert provider.config["min_trust_threshold"] == 0.25  # type: ignore[attr-defined]
    assert open_profile(tmp_path, environ={}).provider("holographic").config[  # type: ignore[union-attr]
        "min_trust_threshold"] == 0.75


def test_silcrow_chat_reads_the_profile_once(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from silcrow.testing import ScriptedModelServer

    home = tmp_path / "home"
    _config(home, 'embedder = "none"\n')
    driver = (
        "import sys\n"
        "import silcrow.config as config\n"
        "reads = []\n"
        "real = config.read_settings\n"
        "def counted(path):\n"
        "    reads.append(path)\n"
        "    return real(path)\n"
        "config.read_settings = counted\n"
        "from silcrow.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    print(f'settings read {len(reads)} time(s)', file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SILCROW_"))}
    with ScriptedModelServer([], default={"content": "ok"}) as server:
        env.update({"SILCROW_HOME": str(home), "HOME": str(tmp_path), "OPENAI_BASE_URL": server.base_url})
        proc = subprocess.run([sys.executable, "-c", driver, "chat"], input="/quit\n", capture_output=True,
                              text=True, encoding="utf-8", env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "settings read 1 time(s)" in proc.stderr
