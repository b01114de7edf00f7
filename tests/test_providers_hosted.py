"""The four HTTP providers (honcho, supermemory, openviking, retaindb) against their loopback stand-ins:
the contract, availability, lifecycle and tools, with the real clients (SDKs, httpx)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hosted_support import KEY, Case, each_case, make, serving, stored_text

from silcrow.providers import HostedProvider
from silcrow.recall.contract import check_provider_contract


@each_case
def test_contract_holds_against_the_stand_in(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        check_provider_contract(make(case, tmp_path, service), tmp_path)
        assert service.violations == []  # every request the adapter made was a valid one
        assert service.requests, "the provider never talked to the service"


@each_case
def test_unavailable_without_settings_names_the_variable(case: Case, tmp_path: Path) -> None:
    provider = case.provider(tmp_path, environ={})
    assert provider.is_available() is False
    assert case.needs in provider.unavailable_reason()
    assert not (tmp_path / "recall_outbox").exists()  # asking did not create anything


@each_case
def test_missing_client_package_names_the_pip_command(case: Case, tmp_path: Path) -> None:
    class Missing(case.provider):  # type: ignore[misc,valid-type]
        modules = ("silcrow_no_such_client_package",)

    provider = Missing(tmp_path, environ=case.env("http://127.0.0.1:9", KEY))
    assert provider.is_available() is False
    assert f'pip install "silcrow[{case.name}]"' in provider.unavailable_reason()


@each_case
def test_config_table_is_read_and_environment_wins(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service, timeout=2.5, failure_threshold=7)
        assert provider.config["timeout"] == 2.5 and provider.resilient.threshold == 7
        env = case.env(service.base_url, KEY)
        (tmp_path / "config.toml").write_text(
            f'[recall.{case.name}]\n{case.provider.key_setting} = "from-file"\n', encoding="utf-8"
        )
        assert case.provider(tmp_path, environ=env).config[case.provider.key_setting] == KEY
        no_key = {k: v for k, v in env.items() if k != case.key_var}
        assert case.provider(tmp_path, environ=no_key).config[case.provider.key_setting] == "from-file"


@each_case
def test_turns_notes_and_recall_reach_the_service(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s-1", home=tmp_path, user_id="u1")
        provider.sync_turn("I moved to Lyon last spring.", "Noted: Lyon.", session_id="s-1")
        provider.on_memory_write("add", "user", "The user drinks green tea every morning")
        provider.on_session_end([])
        assert "Lyon" in stored_text(service) and "green tea" in stored_text(service)
        assert len(provider.outbox) == 0
        recalled = provider.prefetch("Which city did I move to, Lyon?")
        assert "Lyon" in recalled, recalled
        provider.shutdown()
        assert service.violations == []


@each_case
def test_tools_search_and_write_through_the_service(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s-1", home=tmp_path)
        provider.sync_turn("I moved to Lyon last spring.", "Noted.", session_id="s-1")
        provider.on_session_end([])
        name, args = case.write_tool
        written = json.loads(provider.handle_tool_call(name, args))
        assert written["success"] is True, written
        assert "Miso" in stored_text(service)
        name, args = case.search_tool
        found = json.loads(provider.handle_tool_call(name, args))
        assert found["success"] is True and "Lyon" in json.dumps(found), found
        refused = json.loads(provider.handle_tool_call(name, {}))
        assert refused["success"] is False and "query" in refused["error"]
        assert service.violations == []


@each_case
def test_round_trip_reports_latencies_and_finds_the_probe(case: Case, tmp_path: Path) -> None:
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("check", home=tmp_path)
        result = provider.round_trip("silcrow probe 7f3a")
        assert result["found"] is True
        assert all(result[f"{step}_ms"] >= 0 for step in ("write", "search", "forget"))
        assert not json.loads(provider.handle_tool_call(case.search_tool[0], {"query": "probe 7f3a"})).get(
            "results"
        ), "the probe was not forgotten"
        assert service.violations == []


def test_supermemory_accepts_hermes_kebab_case_tool_names(tmp_path: Path) -> None:
    from hosted_support import CASES

    case = next(c for c in CASES if c.name == "supermemory")
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s", home=tmp_path)
        assert json.loads(provider.handle_tool_call("supermemory-save", {"content": "Ana is my sister"}))[
            "success"
        ]
        found = json.loads(provider.handle_tool_call("supermemory-search", {"query": "sister Ana"}))
        assert found["count"] == 1 and "Ana" in found["results"][0]["content"]


def test_honcho_recall_modes_change_tools_and_injection(tmp_path: Path) -> None:
    from hosted_support import CASES

    case = next(c for c in CASES if c.name == "honcho")
    with serving(case) as service:
        context_only = make(case, tmp_path / "a", service, recallMode="context")
        assert (
            context_only.get_tool_schemas() == [] and "no memory tools" in context_only.system_prompt_block()
        )
        tools_only: HostedProvider = make(case, tmp_path / "b", service, recallMode="tools")
        tools_only.initialize("s", home=tmp_path / "b")
        tools_only.sync_turn("I moved to Lyon.", "Noted.")
        assert tools_only.prefetch("Lyon?") == ""
        assert len(tools_only.get_tool_schemas()) == 5
        bad = make(case, tmp_path / "c", service, recallMode="sometimes")
        assert not bad.is_available() and "recallMode" in bad.unavailable_reason()


def test_openviking_forget_refuses_anything_but_one_memory_file(tmp_path: Path) -> None:
    from hosted_support import CASES

    case = next(c for c in CASES if c.name == "openviking")
    with serving(case) as service:
        provider = make(case, tmp_path, service)
        provider.initialize("s", home=tmp_path)
        for uri in (
            "viking://resources/docs/",
            "viking://user/memories/",
            "https://x/y.md",
            "viking://user/memories/.overview.md",
        ):
            result = json.loads(provider.handle_tool_call("viking_forget", {"uri": uri}))
            assert result["success"] is False, uri
        assert service.paths("DELETE") == []  # nothing was sent


@pytest.mark.parametrize("trusted", [True, False])
def test_openviking_auth_headers_per_mode(tmp_path: Path, trusted: bool) -> None:
    from hosted_support import CASES
    from testing_services import OpenVikingStandIn

    from silcrow.providers.openviking import OpenVikingProvider

    with OpenVikingStandIn(api_key="" if trusted else KEY) as service:
        env = {
            "OPENVIKING_ENDPOINT": service.base_url,
            "OPENVIKING_ACCOUNT": "acme",
            "OPENVIKING_USER": "ana",
        }
        if not trusted:
            env["OPENVIKING_API_KEY"] = KEY
        provider = OpenVikingProvider(tmp_path, environ=env)
        provider.initialize("s", home=tmp_path)
        assert json.loads(provider.handle_tool_call("viking_remember", {"content": "Ana likes tea"}))[
            "success"
        ]
        assert service.violations == []
    assert CASES  # the shared cases stay importable alongside this direct use


def test_retaindb_file_tools_list_read_ingest_delete(tmp_path: Path) -> None:
    from hosted_support import CASES
    from testing_services import RetainDBStandIn

    case = next(c for c in CASES if c.name == "retaindb")
    with serving(case) as service:
        assert isinstance(service, RetainDBStandIn)
        notes = service.add_file("/notes/trip.md", b"The user flies to Oslo on June 3.\nAisle seat.\n")
        blob = service.add_file("/scans/passport.pdf", b"%PDF-1.7 \x00\x01", "application/pdf")
        provider = make(case, tmp_path, service)
        provider.initialize("s", home=tmp_path)

        def tool(name: str, **args: object) -> dict[str, object]:
            result: dict[str, object] = json.loads(provider.handle_tool_call(name, dict(args)))
            return result

        listed = tool("retaindb_list_files", prefix="/notes/")
        assert listed["success"] is True and [f["id"] for f in listed["files"]] == [notes]  # type: ignore[union-attr]
        read = tool("retaindb_read_file", file_id=notes)
        assert "Oslo" in str(read["content"]) and read["truncated"] is False
        binary = tool("retaindb_read_file", file_id=blob)
        assert binary["content"] is None and "ingest" in str(binary["note"])
        assert tool("retaindb_ingest_file", file_id=notes)["memories"] == 2
        assert "Oslo" in json.dumps(tool("retaindb_search", query="Oslo flight"))
        assert tool("retaindb_delete_file", file_id=notes)["deleted"] is True
        gone = tool("retaindb_read_file", file_id=notes)
        assert gone["success"] is False and "404" in str(gone["error"])
        assert "retaindb_upload_file" not in {s["function"]["name"] for s in provider.get_tool_schemas()}
        assert service.violations == []


@pytest.mark.parametrize(
    ("config", "user", "ai"),
    [
        ({}, {"observe_me": True, "observe_others": True}, {"observe_me": True, "observe_others": True}),
        (
            {"observationMode": "unified"},
            {"observe_me": True, "observe_others": False},
            {"observe_me": False, "observe_others": True},
        ),
    ],
)
def test_honcho_observation_mode_sets_the_session_peers(
    tmp_path: Path, config: dict[str, str], user: dict[str, bool], ai: dict[str, bool]
) -> None:
    from hosted_support import CASES
    from testing_services import HonchoStandIn

    case = next(c for c in CASES if c.name == "honcho")
    with serving(case) as service:
        assert isinstance(service, HonchoStandIn)
        provider = make(case, tmp_path, service, **config)
        provider.initialize("s", home=tmp_path, user_id="ana")
        provider.sync_turn("I moved to Lyon.", "Noted.")
        [session] = service.sessions.values()
        assert session["peers"] == {"ana": user, "hermes": ai}
        assert service.violations == []


def test_supermemory_multi_container_tools_keep_to_the_allowed_tags(tmp_path: Path) -> None:
    from hosted_support import CASES
    from testing_services import SupermemoryStandIn

    case = next(c for c in CASES if c.name == "supermemory")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(
        '[recall.supermemory]\nenable_custom_container_tags = true\ncustom_containers = ["project-alpha"]\n'
        'custom_container_instructions = "Use project-alpha for work."\n',
        encoding="utf-8",
    )
    with serving(case) as service:
        assert isinstance(service, SupermemoryStandIn)
        provider = case.provider(home, environ=case.env(service.base_url, KEY))
        provider.initialize("s", home=home)
        schema = {s["function"]["name"]: s for s in provider.get_tool_schemas()}["supermemory_store"]
        assert "container_tag" in schema["function"]["parameters"]["properties"]
        assert (
            "project-alpha" in provider.system_prompt_block()
            and "Use project-alpha" in provider.system_prompt_block()
        )
        saved = json.loads(
            provider.handle_tool_call(
                "supermemory_store",
                {"content": "Deploys go out on Fridays", "container_tag": "project-alpha"},
            )
        )
        assert saved["success"] is True
        assert {ns for ns, _ in service.documents} == {"project-alpha"}
        refused = json.loads(
            provider.handle_tool_call(
                "supermemory_search", {"query": "deploys", "container_tag": "secret-team"}
            )
        )
        assert refused["success"] is False and "not allowed" in refused["error"]
        provider.sync_turn("I moved to Lyon.", "Noted.", session_id="s")
        assert {ns for ns, _ in service.documents} == {"project-alpha", "hermes"}  # automatic writes: primary
