"""Secrets never reach a hosted provider through a real `silcrow serve` or a Claude Code hook.

The provider is Honcho, pointed at its loopback stand-in (tests/testing_services/honcho.py), which
records every request it gets. Through the server: a notes write (REST, mirrored to recall), the
provider's own tool over MCP, and a recall search; then the Claude Code session-end hook ingests a
transcript. Each carries a Redis URL password with an empty user, a PGP private key block, an Azure
storage AccountKey and a quoted passphrase; none of them may be in what the stand-in received.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from hosted_support import KEY
from serve_support import CONFIG, http_client
from test_coding_hooks import SESSION, base, hook
from test_coding_hooks_stored import _entry
from testing_services import HonchoStandIn

from silcrow.serve import ServerProcess, create_token

PGP_BODY = ("lQOYBGV1c2VyAQgAxK3f9Wm2Tq8Lr4Zp0Nc7Vb1Yh6Gd5Sa3Jk9Xe2Rw8Uo4Pi1Ly7Mt0Qn6Bv5Cz3Hg",
            "Dx2Fs9Ka4Wl8Eo1Ru6Ti3Yp7Gh0Jm5Nb2Vc9Xz4Lq8Ws1Ed6Rf3Tg7Yh0Uj5Ik2Ol9Pa4Sd8Fg1Hj6Kl3")
SECRETS = {
    "redis": "redis://:Rz9-hunter/Q7x@cache.internal:6379/0",
    "pgp": "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + "\n".join(PGP_BODY)
           + "\n=x7Qa\n-----END PGP PRIVATE KEY BLOCK-----",
    "azure": "DefaultEndpointsProtocol=https;AccountName=tidepoolbackups;AccountKey="
             "q3X9vLm2Tz8Rk1Wp5Yc7Nb4Hd6Gf0Sa9Jk3Le8Qw2Er5Ty1Ui7Op4As6Df0Gh3Jk9Lz2Xc5Vb8Nm1Qw4Er7Ty0Ui3Op6A"
             "sDfGh12==;EndpointSuffix=core.windows.net",
    "passphrase": 'gpg_passphrase="lantern orbit; velvet 42"',
}
# What must never leave: the password, every line of the key, the key, the passphrase.
LEAKS = ["Rz9-hunter", "Q7x@cache", *PGP_BODY, "=x7Qa", "q3X9vLm2Tz8Rk1Wp5Yc7", "lantern orbit", "velvet 42"]
ALL = "Keep these for the deploy: " + " ; ".join(SECRETS.values())
# The notes' threat scan refuses a private key block outright (nothing is saved, nothing mirrored):
# a note carries the other three.
NOTE = "Keep these for the deploy: " + " ; ".join(v for k, v in SECRETS.items() if k != "pgp")


def _sent(service: HonchoStandIn) -> str:
    return json.dumps(service.requests)


def _no_leak(text: str, where: str) -> None:
    leaked = [leak for leak in LEAKS if leak in text]
    assert not leaked, f"{where} reached the provider: {leaked}"


@pytest.fixture()
def honcho_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, HonchoStandIn]]:
    with HonchoStandIn(KEY) as service:
        monkeypatch.setenv("HONCHO_BASE_URL", service.base_url)
        monkeypatch.setenv("HONCHO_API_KEY", KEY)
        home = tmp_path / "home"
        home.mkdir()
        (home / "config.toml").write_text(CONFIG + 'provider = "honcho"\n', encoding="utf-8")
        yield home, service


@pytest.mark.slow
def test_no_secret_reaches_the_provider_through_silcrow_serve(
        honcho_home: tuple[Path, HonchoStandIn]) -> None:
    home, service = honcho_home
    token = create_token(home, profile=None, scope="write", name="agent")[0]
    with ServerProcess(home) as server:
        api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
        # A notes write, mirrored to recall (Honcho keeps an added USER.md entry as a conclusion).
        # The notes keep what the user wrote: only what leaves for the provider is redacted.
        wrote = api.post("/v1/memory/user", json={"content": "Ops notes. " + NOTE})
        assert wrote.status_code == 200, wrote.text
        assert wrote.json()["success"], wrote.json()
        # The provider's own tool, over MCP.

        async def conclude() -> str:
            async with http_client(server.url, token) as client:
                result = await client.call_tool("honcho_conclude", {"conclusion": "The user said: " + ALL})
                return str(result.content[0].text)  # type: ignore[union-attr]

        answer = json.loads(anyio.run(conclude))
        assert answer.get("success", True) is not False, answer
        # A recall search (the provider answers it through its context call).
        found = api.post("/v1/recall/search", json={"query": "which deploy secrets? " + ALL, "k": 3})
        assert found.status_code == 200, found.text
        api.close()
    sent = _sent(service)
    _no_leak(sent, "silcrow serve")
    assert "[REDACTED:" in sent and "/conclusions" in sent and "/context" in sent, sent[:2000]
    outbox = "".join(p.read_text(encoding="utf-8", errors="replace") for p in home.rglob("recall_outbox/*")
                     if p.is_file())
    _no_leak(outbox, "the outbox on disk")


@pytest.mark.slow
def test_no_secret_reaches_the_provider_through_the_session_end_hook(
        honcho_home: tuple[Path, HonchoStandIn], tmp_path: Path) -> None:
    home, service = honcho_home
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(_entry("user", "Set up the cache and storage. " + ALL, 1)
                          + _entry("assistant", "Done; I used " + SECRETS["redis"] + " and the key.", 2),
                          encoding="utf-8")
    done = hook(home, "session-end", base("SessionEnd", transcript_path=str(transcript), reason="other",
                                          session_id=SESSION))
    assert done.returncode == 0, done.stderr
    sent = _sent(service)
    _no_leak(sent, "the session-end hook")
    assert "/messages" in sent and "[REDACTED:" in sent, (done.stderr, sent[:2000])
