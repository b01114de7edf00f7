import os
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from silcrow.config import ENV_VARS, AgentSettings, PositiveInt, Settings, env_value, load_settings
from silcrow.errors import ConfigError


def test_precedence_flags_env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.toml").write_text(
        'model = "from-file"\nprovider = "local"\n[memory]\nmemory_char_limit = 3000\n', encoding="utf-8"
    )
    monkeypatch.delenv("SILCROW_MODEL", raising=False)
    assert load_settings(tmp_path).model == "from-file"
    assert load_settings(tmp_path).memory_char_limit == 3000
    monkeypatch.setenv("SILCROW_MODEL", "from-env")
    assert load_settings(tmp_path).model == "from-env"
    assert load_settings(tmp_path, model="from-flag").model == "from-flag"


@pytest.mark.parametrize(
    "body", ['memory_char_limit = "x"', "memory_char_limit = -5", "model = 3", "model = ["]
)
def test_bad_settings_are_config_errors(tmp_path: Path, body: str) -> None:
    (tmp_path / "config.toml").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="config.toml"):
        load_settings(tmp_path)


def test_embedder_spec_builds_the_configured_embedder_with_its_settings() -> None:
    from silcrow.models import OpenAIEmbedder

    plain = Settings(embedder="onnx")
    assert plain.embedder_spec() == "onnx" and plain.embedder_spec("none") == "none"
    remote = Settings(embedder="openai", embedder_model="nomic-embed-text",
                      embedder_url="http://127.0.0.1:11434/v1", api_key="sk-test")
    built = remote.embedder_spec()
    assert isinstance(built, OpenAIEmbedder)  # constructing it makes no request
    assert built.name == "openai:nomic-embed-text"
    assert built._url == "http://127.0.0.1:11434/v1/embeddings"
    assert built._client.headers["Authorization"] == "Bearer sk-test"
    assert remote.embedder_spec("none") == "none"  # another embedder does not get these settings


def test_the_documented_config_example_is_valid(tmp_path: Path) -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")
    example = page.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "config.toml").write_text(example, encoding="utf-8")
    settings = Settings.from_toml(tmp_path)
    assert settings.provider == "local" and settings.embedder == "bge" and settings.reranker == "none"
    assert settings.base_url == "http://localhost:11434/v1"
    options = settings.agent.kwargs()
    assert options["replay_recall"] is True and options["compress_threshold"] == 0.75
    assert set(options) == {f.name for f in fields(AgentSettings)}  # the example shows every option
    assert settings.tables == {}  # every key is a modelled setting


@pytest.mark.parametrize("body", ["memory_char_limit = 0", "user_char_limit = -5", "memory_char_limit = 2.5",
                                  "memory_char_limit = true"])
def test_a_bad_limit_says_it_must_be_a_positive_whole_number(tmp_path: Path, body: str) -> None:
    (tmp_path / "config.toml").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="must be a positive whole number") as info:
        load_settings(tmp_path)
    assert "expected int" not in str(info.value)


def test_agent_options_are_typed_wherever_they_stand(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        "nudge_interval = 0\n[agent]\ncompress_threshold = 1\nreplay_recall = false\n", encoding="utf-8"
    )
    agent = load_settings(tmp_path).agent
    assert agent.kwargs() == {"nudge_interval": 0, "compress_threshold": 1.0, "replay_recall": False}
    assert AgentSettings().kwargs() == {}  # nothing set: the Agent keeps its own defaults


@pytest.mark.parametrize(("body", "message"), [
    ("[agent]\nnudge_interval = \"often\"", "nudge_interval must be a whole number (0 or more), got 'often'"),
    ("compress_threshold = 1.5", "compress_threshold must be a number above 0 and at most 1"),
    ("replay_recall = 1", "replay_recall must be true or false, got 1"),
    ("memory_char_limt = 3000", "unknown setting 'memory_char_limt'"),
    ("[recall]\nprovidr = \"local\"", "unknown setting 'providr'"),
])
def test_a_bad_value_names_the_key_and_what_it_must_be(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "config.toml").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path)
    assert message in str(info.value) and str(tmp_path / "config.toml") in str(info.value)


@dataclass(frozen=True)
class StorageSection:
    """A section another module owns, as such a module would declare it."""

    backend: str = "files"
    dsn: str | None = None
    pool_size: PositiveInt = 4


def test_other_tables_are_kept_raw_for_the_module_that_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.toml").write_text(
        '[storage]\nbackend = "postgres"\n[recall]\nprovider = "mem0"\n[recall.mem0]\nuser = "sam"\n',
        encoding="utf-8",
    )
    monkeypatch.delenv("SILCROW_DATABASE_URL", raising=False)
    settings = load_settings(tmp_path)
    assert settings.provider == "mem0" and settings.table("recall.mem0") == {"user": "sam"}
    assert settings.table("serve") == {} and settings.table("recall.none") == {}
    assert settings.section("storage", StorageSection) == StorageSection(backend="postgres")
    # A module that takes an environment variable registers it with its dotted key.
    monkeypatch.setitem(ENV_VARS, "SILCROW_DATABASE_URL", "storage.dsn")
    monkeypatch.setenv("SILCROW_DATABASE_URL", "postgresql://db/silcrow")
    assert load_settings(tmp_path).section("storage", StorageSection).dsn == "postgresql://db/silcrow"
    (tmp_path / "config.toml").write_text('[storage]\npool_size = "many"\n', encoding="utf-8")
    expected = r"storage\.pool_size must be a positive whole number \(e\.g\. 2200\), got 'many'"
    with pytest.raises(ConfigError, match=expected):
        load_settings(tmp_path).section("storage", StorageSection)
    (tmp_path / "config.toml").write_text('[storage]\nbackend = 5\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"storage\.backend must be a string, got 5 \(in .*config\.toml\)"):
        load_settings(tmp_path).section("storage", StorageSection)
    (tmp_path / "config.toml").write_text('[storage]\nport = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown setting 'storage\.port' in .*config\.toml"):
        load_settings(tmp_path).section("storage", StorageSection)


def test_the_environment_is_read_in_one_place(monkeypatch: pytest.MonkeyPatch) -> None:
    from silcrow.agent._llm import resolve_credentials

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1234/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    assert env_value("base_url") == "http://127.0.0.1:1234/v1"
    assert resolve_credentials(None, None) == ("http://127.0.0.1:1234/v1", "sk-env")
    settings = Settings().with_env()
    assert (settings.base_url, settings.api_key) == ("http://127.0.0.1:1234/v1", "sk-env")
    assert Settings().with_env({"OPENAI_API_KEY": ""}).api_key is None  # empty means unset
    with pytest.raises(ConfigError, match="memory_char_limit must be a positive whole number"):
        Settings().with_overrides(memory_char_limit=0)


def test_a_provider_table_rejects_an_unknown_key_by_name(tmp_path: Path) -> None:
    from silcrow.providers._config import load_provider_config

    (tmp_path / "config.toml").write_text('[recall.honcho]\nworkspce = "x"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown setting 'workspce' in \[recall\.honcho\]"):
        load_provider_config("honcho", tmp_path, {"workspace": "", "timeout": 10}, {}, environ={})


def test_mem0_import_leaves_the_process_environment_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mem0")
    from silcrow.providers.mem0._backends import prepare_import

    monkeypatch.delenv("MEM0_DIR", raising=False)
    monkeypatch.delenv("MEM0_TELEMETRY", raising=False)
    prepare_import(tmp_path)
    assert "MEM0_DIR" not in os.environ and "MEM0_TELEMETRY" not in os.environ
    import mem0.memory.telemetry as telemetry

    assert telemetry.MEM0_TELEMETRY is False
