"""The Hermes bridge hands Hermes's turns, queries, notes and tool arguments straight to the
recall provider (not through silcrow's MemoryManager): a secret in any of them must still never
reach an external provider's service (each loopback stand-in of tests/hosted_support.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hosted_support import each_case, make, serving
from test_recall_hygiene import LEAKS, SECRETS

from silcrow.integrations.hermes._bridge import HermesBridge


def _bridge_on(provider: Any, hermes_home: Path, home: Path) -> HermesBridge:
    bridge = HermesBridge()
    # The provider as _load would build it, but pointed at the stand-in (its environ).
    bridge._recall, bridge._loaded_for, bridge._home = provider, hermes_home, home
    return bridge


@each_case
def test_a_secret_through_the_hermes_bridge_never_reaches_an_external_provider(
        case: Any, tmp_path: Path) -> None:
    secret_turn = "my keys: " + " ".join(SECRETS.values())
    hermes_home, home = tmp_path / "hermes", tmp_path / "home"
    hermes_home.mkdir()
    with serving(case) as service:
        provider = make(case, home, service)
        bridge = _bridge_on(provider, hermes_home, home)
        bridge.initialize("s1", hermes_home=str(hermes_home))
        bridge.on_turn_start(1, "what is " + SECRETS["api-key"] + " for?")
        bridge.prefetch("what is " + SECRETS["api-key"] + " for?")
        bridge.queue_prefetch("and " + SECRETS["jwt"] + " then?")
        bridge.sync_turn(secret_turn, "Noted. " + SECRETS["aws-key"], session_id="s1")
        bridge.on_memory_write("add", "user", "Deploy token " + SECRETS["github-token"])
        bridge.on_delegation("use " + SECRETS["npm-token"], "done with " + SECRETS["stripe-key"])
        bridge.on_pre_compress([{"role": "user", "content": secret_turn}])
        bridge.on_session_end([{"role": "user", "content": secret_turn}])
        name, args = case.write_tool
        bridge.get_tool_schemas()
        bridge.handle_tool_call(name, {**args, next(iter(args)): "keep " + SECRETS["slack-token"]})
        search, search_args = case.search_tool
        bridge.handle_tool_call(search, {**search_args, next(iter(search_args)): SECRETS["google-key"]})
        provider.flush_outbox(wait=True)
        bridge.shutdown()
        sent = json.dumps(service.requests)
        kept = "".join(p.read_text(encoding="utf-8", errors="replace")
                       for p in home.rglob("*") if p.is_file())
    assert "[REDACTED:" in sent  # the requests were made, with the secrets taken out
    for leak in LEAKS:
        assert leak not in sent, (case.name, leak)
        assert leak not in kept, (case.name, leak)
