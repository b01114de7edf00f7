"""ByteroverProvider: ByteRover's ``brv`` command as silcrow's recall (one subprocess per call).

As the Hermes ``byterover`` plugin: ``prefetch`` runs ``brv query`` for
messages of 10 characters or more and shows answers longer than 20
characters; with ``auto_extract`` (default on) every substantive turn is
curated (``brv curate "User: ... Assistant: ..."``), curated-memory adds and
replaces are mirrored (``[User profile] ...`` / ``[Agent memory] ...``) and
the last ten messages are curated before a compression. Tools: brv_query,
brv_curate, brv_status. The context tree lives in ``<home>/byterover``.

Curations go through the durable outbox, so a ``brv`` that fails (daemon
down, timeout) loses nothing: they are replayed in order later.

Settings (``[recall.byterover]`` or the environment): ``api_key``
(BRV_API_KEY, passed on to ``brv`` for cloud sync), ``auto_extract``; silcrow
adds ``brv_path`` (default: ``brv`` on PATH or its usual install places),
``query_timeout`` (10 s) and ``curate_timeout`` (120 s).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from silcrow._private import private_dir
from silcrow.errors import RecallError, ServiceError
from silcrow.providers._base import HostedProvider, ToolHandler
from silcrow.providers._sdk import required_text
from silcrow.providers.byterover._tools import CURATE, QUERY, STATUS
from silcrow.recall import ToolResult, ToolSpec

log = logging.getLogger(__name__)

MIN_QUERY = 10    # shorter messages are not worth a query
MIN_OUTPUT = 20   # shorter answers are "nothing found" messages
TURN_CHARS = 2000
TOOL_OUTPUT_CHARS = 8000
INSTALL = "npm install -g byterover-cli"
# How brv 3.14 words a daemon it cannot start or reach (seen here: it exits 0 all the same).
DAEMON_DOWN = ("Failed to connect to the daemon", "Connection error: Failed to start daemon")


def _known_locations() -> list[Path]:
    home = Path.home()
    return [home / ".brv-cli" / "bin" / "brv", Path("/usr/local/bin/brv"),
            home / ".npm-global" / "bin" / "brv"]


class ByteroverProvider(HostedProvider):
    name = "byterover"
    extra = "byterover"
    defaults: Mapping[str, Any] = {
        "api_key": "", "auto_extract": True, "brv_path": "", "query_timeout": 10.0, "curate_timeout": 120.0,
    }
    env: Mapping[str, str | tuple[str, ...]] = {"api_key": "BRV_API_KEY"}

    def __init__(self, home: Path | str | None = None, **context: Any) -> None:
        super().__init__(home, **context)
        self._flusher: threading.Thread | None = None

    # -- the brv command -------------------------------------------------------------------

    def brv_path(self) -> str | None:
        configured = str(self.config["brv_path"] or "")
        if configured:
            return configured if os.access(configured, os.X_OK) else None
        found = shutil.which("brv")
        if found:
            return found
        return next((str(p) for p in _known_locations() if os.access(p, os.X_OK)), None)

    def missing_settings(self) -> str:
        if self.brv_path() is None:
            where = self.config["brv_path"]
            if where:
                return f"brv_path = {where!r} in [recall.byterover] is not an executable file; fix the path"
            return f"the brv command is not installed: {INSTALL} (or set brv_path in [recall.byterover])"
        return ""

    @property
    def workdir(self) -> Path:
        return self.home / "byterover"

    def run_brv(self, args: list[str], timeout: float) -> str:
        """Run ``brv ARGS`` in the context-tree directory; its stdout, or a ServiceError."""
        path = self.brv_path()
        if path is None:
            raise ServiceError(f"byterover: the brv command is not installed: {INSTALL}")
        private_dir(self.workdir)
        env = dict(os.environ)
        env["PATH"] = str(Path(path).parent) + os.pathsep + env.get("PATH", "")
        if self.config["api_key"]:
            env["BRV_API_KEY"] = str(self.config["api_key"])
        try:
            done = subprocess.run([path, *args], cwd=self.workdir, env=env, capture_output=True, text=True,
                                  encoding="utf-8", errors="replace", timeout=timeout,
                                  stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired as exc:
            raise ServiceError(f"byterover: brv {args[0]} did not finish within {timeout:g}s") from exc
        except OSError as exc:
            raise ServiceError(f"byterover: cannot run {path}: {exc}; reinstall it ({INSTALL})") from exc
        if done.returncode != 0:
            detail = (done.stderr.strip() or done.stdout.strip() or "no output")[:300]
            # Exit 2 is a usage error: the same call would fail again, so do not retry it.
            raise ServiceError(f"byterover: brv {args[0]} exited {done.returncode}: {detail}",
                               permanent=done.returncode == 2)
        output = done.stdout.strip()
        lost = next((line for line in output.splitlines() if line.startswith(DAEMON_DOWN)), None)
        if lost is not None:
            # brv 3.x reports a daemon it cannot reach on stdout and still exits 0.
            raise ServiceError(f"byterover: brv {args[0]} could not reach its daemon ({lost.strip()}); "
                               "run `brv restart`")
        return output

    def _query(self, text: str) -> str:
        return self.run_brv(["query", "--", text.strip()[:5000]], float(self.config["query_timeout"]))

    def _curate(self, text: str) -> str:
        return self.run_brv(["curate", "--", text], float(self.config["curate_timeout"]))

    # -- lifecycle -------------------------------------------------------------------------

    def setup(self) -> None:
        private_dir(self.workdir)

    def system_prompt_block(self) -> str:
        return ("# ByteRover Memory\nActive. Persistent knowledge tree with hierarchical context.\n"
                "Use brv_query to search past knowledge, brv_curate to store important facts, "
                "brv_status to check its state.")

    def recall(self, query: str) -> str:
        if len(query.strip()) < MIN_QUERY:
            return ""
        output = self._query(query)
        return f"## ByteRover Context\n{output}" if len(output) > MIN_OUTPUT else ""

    def send_write(self, kind: str, payload: dict[str, Any]) -> None:
        if kind != "curate":
            raise RecallError(f"byterover cannot send a queued {kind!r} write: not one of its own")
        self._curate(str(payload["content"]))

    def _auto(self) -> bool:
        return bool(self.config["auto_extract"])

    def sync_turn(self, user: str, assistant: str, *, session_id: str = "") -> None:
        if not self._auto() or len(user.strip()) < MIN_QUERY:
            return
        content = f"User: {user[:TURN_CHARS]}\nAssistant: {assistant[:TURN_CHARS]}"
        self.queue_write("curate", {"content": content})

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        if not self._auto() or action not in ("add", "replace") or not content.strip():
            return
        label = "User profile" if target == "user" else "Agent memory"
        self.queue_write("curate", {"content": f"[{label}] {content}"})

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        """Curate the last ten messages before they are summarised; adds nothing to the summary."""
        if not self._auto():
            return ""
        parts = [f"{m['role']}: {m['content'][:500]}" for m in messages[-10:]
                 if m.get("role") in ("user", "assistant") and isinstance(m.get("content"), str)
                 and m["content"].strip()]
        if parts:
            # Kept on disk now; the slow curate runs in the background so compression does not wait.
            self.outbox.put("curate", {"content": "[Pre-compression context]\n" + "\n".join(parts)})
            self._flusher = threading.Thread(target=self.flush_outbox, name="silcrow-brv-flush", daemon=True)
            self._flusher.start()
        return ""

    # -- tools -----------------------------------------------------------------------------

    def tools(self) -> list[tuple[ToolSpec, ToolHandler]]:
        return [(QUERY, self._tool_query), (CURATE, self._tool_curate), (STATUS, self._tool_status)]

    def _tool_query(self, args: dict[str, Any]) -> ToolResult:
        query = required_text(args, "query")
        output = str(self.call("query", lambda: self._query(query)))
        if len(output) < MIN_OUTPUT:
            return ToolResult.done(result="No relevant memories found.")
        if len(output) > TOOL_OUTPUT_CHARS:
            output = output[:TOOL_OUTPUT_CHARS] + "\n\n[... truncated]"
        return ToolResult.done(result=output)

    def _tool_curate(self, args: dict[str, Any]) -> ToolResult:
        self.queue_write("curate", {"content": required_text(args, "content")})
        if len(self.outbox):
            return ToolResult.done(result="brv is not answering; the memory is queued on disk and will be "
                                          "curated when it is back.")
        return ToolResult.done(result="Memory curated successfully.")

    def _tool_status(self, args: dict[str, Any]) -> ToolResult:
        return ToolResult.done(status=self.call("status", lambda: self.run_brv(["status"], 15.0)))

    # -- `silcrow providers check` ---------------------------------------------------------

    def probe_write(self, text: str) -> str:
        self.call("check curate", lambda: self._curate(text))
        return text

    def probe_search(self, text: str) -> bool:
        return text in str(self.call("check query", lambda: self._query(text)))

    def probe_forget(self, ref: str) -> None:
        # brv has no command to delete one entry: remove it from the context tree, where brv keeps it.
        tree = self.workdir / ".brv" / "context-tree"
        for path in tree.rglob("*.md") if tree.is_dir() else []:
            if ref in path.read_text(encoding="utf-8", errors="replace"):
                path.unlink()

    def shutdown(self) -> None:
        flusher = self._flusher
        if flusher is not None:
            flusher.join(timeout=float(self.config["curate_timeout"]))
        super().shutdown()
