"""The four HTTP providers, each paired with its loopback stand-in service, for parametrized tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from testing_services import (
    HonchoStandIn,
    OpenVikingStandIn,
    RetainDBStandIn,
    StandInService,
    SupermemoryStandIn,
)

from silcrow.providers import HostedProvider
from silcrow.providers.honcho import HonchoProvider
from silcrow.providers.openviking import OpenVikingProvider
from silcrow.providers.retaindb import RetainDBProvider
from silcrow.providers.supermemory import SupermemoryProvider

KEY = "test-key"


@dataclass(frozen=True)
class Case:
    name: str
    provider: type[HostedProvider]
    service: type[StandInService]
    env: Callable[[str, str], dict[str, str]]  # (base_url, key) -> environment
    key_var: str
    search_tool: tuple[str, dict[str, Any]]  # a read tool and its arguments (query "Lyon")
    write_tool: tuple[str, dict[str, Any]]  # a tool that stores "The user's cat is called Miso"
    required_var: str = ""  # what is_available asks for when it is not the key

    @property
    def needs(self) -> str:
        return self.required_var or self.key_var


CASES = [
    Case(
        "honcho",
        HonchoProvider,
        HonchoStandIn,
        lambda url, key: {"HONCHO_BASE_URL": url, "HONCHO_API_KEY": key},
        "HONCHO_API_KEY",
        ("honcho_search", {"query": "Lyon"}),
        ("honcho_conclude", {"conclusion": "The user's cat is called Miso"}),
    ),
    Case(
        "supermemory",
        SupermemoryProvider,
        SupermemoryStandIn,
        lambda url, key: {"SUPERMEMORY_BASE_URL": url, "SUPERMEMORY_API_KEY": key},
        "SUPERMEMORY_API_KEY",
        ("supermemory_search", {"query": "Lyon"}),
        ("supermemory_store", {"content": "The user's cat is called Miso"}),
    ),
    Case(
        "openviking",
        OpenVikingProvider,
        OpenVikingStandIn,
        lambda url, key: {"OPENVIKING_ENDPOINT": url, "OPENVIKING_API_KEY": key},
        "OPENVIKING_API_KEY",
        ("viking_search", {"query": "Lyon"}),
        ("viking_remember", {"content": "The user's cat is called Miso"}),
        "OPENVIKING_ENDPOINT",
    ),
    Case(
        "retaindb",
        RetainDBProvider,
        RetainDBStandIn,
        lambda url, key: {"RETAINDB_BASE_URL": url, "RETAINDB_API_KEY": key},
        "RETAINDB_API_KEY",
        ("retaindb_search", {"query": "Lyon"}),
        ("retaindb_remember", {"content": "The user's cat is called Miso"}),
    ),
]

each_case = pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])


def make(case: Case, home: Path, service: StandInService, *, key: str = KEY, **config: Any) -> HostedProvider:
    """The provider on ``home`` pointed at ``service``; ``config`` goes to [recall.<name>] in config.toml."""
    if config:
        lines = [f"[recall.{case.name}]"] + [
            f"{k} = {v!r}".replace("'", '"')
            if isinstance(v, str)
            else f"{k} = {str(v).lower() if isinstance(v, bool) else v}"
            for k, v in config.items()
        ]
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return case.provider(home, environ=case.env(service.base_url, key))


@contextmanager
def serving(case: Case) -> Iterator[StandInService]:
    with case.service(KEY) as service:
        yield service


READS = ("search", "/query", "/context", "/profile", "/chat", "/find", "/ask", "/list")


def stored_text(service: StandInService) -> str:
    """Every body the stand-in received in write requests, in order, as one string (to look for facts)."""
    return " ".join(
        repr(body)
        for method, path, body in service.requests
        if method in {"POST", "PUT"} and not any(r in path for r in READS)
    )
