"""Provider discovery through the `silcrow.providers` entry-point group.

Third-party plugins are simulated the way pip installs them: a real
``*.dist-info`` directory with ``entry_points.txt`` on ``sys.path``, found
by ``importlib.metadata`` exactly like an installed package.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from silcrow.errors import ProviderNotFoundError, RecallError
from silcrow.recall import MemoryProvider, available_providers, load_provider, provider_names

PLUGIN = textwrap.dedent(
    """
    from silcrow.recall import MemoryProvider

    class GoodProvider(MemoryProvider):
        name = "zz_good"
        def __init__(self, home=None, greeting="hi"):
            self.home, self.greeting = home, greeting
        def is_available(self):
            return True
        def initialize(self, session_id, **context):
            pass

    class OfflineProvider(GoodProvider):
        name = "zz_offline"
        def is_available(self):
            return False
        def unavailable_reason(self):
            return "needs the zz-client package: pip install zz-client"

    class NotAProvider:
        def __init__(self, **kwargs):
            pass
    """
)
ENTRY_POINTS = textwrap.dedent(
    """
    [silcrow.providers]
    zz_good = zz_plugin:GoodProvider
    zz_offline = zz_plugin:OfflineProvider
    zz_broken = zz_missing_module:Whatever
    zz_wrong = zz_plugin:NotAProvider
    """
)


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "zz_plugin.py").write_text(PLUGIN, encoding="utf-8")
    dist = tmp_path / "zz_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: zz-plugin\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_builtin_local_is_registered_like_a_plugin() -> None:
    assert "local" in provider_names()


def test_load_plugin_by_name_with_kwargs(plugins: Path) -> None:
    provider = load_provider("zz_good", home=plugins, greeting="hello")
    assert isinstance(provider, MemoryProvider)
    assert provider.name == "zz_good"
    assert provider.home == plugins and provider.greeting == "hello"  # type: ignore[attr-defined]


def test_unknown_name_lists_the_available_ones(plugins: Path) -> None:
    with pytest.raises(ProviderNotFoundError) as err:
        load_provider("nosuch")
    text = str(err.value)
    assert "'nosuch'" in text and "local" in text and "zz_good" in text
    assert "config.toml" in text and "--provider" in text


def test_broken_and_wrong_plugins_give_clear_errors(plugins: Path) -> None:
    with pytest.raises(RecallError, match="'zz_broken' .* could not be imported: ModuleNotFoundError"):
        load_provider("zz_broken")
    with pytest.raises(RecallError, match="made a NotAProvider, not a silcrow MemoryProvider"):
        load_provider("zz_wrong")
    with pytest.raises(RecallError, match="does not accept"):
        load_provider("zz_good", colour="blue")


def test_available_providers_reports_every_plugin(plugins: Path) -> None:
    rows = {name: (ok, why) for name, ok, why in available_providers(home=plugins)}
    assert rows["zz_good"] == (True, "")
    assert rows["zz_offline"] == (False, "needs the zz-client package: pip install zz-client")
    assert rows["zz_broken"][0] is False and "could not be imported" in rows["zz_broken"][1]
    assert rows["zz_wrong"][0] is False and "not a silcrow MemoryProvider" in rows["zz_wrong"][1]
    assert "local" in rows
    assert [r[0] for r in available_providers(home=plugins)] == sorted(rows)
