"""mem0: the real open-source mem0 locally (Qdrant on disk, silcrow's ONNX embedder), and the real
``mem0.MemoryClient`` against the loopback Mem0 Platform stand-in."""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import provider_e2e
import pytest
from testing_services.mem0 import Mem0PlatformStandIn, Mem0ServerStandIn

from silcrow.providers.mem0 import Mem0Provider
from silcrow.recall import MemoryProvider
from silcrow.recall.contract import check_provider_contract

# Checked without importing mem0: the provider sets its telemetry off before the first import.
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mem0") is None,
                                reason='the mem0 extra is not installed: pip install "silcrow[mem0]"')

KEY = "m0-test-key"


def _local(home: Path) -> Mem0Provider:
    (home / "config.toml").write_text('[recall.mem0]\nmode = "oss"\n', encoding="utf-8")
    return Mem0Provider(home=home, embedder="onnx")


def _platform(home: Path, srv: Mem0PlatformStandIn, key: str = KEY, **extra: Any) -> Mem0Provider:
    settings = {"platform_url": srv.base_url, "timeout": 1.0, "failure_threshold": 2, "cooldown": 0.3}
    settings.update(extra)
    lines = [f"{k} = {json.dumps(v)}" for k, v in settings.items()]
    (home / "config.toml").write_text("[recall.mem0]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return Mem0Provider(home=home, environ={"MEM0_API_KEY": key})


def _tool(provider: MemoryProvider, name: str, **args: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(provider.handle_tool_call(name, args))
    return result


@pytest.fixture()
def platform() -> Iterator[Mem0PlatformStandIn]:
    with Mem0PlatformStandIn(KEY) as srv:
        yield srv


def test_says_what_to_set_without_a_key(tmp_path: Path) -> None:
    provider = Mem0Provider(home=tmp_path, environ={})
    assert not provider.is_available()
    assert "MEM0_API_KEY" in provider.unavailable_reason() and "oss" in provider.unavailable_reason()
    hosted = Mem0Provider(home=tmp_path, environ={"MEM0_HOST": "http://mem0.internal"})
    assert hosted.is_available()  # a self-hosted server needs no key (AUTH_DISABLED)
    bad = Mem0Provider(home=tmp_path, environ={"MEM0_MODE": "cloud"})
    assert "unknown mem0 mode 'cloud'" in bad.unavailable_reason()
    check_provider_contract(Mem0Provider(home=tmp_path, environ={}), tmp_path)  # unavailable: says why


def test_local_mem0_keeps_the_contract(tmp_path: Path) -> None:
    check_provider_contract(_local(tmp_path), tmp_path)


def test_local_mem0_stores_turns_verbatim_and_manages_them_by_id(tmp_path: Path) -> None:
    provider = _local(tmp_path)
    provider.initialize("s1", home=tmp_path, user_id="u1", platform="telegram")
    provider.sync_turn("My sister Ana lives in Lyon.", "I'll remember that.")
    assert len(provider.outbox) == 0  # delivered to the local store at once
    assert "- My sister Ana lives in Lyon." in provider.prefetch("Where does my sister live?")
    found = _tool(provider, "mem0_search", query="where does Ana live", top_k=3)
    assert found["results"][0]["memory"] == "My sister Ana lives in Lyon."
    memory_id = found["results"][0]["id"]
    assert _tool(provider, "mem0_update", memory_id=memory_id, text="My sister Ana lives in Paris")["success"]
    assert "Paris" in provider.prefetch("Where does my sister live?")
    assert _tool(provider, "mem0_add", content="The user drinks green tea")["result"] == "Fact stored."
    assert _tool(provider, "mem0_delete", memory_id=memory_id)["success"]
    assert "Ana" not in provider.prefetch("Where does my sister Ana live?")
    missing = _tool(provider, "mem0_delete", memory_id="no-such-id")
    assert missing["success"] is False and "not found" in missing["error"]
    assert not provider.resilient.is_open and provider.resilient.counters["failures"] == 0  # a bad id
    assert _tool(provider, "mem0_search")["success"] is False  # missing query: said, not raised
    provider.shutdown()
    assert (tmp_path / "mem0" / "history.db").exists() and (tmp_path / "mem0" / "qdrant").is_dir()


def test_platform_client_keeps_the_contract_and_speaks_the_documented_routes(
        tmp_path: Path, platform: Mem0PlatformStandIn) -> None:
    check_provider_contract(_platform(tmp_path, platform), tmp_path)
    # The contract calls mem0_update/mem0_delete with a sample id: the stand-in refuses it (404).
    assert platform.violations and all("'green tea' not found" in v for v in platform.violations)
    assert {"/v1/ping/", "/v3/memories/add/", "/v3/memories/search/"} <= set(platform.paths())
    adds = [body for method, path, body in platform.requests if path == "/v3/memories/add/"]
    assert adds[0]["user_id"] == "u1" and adds[0]["agent_id"] == "hermes" and adds[0]["infer"] is True
    assert adds[0]["metadata"] == {"channel": "cli"}


def test_platform_wrong_key_is_reported_with_the_variable_to_set(
        tmp_path: Path, platform: Mem0PlatformStandIn) -> None:
    provider = _platform(tmp_path, platform, key="wrong")
    provider.initialize("s", home=tmp_path)
    result = _tool(provider, "mem0_search", query="anything")
    assert result["success"] is False and "MEM0_API_KEY" in result["error"]
    assert provider.prefetch("anything at all?") == ""


def test_platform_outage_keeps_writes_on_disk_and_replays_them_in_order(
        tmp_path: Path, platform: Mem0PlatformStandIn, caplog: pytest.LogCaptureFixture) -> None:
    provider = _platform(tmp_path, platform)
    provider.initialize("s", home=tmp_path, user_id="u1")
    provider.sync_turn("First: I live in Lyon.", "ok")
    platform.down = True
    with caplog.at_level(logging.WARNING):
        for n in range(2, 5):
            provider.sync_turn(f"Turn {n}: more about me.", "ok")
            assert provider.prefetch(f"turn {n}?") == ""  # the turn goes on without recall
    assert len(provider.outbox) == 3
    assert sum("failed" in r.getMessage() for r in caplog.records) == 1  # logged once per outage
    assert provider.resilient.is_open  # the breaker stopped calling
    platform.down = False
    provider.resilient._open_until = 0.0  # the cooldown has passed
    assert provider.flush_outbox() == 3 and len(provider.outbox) == 0
    stored = [m["memory"] for m in platform.memories.values()]
    assert stored == ["First: I live in Lyon.", "Turn 2: more about me.", "Turn 3: more about me.",
                      "Turn 4: more about me."]


def test_platform_rate_limit_timeout_and_malformed_answers_are_errors_not_crashes(
        tmp_path: Path, platform: Mem0PlatformStandIn) -> None:
    provider = _platform(tmp_path, platform, failure_threshold=5)
    provider.initialize("s", home=tmp_path)
    platform.fail(429, retry_after=7, only="search")
    limited = _tool(provider, "mem0_search", query="tea")
    assert limited["success"] is False and "429" in limited["error"]
    platform.malformed(only="search")
    bad = _tool(provider, "mem0_search", query="tea")
    assert bad["success"] is False and "mem0" in bad["error"]
    platform.delay(3.0, only="search")  # longer than the 1 s timeout
    slow = _tool(provider, "mem0_search", query="tea")
    assert slow["success"] is False
    platform.fail(500, only="search")
    assert provider.prefetch("what tea do I like?") == ""
    assert _tool(provider, "mem0_search", query="tea")["success"] is True  # and it recovers


def test_end_to_end_through_the_agent_on_the_platform(tmp_path: Path, platform: Mem0PlatformStandIn) -> None:
    made: list[Mem0Provider] = []

    def make() -> Mem0Provider:
        made.append(_platform(tmp_path, platform))
        return made[-1]

    scenario = provider_e2e.Scenario(make=make, tool="mem0_search", tool_args={"query": "sister Ana"},
                                     expect_in_tool="Lyon", outage=provider_e2e.service_down(platform))
    provider_e2e.run(tmp_path, scenario)
    assert all(m["memory"] != provider_e2e.OUTAGE_TURN for m in platform.memories.values())
    # The turn said during the outage waited in the outbox on disk; the next start delivers it.
    later = make()
    later.initialize("s3", home=tmp_path)
    later.join_replay(timeout=30)  # initialize started delivering it in the background
    later.flush_outbox()
    assert len(later.outbox) == 0
    assert any(m["memory"] == provider_e2e.OUTAGE_TURN for m in platform.memories.values())
    later.shutdown()
    assert platform.violations == []


def test_end_to_end_through_the_agent_with_local_mem0(tmp_path: Path) -> None:
    @contextmanager
    def broken_store(provider: MemoryProvider) -> Iterator[None]:
        assert isinstance(provider, Mem0Provider)
        provider.close_clients()  # closes Qdrant: calls fail until the backend is rebuilt
        real = provider.backend

        def failing() -> Any:
            raise RuntimeError("local store unavailable")

        provider.backend = failing  # type: ignore[method-assign]
        try:
            yield
        finally:
            provider.backend = real  # type: ignore[method-assign]

    scenario = provider_e2e.Scenario(make=lambda: _local(tmp_path), tool="mem0_search",
                                     tool_args={"query": "sister Ana"}, expect_in_tool="Lyon",
                                     outage=broken_store)
    result = provider_e2e.run(tmp_path, scenario)
    check = _local(tmp_path)
    check.initialize("s3", home=tmp_path)
    check.join_replay(timeout=30)  # the outage turn waited on disk: delivered at shutdown or now
    check.flush_outbox()
    assert len(check.outbox) == 0
    assert provider_e2e.OUTAGE_TURN in check.prefetch("Where did my brother Rui move?")
    check.shutdown()
    assert result["provider"] is not check


def test_on_turn_start_searches_ahead_and_prefetch_uses_that_answer(
        tmp_path: Path, platform: Mem0PlatformStandIn) -> None:
    provider = _platform(tmp_path, platform)
    provider.initialize("s", home=tmp_path, user_id="u1")
    provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
    def searches() -> int:
        return platform.paths("POST").count("/v3/memories/search/")

    provider.on_turn_start(2, "Where does my sister Ana live?")
    assert "Lyon" in provider.prefetch("Where does my sister Ana live?")
    assert searches() == 1  # prefetch took the search on_turn_start had started
    assert "Lyon" in provider.prefetch("Remind me where my sister Ana lives")  # another text: searched now


def test_local_mem0_takes_writes_and_searches_from_several_threads(tmp_path: Path) -> None:
    provider = _local(tmp_path)
    provider.initialize("s", home=tmp_path, user_id="u1")
    backend = provider.backend()
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(5):
                backend.add([{"role": "user", "content": f"Writer {n} fact {i} about gardening"}],
                            user_id="u1", agent_id="a", infer=False, metadata={})
                backend.search("gardening", filters={"user_id": "u1"}, top_k=5, rerank=False)
        except BaseException as exc:  # reported below, on the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    found = backend.search("Writer fact about gardening", filters={"user_id": "u1"}, top_k=50, rerank=False)
    assert len(found) == 15
    provider.shutdown()


def test_self_hosted_server_over_http_with_its_own_routes_and_key(tmp_path: Path) -> None:
    with Mem0ServerStandIn("server-key") as srv:
        (tmp_path / "config.toml").write_text("[recall.mem0]\ntimeout = 1.0\n", encoding="utf-8")
        env = {"MEM0_HOST": srv.base_url, "MEM0_API_KEY": "server-key", "MEM0_USER_ID": "ana"}
        check_provider_contract(Mem0Provider(home=tmp_path, environ=env), tmp_path)
        provider = Mem0Provider(home=tmp_path, environ=env)
        provider.initialize("s", home=tmp_path)
        assert "self-hosted" in provider.system_prompt_block()
        provider.sync_turn("My sister Ana lives in Lyon.", "Noted.")
        assert "Lyon" in provider.prefetch("Where does my sister Ana live?")
        assert _tool(provider, "mem0_add", content="Ana keeps bees")["result"] == "Fact stored."
        memory_id = _tool(provider, "mem0_search", query="bees")["results"][0]["id"]
        assert _tool(provider, "mem0_update", memory_id=memory_id, text="Ana keeps wasps")["success"]
        assert _tool(provider, "mem0_delete", memory_id=memory_id)["success"]
        assert {"/memories", "/search", f"/memories/{memory_id}"} <= set(srv.paths())
        adds = [b for m, p, b in srv.requests if p == "/memories"]
        assert adds[-1]["user_id"] == "ana" and "filters" not in adds[-1]
        assert all("'green tea' not found" in v for v in srv.violations)  # only the contract's sample id
        provider.shutdown()
        wrong = Mem0Provider(home=tmp_path, environ={**env, "MEM0_API_KEY": "nope"})
        wrong.initialize("s", home=tmp_path)
        refused = _tool(wrong, "mem0_search", query="bees")
        assert refused["success"] is False and "401" in refused["error"]
        wrong.shutdown()
