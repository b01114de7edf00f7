"""byterover: the provider runs ``brv`` as a real subprocess; the ``brv`` on PATH is the stand-in."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import provider_e2e
import pytest
from testing_services.brv import install_brv

from silcrow.providers.byterover import ByteroverProvider
from silcrow.recall import MemoryProvider, load_provider
from silcrow.recall.contract import check_provider_contract


@pytest.fixture(autouse=True)
def brv_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = install_brv(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{target.parent}:/usr/bin:/bin")
    return target


def _provider(home: Path, **settings: Any) -> ByteroverProvider:
    if settings:
        lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in settings.items())
        (home / "config.toml").write_text(f"[recall.byterover]\n{lines}\n", encoding="utf-8")
    provider = ByteroverProvider(home=home)
    provider.initialize("s1", home=home)
    return provider


def _log(home: Path) -> list[str]:
    path = home / "byterover" / ".brv" / "stand-in.log"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def _curated(home: Path) -> list[str]:
    return [line.removeprefix("curate -- ") for line in _log(home) if line.startswith("curate -- ")]


def _tool(provider: MemoryProvider, name: str, **args: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(provider.handle_tool_call(name, args))
    return result


def test_keeps_the_provider_contract(tmp_path: Path) -> None:
    check_provider_contract(ByteroverProvider(home=tmp_path), tmp_path)
    assert (tmp_path / "byterover" / ".brv" / "context-tree").is_dir()  # the tree lives in the home


def test_without_brv_it_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    provider = load_provider("byterover", home=tmp_path, embedder="none")
    assert not provider.is_available()
    assert "npm install -g byterover-cli" in provider.unavailable_reason()
    (tmp_path / "config.toml").write_text('[recall.byterover]\nbrv_path = "/nowhere/brv"\n', encoding="utf-8")
    assert "not an executable" in ByteroverProvider(home=tmp_path).unavailable_reason()


def test_turns_notes_and_compression_are_curated_as_hermes_does(tmp_path: Path) -> None:
    provider = _provider(tmp_path)
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted, Lyon.")
    provider.sync_turn("ok thanks", "You're welcome.")  # under 10 characters: not curated
    provider.on_memory_write("add", "user", "Prefers metric units")
    provider.on_memory_write("replace", "memory", "Project uses uv")
    provider.on_memory_write("remove", "user", "Old fact")
    assert provider.on_pre_compress([{"role": "user", "content": "We chose PostgreSQL."},
                                      {"role": "tool", "content": "ignored"},
                                      {"role": "assistant", "content": "PostgreSQL it is."}]) == ""
    provider.shutdown()  # waits for the background curate
    assert _curated(tmp_path) == [
        "User: My sister Ana lives in Lyon.\\nAssistant: Noted, Lyon.",
        "[User profile] Prefers metric units",
        "[Agent memory] Project uses uv",
        "[Pre-compression context]\\nuser: We chose PostgreSQL.\\nassistant: PostgreSQL it is.",
    ]


def test_auto_extract_off_curates_nothing_on_its_own(tmp_path: Path) -> None:
    provider = _provider(tmp_path, auto_extract=False)
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    provider.on_memory_write("add", "user", "Prefers metric units")
    provider.on_pre_compress([{"role": "user", "content": "We chose PostgreSQL."}])
    assert _curated(tmp_path) == []
    assert _tool(provider, "brv_curate", content="Explicit: the user likes jazz")["success"] is True
    assert _curated(tmp_path) == ["Explicit: the user likes jazz"]


def test_prefetch_and_tools(tmp_path: Path) -> None:
    provider = _provider(tmp_path, api_key="brv-key")
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    assert provider.prefetch("Ana?") == ""  # shorter than 10 characters: no query at all
    assert not any(line.startswith("query") for line in _log(tmp_path))
    recalled = provider.prefetch("Where does my sister Ana live?")
    assert recalled.startswith("## ByteRover Context\nQuery Results:") and "Lyon" in recalled
    # As in Hermes, only answers of 20 characters or less count as empty; brv's own
    # "nothing found" sentence is longer and passes through.
    assert "Lyon" not in provider.prefetch("Something about quantum zebras")
    assert "Lyon" in _tool(provider, "brv_query", query="sister Ana")["result"]
    status = _tool(provider, "brv_status")["status"]
    assert "Context tree: 1 entries" in status and "BRV_API_KEY set" in status  # the key reaches brv
    assert _tool(provider, "brv_query")["success"] is False
    assert _tool(provider, "brv_curate", content="  ")["success"] is False


def test_a_failing_brv_loses_no_curation_and_pauses_calls(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    provider = _provider(tmp_path, failure_threshold=2, cooldown=60.0)
    down = tmp_path / "byterover" / ".brv" / "STAND_IN_DOWN"
    down.parent.mkdir(parents=True, exist_ok=True)
    down.touch()
    with caplog.at_level(logging.WARNING):
        for n in range(1, 4):
            provider.sync_turn(f"Turn number {n} about my garden.", "ok")
            assert provider.prefetch(f"What about turn {n} of my garden?") == ""
    assert len(provider.outbox) == 3 and provider.resilient.is_open
    assert sum("failed" in r.getMessage() for r in caplog.records) == 1
    calls_while_open = len(_log(tmp_path))
    provider.prefetch("What about my garden now?")
    assert len(_log(tmp_path)) == calls_while_open  # the breaker did not run brv at all
    assert "queued on disk" in _tool(provider, "brv_curate", content="Fourth: roses")["result"]
    down.unlink()
    provider.resilient._open_until = 0.0  # the cooldown has passed
    assert provider.flush_outbox() == 4
    assert _curated(tmp_path)[-4:] == [f"User: Turn number {n} about my garden.\\nAssistant: ok"
                                       for n in range(1, 4)] + ["Fourth: roses"]


def test_a_hung_brv_is_cut_off_by_the_timeout(tmp_path: Path) -> None:
    provider = _provider(tmp_path, query_timeout=0.5)
    slow = tmp_path / "byterover" / ".brv" / "STAND_IN_SLOW"
    slow.parent.mkdir(parents=True, exist_ok=True)
    slow.write_text("5", encoding="utf-8")
    result = _tool(provider, "brv_query", query="anything at all")
    assert result["success"] is False and "did not finish within 0.5s" in result["error"]


def test_the_round_trip_check_writes_finds_and_forgets(tmp_path: Path) -> None:
    provider = _provider(tmp_path)
    assert provider.round_trip("silcrow probe 4242 unique words")["found"] is True
    tree = tmp_path / "byterover" / ".brv" / "context-tree"
    assert not any("4242" in p.read_text(encoding="utf-8") for p in tree.rglob("*.md"))


def test_end_to_end_through_the_agent(tmp_path: Path) -> None:
    @contextmanager
    def outage(provider: MemoryProvider) -> Iterator[None]:
        down = tmp_path / "byterover" / ".brv" / "STAND_IN_DOWN"
        down.touch()
        try:
            yield
        finally:
            down.unlink()

    scenario = provider_e2e.Scenario(make=lambda: ByteroverProvider(home=tmp_path), tool="brv_query",
                                     tool_args={"query": "sister Ana"}, expect_in_tool="Lyon", outage=outage)
    provider_e2e.run(tmp_path, scenario)
    later = _provider(tmp_path)
    later.join_replay(timeout=30)  # initialize started delivering the outage turn
    later.flush_outbox()
    assert any("Rui moved to Porto" in line for line in _curated(tmp_path))  # the outage turn, replayed


def test_a_daemon_brv_cannot_reach_is_a_failure_though_brv_exits_0(tmp_path: Path) -> None:
    provider = _provider(tmp_path)
    marker = tmp_path / "byterover" / ".brv" / "STAND_IN_NO_DAEMON"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    assert len(provider.outbox) == 1  # kept: brv's exit status 0 did not count as delivered
    result = _tool(provider, "brv_query", query="where does Ana live")
    assert result["success"] is False and "could not reach its daemon" in result["error"]
    marker.unlink()
    provider.resilient._open_until = 0.0
    assert provider.flush_outbox() == 1
    assert "Lyon" in provider.prefetch("Where does my sister Ana live?")
