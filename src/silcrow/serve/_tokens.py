"""API tokens for ``silcrow serve``: each bound to one profile, with a read, write or review scope.

Scopes nest: ``read`` looks, ``write`` also changes memory (with ``write_policy =
"approve"`` its writes wait as proposals), ``review`` also decides those proposals
and edits through the web inspector. ``review`` is for a person: ``silcrow tokens
create`` gives it only with ``--scope review``, and the inspector's one-time login
link gives it (whoever opens the link is at the browser). A token made by the
link expires (``[serve] login_token_hours``, :data:`LOGIN_TOKEN_HOURS` by default)
and is revoked by the inspector's "Log out"; an expired token is refused and pruned.

Tokens live in ``<home>/tokens.json`` (mode 0600), hashed with SHA-256: the
secret itself is printed once by ``silcrow tokens create`` and never stored.
A token is random (32 bytes), so a plain hash is enough; there is nothing to
guess. The file is re-read when it changes, so a running server honours a
new or revoked token at its next request.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from silcrow._atomic import replace_file
from silcrow._locking import ExclusiveLock, LockWaitTimeout
from silcrow._paths import validate_profile
from silcrow._private import private_dir, tighten
from silcrow.config import PositiveInt
from silcrow.errors import ConfigError, LockTimeoutError

TOKENS_FILE = "tokens.json"
SCOPES = ("read", "write", "review")  # each includes the ones before it
PREFIX = "slc_"
LOGIN_TOKEN_HOURS = 12  # how long a token made by the one-time login link lasts, by default
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


def scope_includes(scope: str, needed: str) -> bool:
    """Whether a token of ``scope`` may do what ``needed`` allows (scopes nest; see SCOPES)."""
    return scope in SCOPES and SCOPES.index(scope) >= SCOPES.index(needed)


def _stamp(seconds: float) -> str:
    return time.strftime(_STAMP, time.gmtime(seconds))


@dataclass(frozen=True)
class ServeSettings:
    """The ``[serve]`` table of config.toml (a profile's over its home's)."""

    login_token_hours: PositiveInt = LOGIN_TOKEN_HOURS


def login_token_seconds(base: Path, profile: str | None) -> float:
    """How long a token made by the one-time login link for ``profile`` lasts, in seconds."""
    from silcrow.config import profile_settings

    settings = profile_settings(base, profile).settings.section("serve", ServeSettings)
    return settings.login_token_hours * 3600.0


@dataclass(frozen=True)
class TokenRecord:
    id: str
    name: str
    profile: str | None  # None: the home itself, not a named profile
    scope: str
    created_at: str
    sha256: str
    expires_at: str | None = None  # UTC; None: until revoked
    login: bool = False  # made by the inspector's one-time link (its "Log out" revokes it)
    # The project roots it may name (X-Silcrow-Project); None: any project on the server's machine.
    projects: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.projects is not None:  # read back from JSON as a list
            object.__setattr__(self, "projects", tuple(self.projects))

    def expired(self, now: float | None = None) -> bool:
        if self.expires_at is None:
            return False
        # Stamps hold whole seconds (same format: sortable), so a token holds through the second
        # its stamp names: it lasts at least what was asked (until that second began, a 1-second
        # token made late in a second lasted a tenth of one).
        return self.expires_at < _stamp(time.time() if now is None else now)

    def public(self) -> dict[str, Any]:
        """What ``tokens list`` shows: everything but the hash."""
        data = asdict(self)
        del data["sha256"]
        return data


def _is_control(char: str) -> bool:
    """Control, format (bidi overrides, zero-width) and unassigned characters: what a terminal
    may act on instead of printing."""
    return unicodedata.category(char).startswith("C")


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: each control character shown as its code point."""
    return "".join(f"\\u{ord(c):04x}" if _is_control(c) else c for c in text)


def has_tokens(home: Path) -> bool:
    """Whether ``home`` has any token (a server then refuses callers without one)."""
    return TokenBook(home).any()


def tokens_path(home: Path) -> Path:
    return home / TOKENS_FILE


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _read(path: Path) -> list[TokenRecord]:
    if not path.exists():
        return []
    tighten(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [TokenRecord(**item) for item in data["tokens"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            f"cannot read the token file {path} ({exc}); fix it, or move it aside and create the "
            "tokens again with `silcrow tokens create`"
        ) from exc


def _write(path: Path, records: list[TokenRecord]) -> None:
    private_dir(path.parent)
    # A token for any project is written as before there were project limits.
    rows = [{k: v for k, v in asdict(r).items() if not (k == "projects" and v is None)} for r in records]
    text = json.dumps({"tokens": rows}, indent=2) + "\n"
    replace_file(path, text, mode=0o600)  # secrets' hashes: the owner's only


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """The token file's sidecar lock (fcntl on POSIX, filelock only on Windows)."""
    private_dir(path.parent)
    lock = ExclusiveLock(Path(str(path) + ".lock"), timeout=10)
    try:
        lock.acquire()
    except LockWaitTimeout:
        raise LockTimeoutError(f"{path} stayed locked by another silcrow process for 10 s; "
                               "try again when it has finished") from None
    try:
        yield
    finally:
        lock.release()


def create_token(home: Path, *, profile: str | None, scope: str = "write",
                 name: str | None = None, expires_in: float | None = None,
                 login: bool = False, projects: Sequence[str | Path] | None = None
                 ) -> tuple[str, TokenRecord]:
    """Make a token; returns ``(secret, record)``. The secret is shown once and not stored.
    ``expires_in``: seconds it lasts (None: until revoked). ``projects``: directories of the
    only projects its requests may name (each a directory inside a git work tree, kept as that
    tree's root); None: any. Expired tokens are pruned here."""
    if scope not in SCOPES:
        raise ConfigError(f"unknown token scope {scope!r}: use 'read', 'write' or 'review'")
    if expires_in is not None and expires_in <= 0:
        raise ConfigError(f"a token must last a positive time, not {expires_in} seconds")
    if profile is not None:
        validate_profile(profile)
    roots = None if projects is None else tuple(dict.fromkeys(_project_root(p) for p in projects))
    path = tokens_path(home)
    with _locked(path):
        records = [r for r in _read(path) if not r.expired()]
        token_id = secrets.token_hex(4)
        label = name or f"token-{token_id}"
        if any(_is_control(c) for c in label) or not label.strip():
            raise ConfigError(f"token name {printable(label)!r} has control characters or is blank; "
                              "use letters, digits and punctuation")
        if any(r.name == label for r in records):
            raise ConfigError(f"a token named {label!r} exists already; pick another --name or revoke it")
        secret = f"{PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
        created = time.time()
        record = TokenRecord(id=token_id, name=label, profile=profile, scope=scope,
                             created_at=_stamp(created), sha256=_digest(secret),
                             expires_at=None if expires_in is None else _stamp(created + expires_in),
                             login=login, projects=roots)
        _write(path, [*records, record])
    return secret, record


def _project_root(given: str | Path) -> str:
    """The root of the project (git work tree) holding directory ``given``; ConfigError if none."""
    from silcrow._projects import find_project

    root = find_project(given) if Path(given).is_dir() else None
    if root is None:
        raise ConfigError(f"--project {given}: not a directory inside a git work tree; give a "
                          "directory of the project the token may work in")
    return str(root)


def list_tokens(home: Path) -> list[TokenRecord]:
    return _read(tokens_path(home))


def revoke_token(home: Path, id_or_name: str) -> TokenRecord:
    """Delete the token with that id or name; ConfigError when there is none."""
    path = tokens_path(home)
    if not path.exists():  # nothing to revoke, and nothing to create on the way
        raise ConfigError(f"no token with id or name {id_or_name!r}: {home} has no tokens yet")
    with _locked(path):
        records = _read(path)
        found = [r for r in records if id_or_name in (r.id, r.name)]
        if not found:
            raise ConfigError(f"no token with id or name {id_or_name!r}; see `silcrow tokens list`")
        _write(path, [r for r in records if r not in found])
    return found[0]


def prune_expired(home: Path) -> list[TokenRecord]:
    """Delete the expired tokens; returns them."""
    path = tokens_path(home)
    if not path.exists():
        return []
    with _locked(path):
        records = _read(path)
        expired = [r for r in records if r.expired()]
        if expired:
            _write(path, [r for r in records if not r.expired()])
    return expired


class TokenBook:
    """The tokens of a home as a running server sees them, reloaded when the file changes."""

    def __init__(self, home: Path) -> None:
        self.path = tokens_path(home)
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int, int] | None = None
        self._by_hash: dict[str, TokenRecord] = {}

    def _refresh(self) -> None:
        try:
            stat = self.path.stat()
            # The inode too: a file replaced atomically (os.replace) within the clock's
            # granularity may keep the size and mtime of the one it replaced.
            stamp: tuple[int, int, int, int] | None = (
                stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_dev)
        except FileNotFoundError:
            stamp = None
        with self._lock:
            if stamp == self._stamp and (stamp is not None or not self._by_hash):
                return
            records = _read(self.path) if stamp is not None else []
            self._by_hash = {r.sha256: r for r in records}
            self._stamp = stamp

    def any(self) -> bool:
        self._refresh()
        return bool(self._by_hash)

    def verify(self, token: str) -> TokenRecord | None:
        self._refresh()
        return self._by_hash.get(_digest(token))
