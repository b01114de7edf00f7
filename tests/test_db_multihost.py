"""Many hosts, one PostgreSQL: 8 writer processes with their own empty homes and the same DSN.

Each writer does 100 mixed operations (add / replace / remove / batch, both
targets) on entries only it owns, logging what its entries must be before
and after each operation and whether the store acknowledged it. At the end
every writer's entries in the database must be exactly what its acknowledged
operations imply: one lost update (a write based on a stale read) or a half
applied batch shows up as a difference. Repeated with the server restarted
mid-run (clients retry; nothing acknowledged is lost) and with writers
SIGKILLed mid-run (their last operation is all or nothing).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pg_support import PgServer

from silcrow.store import MemoryStore, PostgresBackend

WRITERS = 8
OPS = 100

_WRITER = r"""
import json, random, sys
from pathlib import Path
from silcrow.home import open_profile
from silcrow.store import MemoryStore

home, me, ops = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(me)
backend = open_profile(home).notes_backend()
store = MemoryStore(memory_char_limit=10**6, user_char_limit=10**6, backend=backend)
mine = {"memory": [], "user": []}
serial = 0

def tag():
    global serial
    serial += 1
    return f"<w{me}-{serial}>"  # delimited: no tag is a substring of another

def log(**fields):
    print(json.dumps(fields), flush=True)

for i in range(ops):
    target = rng.choice(["memory", "user"])
    have = mine[target]
    op = rng.choice(["add", "replace", "remove", "batch"]) if have else "add"
    after = list(have)
    if op == "add":
        new = tag()
        after.append(new)
        call = lambda: store.add(target, new, origin="test")
    elif op == "replace":
        old, new = rng.choice(have), tag()
        after[after.index(old)] = new
        call = lambda: store.replace(target, old, new, origin="test")
    elif op == "remove":
        old = rng.choice(have)
        after.remove(old)
        call = lambda: store.remove(target, old, origin="test")
    else:
        old, a, b = rng.choice(have), tag(), tag()
        after.remove(old)
        after += [a, b]
        batch = [{"action": "add", "content": a}, {"action": "remove", "old_text": old},
                 {"action": "add", "content": b}]
        call = lambda: store.apply_batch(target, batch, origin="test")
    log(i=i, target=target, before=have, after=after)
    try:
        result = call()
        ok, error = bool(result.get("success")), result.get("error")
    except Exception as exc:  # a SilcrowError from the backend: not acknowledged
        ok, error = False, f"{type(exc).__name__}: {exc}"
    if ok:
        mine[target] = after
    else:
        # Not acknowledged: the change is either wholly there or wholly absent. Read which.
        live = [e for e in store.entries(target) if e.startswith(f"<w{me}-")]
        mine[target] = live
    log(ack=i, ok=ok, error=error, now=mine[target])
log(done=True)
"""


def _start(pg_dsn: str, tmp_path: Path) -> list[tuple[subprocess.Popen[str], Path]]:
    procs = []
    for me in range(WRITERS):
        home = tmp_path / f"host{me}"  # its own empty home, as on its own machine
        home.mkdir()
        config = f'[storage]\nbackend = "postgres"\ndsn = "{pg_dsn}"\n'
        (home / "config.toml").write_text(config, encoding="utf-8")
        out = tmp_path / f"host{me}.log"
        handle = open(out, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(home), str(me), str(OPS)],
            stdout=handle, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        handle.close()
        procs.append((proc, out))
    return procs


def _log(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip().endswith("}")]


def _acks(procs: list[tuple[subprocess.Popen[str], Path]]) -> int:
    return sum(sum(1 for r in _log(out) if r.get("ok")) for _, out in procs)


def _wait_for_acks(procs: list[tuple[subprocess.Popen[str], Path]], count: int) -> None:
    deadline = time.monotonic() + 120
    while _acks(procs) < count:
        assert time.monotonic() < deadline, "the writers made no progress"
        assert any(p.poll() is None for p, _ in procs), "every writer exited early"
        time.sleep(0.05)


def _expected(records: list[dict[str, Any]]) -> dict[str, list[list[str]]]:
    """Per target, the states the writer's entries may be in: one, or two when its last
    operation was cut off before an answer (it is then wholly applied or wholly absent)."""
    state: dict[str, list[list[str]]] = {"memory": [[]], "user": [[]]}
    pending: dict[str, Any] | None = None
    for r in records:
        if "i" in r:
            pending = r
        elif "ack" in r:
            assert pending is not None and pending["i"] == r["ack"]
            state[pending["target"]] = [r["now"]]
            pending = None
    if pending is not None:
        state[pending["target"]] = [pending["before"], pending["after"]]
    return state


def _check(pg_dsn: str, procs: list[tuple[subprocess.Popen[str], Path]], killed: set[int]) -> int:
    store = MemoryStore(memory_char_limit=10**6, user_char_limit=10**6, backend=PostgresBackend(pg_dsn))
    acknowledged = 0
    for me, (_, out) in enumerate(procs):
        records = _log(out)
        if me not in killed:
            assert records and records[-1] == {"done": True}, f"writer {me} did not finish"
        acknowledged += sum(1 for r in records if r.get("ok"))
        for target, allowed in _expected(records).items():
            live = [e for e in store.entries(target) if e.startswith(f"<w{me}-")]
            assert live in allowed, f"writer {me} {target}: stored {live}, acknowledged {allowed}"
    # The journal saw every committed change, in an order consistent with the final text.
    history = store.history("memory")
    assert history and history[-1]["after"] == store.entries("memory")
    return acknowledged


def _finish(procs: list[tuple[subprocess.Popen[str], Path]], killed: set[int]) -> None:
    for me, (proc, _) in enumerate(procs):
        _, err = proc.communicate(timeout=300)
        if me not in killed:
            assert proc.returncode == 0, err


@pytest.mark.slow
def test_eight_hosts_lose_no_update(pg_dsn: str, tmp_path: Path) -> None:
    procs = _start(pg_dsn, tmp_path)
    _finish(procs, set())
    assert _check(pg_dsn, procs, set()) == WRITERS * OPS  # nothing was refused either


@pytest.mark.slow
def test_a_server_restart_mid_run_loses_nothing_acknowledged(
    pg_server: PgServer, pg_dsn: str, tmp_path: Path
) -> None:
    procs = _start(pg_dsn, tmp_path)
    _wait_for_acks(procs, WRITERS * OPS // 4)
    before = _acks(procs)
    pg_server.restart()  # fast mode: every open connection is cut, mid-transaction or not
    _finish(procs, set())
    assert _acks(procs) > before  # the writers came back after the restart
    assert _check(pg_dsn, procs, set()) >= WRITERS * OPS - WRITERS  # at most one cut-off op each


@pytest.mark.slow
def test_writers_killed_mid_run_leave_no_partial_write(pg_dsn: str, tmp_path: Path) -> None:
    procs = _start(pg_dsn, tmp_path)
    _wait_for_acks(procs, WRITERS * OPS // 4)
    killed = {1, 4, 6}
    for me in killed:
        os.kill(procs[me][0].pid, signal.SIGKILL)
    _finish(procs, killed)
    assert _check(pg_dsn, procs, killed) > 0
    # The survivors can still write: no lock was left behind by the dead.
    store = MemoryStore(backend=PostgresBackend(pg_dsn), memory_char_limit=10**6)
    assert store.add("memory", "after the crash")["success"]
