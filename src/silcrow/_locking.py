"""An exclusive lock on a sidecar file, with a bounded wait and no polling.

``filelock`` waits by retrying a non-blocking lock every few milliseconds:
when several processes contend, the lock sits idle between a release and the
next poll, and the pollers burn CPU. Here a waiter blocks in the kernel
(``flock(LOCK_EX)``), so it is woken the moment the holder releases.

In the main thread the wait is the caller's own ``flock`` call, which the
kernel wakes directly; a timer thread interrupts it at the deadline with a
signal (``SIGURG``, which is ignored by default, so one that arrives late
does nothing); that thread is started once per process and sleeps through
waits that end before their deadline. Under contention this matters: every lock handoff waits for
one wake-up instead of two (a helper thread's, then the caller's), and the
handoff is on the critical path of every writer. Elsewhere (another thread,
or ``SIGURG`` already has a handler) a helper thread blocks in ``flock`` and
the caller waits for it at most ``timeout`` seconds; a waiter that gave up
(timeout, or an exception such as Ctrl-C during the wait) leaves that thread
to release the lock as soon as it gets it, so giving up never leaks a held
lock. A lock held by a process that dies
is released by the kernel, and a child forked without exec closes its
inherited copies at once, so it never keeps its parent's lock alive.

Where ``fcntl`` does not exist (Windows) the ``filelock`` library is used.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
import time
from pathlib import Path

from silcrow.errors import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class LockWaitTimeout(Exception):
    """The lock was not free within the timeout."""


class ExclusiveLock:
    """``acquire()`` / ``release()`` (or ``with``) an exclusive lock on ``path``, created if missing."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._fallback: object | None = None

    def acquire(self) -> None:
        """Wait at most ``timeout`` seconds; raises LockWaitTimeout, or OSError for a bad path."""
        if fcntl is None:  # pragma: no cover - Windows
            import filelock

            lock = filelock.FileLock(self.path, timeout=self.timeout)
            try:
                lock.acquire(poll_interval=0.002)
            except filelock.Timeout as exc:
                raise LockWaitTimeout(str(self.path)) from exc
            self._fallback = lock
            return
        self._fd = _acquire(self.path, self.timeout)

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            _close(fd)  # closing the only descriptor of this open file releases its flock
        elif self._fallback is not None:  # pragma: no cover - Windows
            lock, self._fallback = self._fallback, None
            lock.release()  # type: ignore[attr-defined]

    def __enter__(self) -> ExclusiveLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# Every descriptor this module has open (held or still waiting). A child forked without exec
# inherits them, and an flock lives until every descriptor of its open file is closed: the
# child closes its copies at once, so only the parent holds (or waits for) the lock.
_OPEN_FDS: set[int] = set()
_OPEN_FDS_LOCK = threading.Lock()


def _close(fd: int) -> None:
    with _OPEN_FDS_LOCK:
        _OPEN_FDS.discard(fd)
    os.close(fd)


def _close_inherited() -> None:
    global _OPEN_FDS_LOCK
    _OPEN_FDS_LOCK = threading.Lock()  # another thread may have held it at the fork
    for fd in list(_OPEN_FDS):
        try:
            os.close(fd)
        except OSError:
            pass
    _OPEN_FDS.clear()


def _after_fork() -> None:
    _close_inherited()
    _reset_alarm()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _open_lock_file(path: Path) -> int:
    # O_NOFOLLOW: a lock file replaced by a symlink could make us create or
    # chmod a file elsewhere. 0600 at creation, and an older, looser lock file
    # (Hermes creates its own with the umask's mode) is tightened.
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | _NOFOLLOW, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(
                f"the lock file {path} is a symbolic link; silcrow does not follow links for its "
                f"lock files. Remove the link (`rm {path}`) and retry; silcrow creates a new lock file"
            ) from exc
        raise
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except PermissionError:
        pass  # someone else's lock file: using it is still safe, tightening it is theirs to do
    except BaseException:
        os.close(fd)
        raise
    return fd


# Interrupts a wait in the main thread at its deadline; ignored by default (see the module doc).
_ALARM = getattr(signal, "SIGURG", None)


class _Deadline(BaseException):
    """Raised by the alarm's handler inside a waiting ``flock`` (never escapes this module)."""


def _can_wait_here() -> bool:
    return (
        _ALARM is not None
        and hasattr(signal, "pthread_kill")
        and threading.current_thread() is threading.main_thread()
        # Someone else's handler (or one set outside Python, None) is theirs: do not replace it.
        and signal.getsignal(_ALARM) in (signal.SIG_DFL, signal.SIG_IGN)
    )


_RESEND = 0.01


class _Alarm:
    """One thread per process that sends the main thread ``_ALARM`` at the deadline of its
    current wait. It sleeps until the earliest deadline it was given and is woken only when
    a new deadline comes sooner, so a wait costs no thread start and, under steady
    contention, no wake-up: a wait that ends just disarms it."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._deadline: float | None = None  # of the wait armed now
        self._serial = 0  # of the wait armed now
        self._sleeping_until: float | None = None  # None: idle (or not started)
        self.fired = 0  # the serial of the last wait it interrupted
        self._pid = -1

    def reserve(self) -> int:
        """The serial the next :meth:`arm` will fire with (known before it can fire)."""
        with self._cond:
            self._serial += 1
            return self._serial

    def arm(self, timeout: float) -> None:
        with self._cond:
            if self._pid != os.getpid():  # first use, or a child forked without this thread
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="silcrow-lock-alarm", daemon=True).start()
            self._deadline = time.monotonic() + timeout
            if self._sleeping_until is None or self._deadline < self._sleeping_until:
                self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self._deadline = None

    def _run(self) -> None:
        main = threading.main_thread().ident
        assert main is not None and _ALARM is not None
        with self._cond:
            while True:
                now = time.monotonic()
                if self._deadline is not None and now >= self._deadline:
                    # Sent again until the wait is disarmed: a signal that lands just before
                    # the main thread enters flock() would not interrupt it.
                    self._deadline = now + _RESEND
                    self.fired = self._serial
                    signal.pthread_kill(main, _ALARM)
                self._sleeping_until = self._deadline
                self._cond.wait(None if self._deadline is None else self._deadline - now)


_ALARM_THREAD = _Alarm()


def _reset_alarm() -> None:
    global _ALARM_THREAD
    _ALARM_THREAD = _Alarm()  # its lock may have been held at the fork; its thread is gone


def _wait_here(fd: int, path: Path, timeout: float) -> None:
    """Block in ``flock`` in this (the main) thread until the lock is ours or ``timeout`` passes."""
    assert _ALARM is not None
    alarm = _ALARM_THREAD
    serial = alarm.reserve()
    waiting = True

    def interrupt(signum: int, frame: object) -> None:
        # Only this wait's own alarm counts: a late one for an earlier wait is ignored.
        if waiting and alarm.fired == serial:
            raise _Deadline

    previous = signal.signal(_ALARM, interrupt)
    try:
        try:
            alarm.arm(timeout)  # inside: with a tiny timeout the alarm can come at once
            fcntl.flock(fd, fcntl.LOCK_EX)
            waiting = False
        except _Deadline:
            waiting = False
            # The alarm may have come just as the lock was granted: then this succeeds at once.
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LockWaitTimeout(str(path)) from None
    finally:
        waiting = False
        alarm.disarm()
        signal.signal(_ALARM, previous)


def _acquire(path: Path, timeout: float) -> int:
    fd = _open_lock_file(path)
    with _OPEN_FDS_LOCK:
        _OPEN_FDS.add(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except BlockingIOError:
        pass
    except BaseException:
        _close(fd)
        raise
    if timeout <= 0:
        _close(fd)
        raise LockWaitTimeout(str(path))
    if _can_wait_here():
        try:
            _wait_here(fd, path, timeout)
        except BaseException:  # a timeout, or e.g. Ctrl-C while waiting: closing frees what we got
            _close(fd)
            raise
        return fd
    got = threading.Event()
    guard = threading.Lock()
    state: dict[str, object] = {"abandoned": False, "error": None}

    def wait() -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            state["error"] = exc
        with guard:
            if state["abandoned"]:
                _close(fd)  # the caller gave up: release at once
                return
            got.set()

    threading.Thread(target=wait, name=f"lock-wait:{path.name}", daemon=True).start()
    try:
        got.wait(timeout)
    except BaseException:  # e.g. Ctrl-C while waiting: give up without leaving the lock behind
        with guard:
            if got.is_set():
                _close(fd)
            else:
                state["abandoned"] = True
        raise
    with guard:
        if not got.is_set():
            state["abandoned"] = True
            raise LockWaitTimeout(str(path))
    error = state["error"]
    if isinstance(error, OSError):
        _close(fd)
        raise error
    return fd
