from pathlib import Path

import pytest

from silcrow._paths import resolve_home
from silcrow.errors import ConfigError


def test_home_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "h"))
    assert resolve_home() == tmp_path / "h"
    assert resolve_home(None, "work") == tmp_path / "h" / "profiles" / "work"


@pytest.mark.parametrize("bad", ["..", "../x", "a/b", "", ".hidden", "a\\b", "x" * 65])
def test_profile_names_are_validated(bad: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="invalid profile name"):
        resolve_home(tmp_path, bad)


@pytest.mark.parametrize("bad", ["abc\n", "work\n", "a\nb"])
def test_profile_name_with_a_trailing_newline_is_refused(bad: str, tmp_path: Path) -> None:
    # A "^...$" regex with re.match accepts "abc\n": "$" matches before a final newline.
    with pytest.raises(ConfigError, match="invalid profile name"):
        resolve_home(tmp_path, bad)
