from pathlib import Path

import pytest

from silcrow.config import load_settings
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
