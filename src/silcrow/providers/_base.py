"""HostedProvider: what every external recall provider shares (see the package doc)."""

from __future__ import annotations

import functools
import importlib.util
import inspect
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from silcrow._paths import config_file, default_home
from silcrow.config import Settings
from silcrow.errors import ConfigError, RecallError, ServiceError, SilcrowError
from silcrow.providers._config import load_provider_config
from silcrow.providers._http import service_error
from silcrow.providers._outbox import Outbox, outbox_path
from silcrow.providers._resilience import Resilient
from silcrow.recall import MemoryProvider, ToolResult, ToolSpec
from silcrow.recall.policy import outgoing

log = logging.getLogger(__name__)

T = TypeVar("T")
ToolHandler = Callable[[dict[str, Any]], ToolResult | Mapping[str, Any]]

COMMON_DEFAULTS: dict[str, Any] = {"timeout": 10.0, "failure_threshold": 3, "cooldown": 30.0}
PROBE_ATTEMPTS = 6  # `providers check`: tries per step (waits 0.5, 1, 2, 4, 8 s between them)
SEARCH_ATTEMPTS = 5  # searches for the probe before "not found yet" (waits 0.5, 1, 2, 4 s)
TRANSIENT = {409, 429, 503}  # statuses the check waits out (409 only when marked retryable)
PROBE_MAX_WAIT = 10.0  # seconds: the most one wait may last, whatever a Retry-After asks


def install_hint(extra: str) -> str:
    return f'pip install "silcrow[{extra}]"'


#: The entry points through which text reaches a provider's service, and which of their arguments
#: carry it. Every one of them, on HostedProvider and on any subclass that defines it, passes those
#: arguments through :func:`silcrow.recall.policy.outgoing` (secrets redacted when the provider is
#: ``external``) before its body runs: whoever calls it (the manager, the Hermes bridge, a coding
#: hook, the outbox replaying a write an older version queued, a script), no secret goes out.
OUTGOING_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "prefetch": ("query",), "queue_prefetch": ("query",), "recall": ("query",),
    "sync_turn": ("user", "assistant"), "on_turn_start": ("message",),
    "on_session_end": ("messages",), "on_pre_compress": ("messages",),
    "on_memory_write": ("content",), "call_tool": ("args",), "handle_tool_call": ("args",),
    "send_write": ("payload",), "queue_write": ("payload",),
    "search": ("query",), "add_fact": ("text",), "forget": ("target",),
}


def _redacting(method: Callable[..., Any], names: tuple[str, ...]) -> Callable[..., Any]:
    signature = inspect.signature(method)
    present = tuple(n for n in names if n in signature.parameters)
    if not present or getattr(method, "__silcrow_redacts__", False):
        return method

    @functools.wraps(method)
    def redacted(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:  # a wrong call: the method itself says what was wrong
            return method(self, *args, **kwargs)
        for name in present:
            if name in bound.arguments:
                bound.arguments[name] = outgoing(self, bound.arguments[name])
        return method(*bound.args, **bound.kwargs)

    redacted.__silcrow_redacts__ = True  # type: ignore[attr-defined]
    return redacted


def _guard_outgoing(cls: type) -> None:
    for name, arguments in OUTGOING_ARGUMENTS.items():
        method = vars(cls).get(name)
        if callable(method):
            setattr(cls, name, _redacting(method, arguments))


class HostedProvider(MemoryProvider):
    """Base of the providers backed by an external service or library.

    A subclass sets ``name``, ``extra`` (its pip extra), ``modules`` (import
    names it needs), ``defaults`` (its config keys) and ``env`` (key -> env
    var), and implements what it supports among :meth:`send_write`,
    :meth:`recall`, :meth:`tools` and the ``probe_*`` methods.
    """

    extra: str = ""
    modules: tuple[str, ...] = ()
    defaults: Mapping[str, Any] = {}
    env: Mapping[str, str | tuple[str, ...]] = {}
    key_setting = "api_key"  # the config key of the API key (named in "refused key" advice)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _guard_outgoing(cls)  # a subclass's own entry points redact too (see OUTGOING_ARGUMENTS)

    def __init__(
        self, home: Path | str | None = None, *, environ: Mapping[str, str] | None = None,
        settings: Settings | None = None, **_context: Any,
    ) -> None:
        # Extra keyword arguments (e.g. `embedder`, given to every provider) are not for us.
        self._home = Path(home).expanduser() if home is not None else None
        self._environ = environ
        # The opened profile's settings (load_provider passes them): the [recall.<name>] table is
        # read from there, not from config.toml again.
        self._settings = settings
        self._config: dict[str, Any] | None = None
        self._resilient: Resilient | None = None
        self._outbox: Outbox | None = None
        self._setup_lock = threading.Lock()
        self.session_id = ""
        self.context: dict[str, Any] = {}
        self._closed = False
        self._drainer: threading.Thread | None = None

    # -- configuration ---------------------------------------------------------------------

    @property
    def home(self) -> Path:
        return self._home if self._home is not None else default_home()

    @property
    def config(self) -> dict[str, Any]:
        if self._config is None:
            self._config = load_provider_config(
                self.name, self.home, {**COMMON_DEFAULTS, **self.defaults}, self.env, self._environ,
                settings=self._settings)
        return self._config

    def key_hint(self, key: str) -> str:
        """How to set config ``key``: its env var, or the config.toml table."""
        names = self.env.get(key)
        var = names if isinstance(names, str) else (names[0] if names else "")
        table = f"`{key}` in [recall.{self.name}] of {config_file(self.home)}"
        return f"set {var} or {table}" if var else f"set {table}"

    def missing_settings(self) -> str:
        """Why the configuration is not enough to run ("" if it is). Never touches the network."""
        return ""

    def is_available(self) -> bool:
        return not self.unavailable_reason()

    def unavailable_reason(self) -> str:
        missing = [m for m in self.modules if importlib.util.find_spec(m.split(".")[0]) is None]
        if missing:
            hint = install_hint(self.extra or self.name)
            return f"the {', '.join(missing)} package is not installed: {hint}"
        try:
            return self.missing_settings()
        except ConfigError as exc:
            return str(exc)

    def initialize(self, session_id: str, **context: Any) -> None:
        home = context.get("home")
        if home is not None and (self._home is None or Path(home).expanduser() != self._home):
            self._home = Path(home).expanduser()
            self._config = None
            self._close_outbox()
        self.session_id = session_id or ""
        self.context = dict(context)
        self._closed = False
        self.setup()
        self.replay_soon()  # writes an earlier process could not deliver go out now, not at the next write

    def setup(self) -> None:
        """Open clients for the current config (called by initialize). No network needed."""

    # -- resilient calls -------------------------------------------------------------------

    @property
    def resilient(self) -> Resilient:
        if self._resilient is None:
            cfg = self.config
            hint = self.key_hint(self.key_setting) if self.key_setting in self.env else ""
            self._resilient = Resilient(
                self.name,
                timeout=float(cfg["timeout"]),
                threshold=int(cfg["failure_threshold"]),
                cooldown=float(cfg["cooldown"]),
                translate=lambda exc: service_error(self.name, exc, key_hint=hint),
            )
        return self._resilient

    def call(self, op: str, fn: Callable[[], T]) -> T:
        """One network operation with timeout, log-once and circuit breaker; raises ServiceError."""
        return self.resilient.call(op, fn)

    # -- durable writes --------------------------------------------------------------------

    @property
    def outbox(self) -> Outbox:
        with self._setup_lock:
            if self._outbox is None:
                self._outbox = Outbox(outbox_path(self.home, self.name))
            return self._outbox

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        """Deliver one queued write to the service (network); raise ServiceError on failure."""
        raise RecallError(f"provider {self.name!r} queued a {kind!r} write but does not send writes")

    def queue_write(self, kind: str, payload: dict[str, Any]) -> None:
        """Keep the write on disk, then deliver everything queued, in order (callers are background
        threads: the manager's worker runs sync_turn and the other write hooks)."""
        # The payload was redacted on the way in (OUTGOING_ARGUMENTS): no secret is kept on disk.
        self.outbox.put(kind, payload)
        self.flush_outbox(wait=True)

    def on_turn_start(self, turn_number: int, message: str, **_context: Any) -> None:
        """A new turn: what an outage left queued starts going out, on a thread of its own, since
        the manager calls this on the turn's critical path."""
        self.replay_soon()

    def replay_soon(self) -> None:
        """Start delivering queued writes on a background thread (if any are queued, here or by an
        earlier process, and the service is not paused)."""
        if self._outbox is None and not outbox_path(self.home, self.name).exists():
            return  # nothing was ever queued here (an earlier process's queue is in that file)
        if self.resilient.is_open or not len(self.outbox):
            return
        with self._setup_lock:
            if self._drainer is None or not self._drainer.is_alive():
                self._drainer = threading.Thread(
                    target=self.flush_outbox, name=f"silcrow-{self.name}-replay", daemon=True
                )
                self._drainer.start()

    def join_replay(self, timeout: float | None = None) -> None:
        """Wait for a replay that :meth:`on_turn_start` started (tests, shutdown)."""
        drainer = self._drainer
        if drainer is not None:
            drainer.join(timeout)

    def flush_outbox(self, *, wait: bool = False) -> int:
        """Deliver queued writes until one fails; returns how many went out. Never raises ServiceError.

        With ``wait`` a drain already running elsewhere is waited for (then this one sends what it
        left); without, that case returns 0 at once.
        """
        if self.resilient.is_open:
            return 0
        try:
            return self.outbox.drain(
                lambda kind, payload: self.call(f"write:{kind}", lambda: self.send_write(kind, payload)),
                wait=wait,
            )
        except ServiceError:
            return 0  # kept on disk; logged once by the breaker

    # -- reads -----------------------------------------------------------------------------

    def recall(self, query: str) -> str:
        """Recalled text for ``query`` (network); raise ServiceError on failure."""
        return ""

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        if not query.strip():
            return ""
        try:
            return self.call("prefetch", lambda: self.recall(query))
        except ServiceError:
            return ""  # the turn goes on without recall; the breaker logged it

    def recall_status(self) -> dict[str, Any]:
        status = super().recall_status()
        breaker = self._resilient
        status["paused"] = bool(breaker is not None and breaker.is_open)
        if breaker is not None and breaker.last_error:  # why recall from it is empty
            status["last_error"] = breaker.last_error
        try:
            status["queued_writes"] = len(self._outbox) if self._outbox is not None else (
                len(self.outbox) if outbox_path(self.home, self.name).exists() else 0)
        except (OSError, SilcrowError) as exc:
            status["queued_writes"] = None
            status["outbox_error"] = str(exc)
        return status

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> Sequence[tuple[ToolSpec, ToolHandler]]:
        """``(spec, handler)`` pairs; a handler returns a :class:`ToolResult` (or the fields of a
        successful one as a dict) or raises."""
        return []

    def _tools(self) -> dict[str, tuple[ToolSpec, ToolHandler]]:
        found: dict[str, tuple[ToolSpec, ToolHandler]] = {}
        for spec, handler in self.tools():
            if not isinstance(spec, ToolSpec):
                raise RecallError(f"{self.name}: tools() gave {type(spec).__name__}, not a ToolSpec: "
                                  f"{spec!r:.120}")
            found.setdefault(spec.name, (spec, handler))
        return found

    def tool_specs(self) -> list[ToolSpec]:
        return [spec for spec, _ in self._tools().values()]

    def call_tool(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        """Run tool ``name``'s handler; every failure is a failed :class:`ToolResult` that says
        what to do (a tool call must never break the agent loop)."""
        entry = self._tools().get(name)
        if entry is None:
            return ToolResult.failed(f"{self.name} has no tool {name!r}; available: {sorted(self._tools())}")
        if not isinstance(args, Mapping):
            return ToolResult.failed(f"arguments for {name!r} must be a JSON object")
        try:
            answer = entry[1](dict(args))
        except ServiceError as exc:
            return ToolResult.failed(f"{exc}; answer without this memory for now")
        except (RecallError, ValueError) as exc:
            return ToolResult.failed(str(exc))
        except Exception as exc:  # a tool call must never break the agent loop
            log.exception("%s tool %s failed", self.name, name)
            return ToolResult.failed(f"{name} failed unexpectedly ({type(exc).__name__}: {exc})")
        return answer if isinstance(answer, ToolResult) else ToolResult(dict(answer))

    # -- `silcrow providers check` ---------------------------------------------------------

    def prepare_clients(self) -> None:
        """Import and build the client now (no network), so a timed call measures only the service."""

    def probe_write(self, text: str) -> str:
        """Store ``text`` directly (not through the outbox); returns a reference for forget."""
        raise RecallError(f"provider {self.name!r} has no round-trip check")

    def probe_search(self, text: str) -> bool:
        """True when a search for ``text`` finds it."""
        raise RecallError(f"provider {self.name!r} has no round-trip check")

    def probe_forget(self, ref: str) -> None:
        """Delete what :meth:`probe_write` stored."""
        raise RecallError(f"provider {self.name!r} has no round-trip check")

    def retrying(self, fn: Callable[[], T], *, sleep: Callable[[float], None] = time.sleep) -> tuple[T, int]:
        """``fn()`` again after a transient answer (a 429, a 503, a 409 the service marked retryable),
        at most ``PROBE_ATTEMPTS`` times, waiting what the service asked (capped); anything else
        (a refusal, an unreachable service) is raised at once. Returns the value and the retries."""
        for attempt in range(PROBE_ATTEMPTS):
            try:
                return fn(), attempt
            except ServiceError as exc:
                if exc.permanent or exc.status not in TRANSIENT or attempt == PROBE_ATTEMPTS - 1:
                    raise
                wait = exc.retry_after if exc.retry_after is not None else 0.5 * 2**attempt
                sleep(min(wait, PROBE_MAX_WAIT))
                self.resilient.reset()  # this is a deliberate retry, not an outage to pause for
        raise AssertionError("unreachable")

    def round_trip(self, text: str) -> dict[str, Any]:
        """Write, search, forget ``text``; step latencies in ms and the retries transient failures
        needed. Raises ServiceError for a failure that retrying within the bound did not cure."""
        self.prepare_clients()  # importing an SDK is not the service's latency
        timings: dict[str, Any] = {"retries": 0}

        def timed(step: str, fn: Callable[[], T]) -> T:
            start = time.perf_counter()
            value, retries = self.retrying(fn)
            timings[f"{step}_ms"] = round((time.perf_counter() - start) * 1000, 1)
            timings["retries"] += retries
            return value

        def search() -> bool:
            # Services index asynchronously: a miss is asked again a few times before it counts.
            for attempt in range(SEARCH_ATTEMPTS):
                if self.probe_search(text):
                    return True
                if attempt < SEARCH_ATTEMPTS - 1:
                    time.sleep(0.5 * 2**attempt)
            return False

        ref = timed("write", lambda: self.probe_write(text))
        timings["found"] = timed("search", search)
        timed("forget", lambda: self.probe_forget(ref))
        return timings

    # -- end -------------------------------------------------------------------------------

    def _close_outbox(self) -> None:
        with self._setup_lock:
            if self._outbox is not None:
                self._outbox.close()
                self._outbox = None

    def close_clients(self) -> None:
        """Close network clients (called once by shutdown)."""

    def shutdown(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._outbox is not None:
            self.flush_outbox(wait=True)
            pending = len(self.outbox)
            if pending:
                log.warning(
                    "%s: %d writes are still queued in %s; they are sent when the service answers again "
                    "(next start or next write)",
                    self.name,
                    pending,
                    self.outbox.path,
                )
        self._close_outbox()
        self.close_clients()


_guard_outgoing(HostedProvider)
