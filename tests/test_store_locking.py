"""The sidecar lock: a bounded wait, a waiter that gives up leaks nothing, a dead holder frees it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from silcrow._locking import ExclusiveLock, LockWaitTimeout

HOLD = (
    "import fcntl, os, sys, time\n"
    "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.readline()\n"  # hold until told to let go
)
TRY = (
    "import fcntl, os, sys, time\n"
    "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
    "deadline = time.monotonic() + 10\n"
    "while True:\n"
    "    try:\n"
    "        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); print('got'); break\n"
    "    except BlockingIOError:\n"
    "        if time.monotonic() > deadline: print('never'); break\n"
    "        time.sleep(0.01)\n"
)


def _holder(path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_held_lock_times_out_and_the_given_up_wait_leaks_nothing(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)
    try:
        with pytest.raises(LockWaitTimeout):
            ExclusiveLock(path, 0.2).acquire()
    finally:
        holder.communicate("go\n", timeout=10)  # the holder lets go and exits
    # The abandoned waiter's thread takes the lock when it frees up and drops it at once:
    # another process can have it.
    other = subprocess.run([sys.executable, "-c", TRY, str(path)], capture_output=True, text=True,
                           timeout=30)
    assert other.stdout.strip() == "got"


def test_a_waiter_gets_the_lock_when_the_holder_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)
    lock = ExclusiveLock(path, 30.0)
    try:
        import threading

        released = threading.Timer(0.2, lambda: holder.communicate("go\n", timeout=10))
        released.start()
        start = time.monotonic()
        lock.acquire()
        waited = time.monotonic() - start
        released.join()
    finally:
        if holder.poll() is None:
            holder.kill()
    try:
        assert 0.1 < waited < 30  # it waited for the holder, and got the lock well before its timeout
        blocked = subprocess.run([sys.executable, "-c", TRY.replace("+ 10", "+ 0.3"), str(path)],
                                 capture_output=True, text=True, timeout=30)
        assert blocked.stdout.strip() == "never"  # and it really holds it
    finally:
        lock.release()


def test_a_holder_killed_mid_hold_frees_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)
    holder.kill()
    holder.wait(10)
    with ExclusiveLock(path, 5.0):
        pass


def test_an_interrupted_wait_does_not_leave_the_lock_behind(tmp_path: Path) -> None:
    import signal

    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(KeyboardInterrupt):
            ExclusiveLock(path, 30.0).acquire()  # Ctrl-C while waiting for the holder
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        holder.communicate("go\n", timeout=10)
    other = subprocess.run([sys.executable, "-c", TRY, str(path)], capture_output=True, text=True,
                           timeout=30)
    assert other.stdout.strip() == "got"  # the given-up waiter released what it got


def test_a_forked_child_does_not_keep_the_parents_lock(tmp_path: Path) -> None:
    import os

    path = tmp_path / "MEMORY.md.lock"
    lock = ExclusiveLock(path, 5.0)
    lock.acquire()
    pid = os.fork()
    if pid == 0:  # the child: outlive the parent's hold for a while, then leave
        time.sleep(3)
        os._exit(0)
    try:
        lock.release()
        other = subprocess.run([sys.executable, "-c", TRY.replace("+ 10", "+ 1"), str(path)],
                               capture_output=True, text=True, timeout=30)
        assert other.stdout.strip() == "got"  # not held by the sleeping child
    finally:
        os.waitpid(pid, 0)


def test_a_timed_out_wait_in_the_main_thread_puts_the_signal_handler_back(tmp_path: Path) -> None:
    import signal

    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)
    try:
        before = signal.getsignal(signal.SIGURG)
        for timeout in (0.2, 0.0, 0.001, 0.05):  # even a wait that cannot start times out
            with pytest.raises(LockWaitTimeout):
                ExclusiveLock(path, timeout).acquire()
            assert signal.getsignal(signal.SIGURG) == before
        # Someone else's SIGURG handler is left alone: the wait happens in a helper thread then.
        seen: list[int] = []
        signal.signal(signal.SIGURG, lambda signum, frame: seen.append(signum))
        try:
            with pytest.raises(LockWaitTimeout):
                ExclusiveLock(path, 0.2).acquire()
            assert seen == []
        finally:
            signal.signal(signal.SIGURG, before)
    finally:
        holder.communicate("go\n", timeout=10)
    other = subprocess.run([sys.executable, "-c", TRY, str(path)], capture_output=True, text=True,
                           timeout=30)
    assert other.stdout.strip() == "got"


def test_a_wait_in_another_thread_times_out_and_then_gets_the_lock(tmp_path: Path) -> None:
    import threading

    path = tmp_path / "MEMORY.md.lock"
    holder = _holder(path)
    outcome: list[str] = []

    def wait(timeout: float) -> None:
        lock = ExclusiveLock(path, timeout)
        try:
            lock.acquire()
        except LockWaitTimeout:
            outcome.append("timeout")
            return
        outcome.append("got")
        lock.release()

    try:
        waiter = threading.Thread(target=wait, args=(0.2,))
        waiter.start()
        waiter.join(30)
        assert outcome == ["timeout"]
        waiter = threading.Thread(target=wait, args=(30.0,))
        waiter.start()
        time.sleep(0.2)
    finally:
        holder.communicate("go\n", timeout=10)
    waiter.join(30)
    assert outcome == ["timeout", "got"]
