"""`silcrow providers` lists all nine providers; `silcrow providers check NAME` makes one round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_recall import run
from testing_services import RetainDBStandIn

NINE = {
    "local",
    "honcho",
    "mem0",
    "hindsight",
    "supermemory",
    "openviking",
    "retaindb",
    "holographic",
    "byterover",
}
PROVIDER_VARS = (
    "RETAINDB_API_KEY",
    "RETAINDB_BASE_URL",
    "OPENVIKING_ENDPOINT",
    "HONCHO_API_KEY",
    "SUPERMEMORY_API_KEY",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in PROVIDER_VARS:
        monkeypatch.delenv(var, raising=False)


def test_the_list_shows_all_nine_with_why_not(tmp_path: Path) -> None:
    code, out, err = run("--home", str(tmp_path), "providers", "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)}
    assert NINE <= set(rows)
    assert rows["retaindb"]["available"] is False and "RETAINDB_API_KEY" in rows["retaindb"]["reason"]
    assert "OPENVIKING_ENDPOINT" in rows["openviking"]["reason"]
    assert not (tmp_path / "recall_outbox").exists()  # listing touched nothing


def test_check_makes_a_round_trip_and_reports_latency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with RetainDBStandIn("k1") as service:
        monkeypatch.setenv("RETAINDB_API_KEY", "k1")
        monkeypatch.setenv("RETAINDB_BASE_URL", service.base_url)
        code, out, err = run("--home", str(tmp_path), "providers", "check", "retaindb", "--json")
        assert code == 0, err
        result = json.loads(out)
        assert result["ok"] is True and result["found"] is True
        assert {"write_ms", "search_ms", "forget_ms"} <= set(result)
        assert service.paths("DELETE") and not service.memories  # the probe was forgotten
        code, out, _ = run("--home", str(tmp_path), "providers", "check", "retaindb")
        assert code == 0 and "retaindb: ok" in out and "ms" in out


def test_check_reports_the_service_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with RetainDBStandIn("right-key") as service:
        monkeypatch.setenv("RETAINDB_API_KEY", "wrong-key")
        monkeypatch.setenv("RETAINDB_BASE_URL", service.base_url)
        code, _, err = run("--home", str(tmp_path), "providers", "check", "retaindb")
    assert code == 1
    assert "round trip failed" in err and "HTTP 401" in err and "RETAINDB_API_KEY" in err


def test_check_of_an_unconfigured_or_unknown_provider_is_refused(tmp_path: Path) -> None:
    code, _, err = run("--home", str(tmp_path), "providers", "check", "openviking")
    assert code == 1 and "OPENVIKING_ENDPOINT" in err
    code, _, err = run("--home", str(tmp_path), "providers", "check", "nosuch")
    assert code == 1 and "no recall provider named 'nosuch'" in err


def test_check_local_round_trip(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('embedder = "none"\n', encoding="utf-8")
    code, out, err = run("--home", str(tmp_path), "providers", "check", "local", "--json")
    assert code == 0, err
    assert json.loads(out)["found"] is True
