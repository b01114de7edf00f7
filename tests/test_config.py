from pathlib import Path

import pytest

from silcrow.config import AgentSettings, Settings, load_settings
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
    from silcrow.recall.embedders import OpenAIEmbedder

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


def test_the_readme_config_example_is_valid(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "config.toml").write_text(example, encoding="utf-8")
    settings = Settings.from_toml(tmp_path)
    assert settings.provider == "local" and settings.embedder == "onnx"
    assert settings.base_url == "http://localhost:11434/v1"
    options = settings.agent.kwargs()
    assert options["replay_recall"] is True and options["compress_threshold"] == 0.75
    assert set(options) == set(AgentSettings.model_fields)  # the example shows every agent option
    assert settings.tables == {}  # every key is a modelled setting


@pytest.mark.parametrize("body", ["memory_char_limit = 0", "user_char_limit = -5", "memory_char_limit = 2.5",
                                  "memory_char_limit = true"])
def test_a_bad_limit_says_it_must_be_a_positive_whole_number(tmp_path: Path, body: str) -> None:
    (tmp_path / "config.toml").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="must be a positive whole number") as info:
        load_settings(tmp_path)
    assert "expected int" not in str(info.value)
