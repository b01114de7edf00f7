"""Decisions on proposals survive ``kill -9``: each acknowledged proposal stays pending, or is
applied exactly once, or is rejected; never lost, never applied twice (files and PostgreSQL).

Real worker processes approve and reject through the store and are killed with SIGKILL at
random moments; after each kill the next open of the store recovers, and every proposal's
fate is checked.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from silcrow.store import MemoryStore, Proposer, current_proposer
from silcrow.tool import memory_call

WORKER = """
import sys
from silcrow.store import MemoryStore, Proposer, current_proposer

store = MemoryStore(sys.argv[1])
for n, proposal in enumerate(store.pending()):
    if proposal.content and int(proposal.content.split()[1]) % 3 == 0:
        store.reject(proposal.id, "no")
    else:
        store.approve(proposal.id)
    print(n, flush=True)  # one decision made: the test kills during one of the next
"""

COUNT = 45  # decided proposals are kept up to MAX_DECIDED (50): every rejection stays visible


def _home(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    config = '[memory]\nwrite_policy = "approve"\n'
    if backend == "postgres":
        dsn = request.getfixturevalue("pg_dsn")
        config += f'[storage]\nbackend = "postgres"\ndsn = "{dsn}"\n'
    (home / "config.toml").write_text(config, encoding="utf-8")
    return home


def _fates(home: Path, acknowledged: dict[str, str]) -> dict[str, str]:
    """Each acknowledged proposal's fate, checked to be exactly one of pending/applied/rejected."""
    store = MemoryStore(home)
    store.review()  # the first look after a crash recovers an interrupted approval
    pending = {p.id for p in store.pending()}
    decided = store.proposals.decided()
    rejected = {p.id for p in decided if p.status == "rejected"}
    # Applied: its journal record names it, or (its record lost with the process that wrote the
    # notes) the box decided it approved.
    approved = {p.id for p in decided if p.status == "approved"}
    applied: dict[str, int] = {}
    for record in store.history("memory"):
        pid = (record.get("proposal") or {}).get("id")
        if pid:
            applied[pid] = applied.get(pid, 0) + 1
    entries = store.entries("memory")
    fates: dict[str, str] = {}
    for pid, content in acknowledged.items():
        found = (("pending", pid in pending), ("applied", pid in applied or pid in approved),
                 ("rejected", pid in rejected))
        states = [name for name, hit in found if hit]
        assert len(states) == 1, f"proposal {pid} ({content}) is {states or 'lost'}"
        assert applied.get(pid, 0) <= 1, f"proposal {pid} applied {applied[pid]} times"
        assert (content in entries) == (states == ["applied"]), (pid, content, states)
        fates[pid] = states[0]
    return fates


@pytest.mark.parametrize("backend", ["files", "postgres"])
def test_kill_9_while_approving_loses_no_proposal(tmp_path: Path, backend: str,
                                                   request: pytest.FixtureRequest) -> None:
    home = _home(tmp_path, backend, request)
    store = MemoryStore(home, write_policy="approve")
    acknowledged: dict[str, str] = {}
    for n in range(COUNT):
        content = f"fact {n:02d}"
        token = current_proposer.set(Proposer(session=f"s{n % 3}"))  # within each caller's quota
        try:
            result = memory_call(store, {"action": "add", "target": "memory", "content": content})
        finally:
            current_proposer.reset(token)
        assert result.get("pending"), result
        acknowledged[str(result["proposal_id"])] = content
    rng = random.Random(29)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    kills = 0
    for _ in range(12):
        worker = subprocess.Popen([sys.executable, "-c", WORKER, str(home)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert worker.stdout is not None
        # Killed during a decision after the first few, however fast the machine: a decision
        # takes ~10 ms, and a kill timed from the start missed them all once the worker started
        # faster than the sleep.
        for _ in range(rng.randint(1, 4)):
            if not worker.stdout.readline():
                break  # it decided everything pending
        time.sleep(rng.uniform(0, 0.008))
        if worker.poll() is None:
            worker.send_signal(signal.SIGKILL)
            kills += 1
        worker.wait(timeout=60)
        worker.stdout.close()
        assert worker.stderr is not None
        worker.stderr.close()
        fates = _fates(home, acknowledged)
        if "pending" not in fates.values():
            break
    final = subprocess.run([sys.executable, "-c", WORKER, str(home)], env=env, capture_output=True,
                           text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    fates = _fates(home, acknowledged)
    assert kills >= 3, "the workers finished before they could be killed: nothing was tested"
    expected = {pid: "rejected" if int(content.split()[1]) % 3 == 0 else "applied"
                for pid, content in acknowledged.items()}
    assert fates == expected


DIE_AT = """
import os, sys
from silcrow.store import MemoryStore, _files

def die(*args, **kwargs):
    os._exit(9)

setattr(_files.FileTransaction, sys.argv[2], die)
MemoryStore(sys.argv[1]).approve(sys.argv[3])
"""


@pytest.mark.parametrize("dies_in", ["write", "finish"])
def test_an_approval_killed_at_each_step_is_finished_or_undone_on_next_open(
        tmp_path: Path, dies_in: str, request: pytest.FixtureRequest) -> None:
    """The process dies right before the notes' write ("write": the intent is on disk, the
    notes are not), or right after the notes and the journal but before the box ("finish")."""
    home = _home(tmp_path, "files", request)
    store = MemoryStore(home, write_policy="approve")
    proposed = memory_call(store, {"action": "add", "target": "memory", "content": "Drinks tea"})
    pid = str(proposed["proposal_id"])
    died = subprocess.run([sys.executable, "-c", DIE_AT, str(home), dies_in, pid], capture_output=True,
                          text=True, timeout=120)
    assert died.returncode == 9, died.stderr
    intent = home / "memories" / "MEMORY.md.approving"
    assert intent.exists()
    assert [p.id for p in MemoryStore(home).pending()] == [pid]  # as the crash left the box
    fates = _fates(home, {pid: "Drinks tea"})  # the first look recovers
    assert not intent.exists()
    if dies_in == "write":
        assert fates == {pid: "pending"} and MemoryStore(home).entries("memory") == []
        assert MemoryStore(home).approve(pid)["success"]
    else:
        assert fates == {pid: "applied"}
        again = MemoryStore(home).approve(pid)
        assert again["success"] is False and "it was approved at" in again["error"]
    assert MemoryStore(home).entries("memory") == ["Drinks tea"]
    records = [r for r in MemoryStore(home).history("memory") if (r.get("proposal") or {}).get("id") == pid]
    assert len(records) == 1


def test_kill_9_of_the_server_while_it_approves_loses_no_proposal(tmp_path: Path) -> None:
    """As a reviewer would meet it: a real `silcrow serve`, approvals over REST from several
    clients at once, the server killed with SIGKILL mid-way and started again."""
    import threading

    import httpx
    from serve_support import CONFIG, create_token, make_home

    from silcrow._paths import resolve_home
    from silcrow.serve import ServerProcess

    home = make_home(tmp_path / "home", profiles=("a", "b"))
    profile = resolve_home(home, "a")
    (profile / "config.toml").write_text(CONFIG + '[memory]\nwrite_policy = "approve"\n', encoding="utf-8")
    # Three models, each with a token of its own (a caller's share of the box is per token).
    models = [create_token(home, profile="a", scope="write", name=f"model-{n}")[0] for n in range(3)]
    person = create_token(home, profile="a", scope="review", name="person")[0]
    auth = {"Authorization": f"Bearer {person}"}
    acknowledged: dict[str, str] = {}
    rng = random.Random(7)
    kills = 0
    server = ServerProcess(home).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            for n in range(COUNT):
                content = f"fact {n:02d}"
                reply = api.post("/v1/memory/memory", json={"content": content},
                                 headers={"Authorization": f"Bearer {models[n % 3]}"}).json()
                assert reply.get("pending"), reply
                acknowledged[reply["proposal_id"]] = content
        for _ in range(6):
            def approve_all(url: str = server.url) -> None:
                with httpx.Client(base_url=url, headers=auth, timeout=30) as api:
                    try:
                        for item in api.get("/v1/memory/pending").json()["pending"]:
                            number = int(str(item["content"]).split()[1])
                            decision = "reject" if number % 3 == 0 else "approve"
                            api.post(f"/v1/memory/pending/{item['id']}/{decision}")
                    except (httpx.HTTPError, ValueError, KeyError):
                        return  # the server died under us

            def left(url: str = server.url) -> int:
                with httpx.Client(base_url=url, headers=auth, timeout=30) as api:
                    return len(api.get("/v1/memory/pending").json()["pending"])

            before = left()
            workers = [threading.Thread(target=approve_all) for _ in range(3)]
            for worker in workers:
                worker.start()
            # Killed once a few decisions are made and while more are under way, however fast
            # the machine: a kill timed from the start could come after the last one.
            target, now = rng.randint(1, 6), before
            deadline = time.monotonic() + 60
            while now > 0 and before - now < target and time.monotonic() < deadline:
                time.sleep(0.005)
                now = left()
            time.sleep(rng.uniform(0, 0.01))
            assert server.proc is not None
            if server.proc.poll() is None:
                server.proc.send_signal(signal.SIGKILL)
                server.proc.wait(timeout=30)
                kills += 1 if now > 0 else 0  # a kill after the last decision tests nothing
            for worker in workers:
                worker.join(timeout=60)
            server.proc = None
            fates = _fates(profile, acknowledged)
            server.start()
            if "pending" not in fates.values():
                break
        with httpx.Client(base_url=server.url, headers=auth, timeout=60) as api:
            for item in api.get("/v1/memory/pending").json()["pending"]:
                decision = "reject" if int(str(item["content"]).split()[1]) % 3 == 0 else "approve"
                decided = api.post(f"/v1/memory/pending/{item['id']}/{decision}")
                assert decided.status_code == 200, decided.text
    finally:
        server.stop()
    assert kills >= 2, "the approvals finished before the server could be killed: nothing was tested"
    expected = {pid: "rejected" if int(content.split()[1]) % 3 == 0 else "applied"
                for pid, content in acknowledged.items()}
    assert _fates(profile, acknowledged) == expected
