"""What every command group shares: app state, consoles, output and error handling.

The one way to write a command (every group does it like this)::

    from silcrow.cli._common import JSON_OPTION, app_home, app_settings, console, error, guarded, print_json

    @group.command("frob")
    def frob(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
        home = app_home(ctx)             # resolved once, in the root callback
        with guarded():                  # SilcrowError / OSError -> one `error:` line, exit 1
            data = do_it(home, app_settings(ctx))
        if not data:
            raise error("nothing to frob; run `silcrow frob-setup` first")  # one line, exit 1
        if as_json:
            print_json(data)             # plain stdout, survives `| jq`
            return
        console.print(Text(...))         # stored text as Text, never as markup

- The root callback (:mod:`silcrow.cli.main`) validates ``--home``/``--profile``
  before any command runs: a bad profile, or a home that is a file, is a usage
  error (one ``error:`` line, exit 2) for every command alike, and nothing is
  created. :func:`app_home` returns that absolute path; a command that only reads
  must not create it (check for the file it reads and say how to make it).
- :func:`app_profile` is the selected profile opened by :func:`silcrow.home.open_profile`
  on first use (so a command that needs no settings is not stopped by a broken
  config.toml); :func:`app_settings` is its settings.
- An error a command reports itself: ``raise error("what was wrong; what to do")``.
- Exit codes: 0 ok, 1 refused (:data:`EXIT_REFUSED`), 2 usage (:data:`EXIT_USAGE`).
  A ``SilcrowError`` that escapes a command is still one line and exit 1
  (:func:`run_app`); :func:`guarded` only makes it explicit and adds ``OSError``.

"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from silcrow._paths import resolve_home
from silcrow.config import Settings, env_switch
from silcrow.errors import ConfigError, SilcrowError
from silcrow.home import Profile, open_profile

console = Console()
console_err = Console(stderr=True)

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2

JSON_OPTION: Any = typer.Option(False, "--json", help="print the result as JSON")


@dataclass
class AppState:
    """The root options, resolved once for every command."""

    home: str | None = None
    profile: str | None = None
    _path: Path | None = field(default=None, repr=False)
    _opened: Profile | None = field(default=None, repr=False)

    @classmethod
    def resolve(cls, home: str | None, profile: str | None) -> AppState:
        """Check ``--home``/``--profile``; a bad value is a usage error naming the option."""
        try:
            path = resolve_home(home, profile).absolute()
        except ConfigError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--profile'") from None
        if path.exists() and not path.is_dir():
            raise typer.BadParameter(
                f"{path} is not a directory; point --home (or SILCROW_HOME) at a directory",
                param_hint="'--profile'" if profile is not None else "'--home'",
            )
        return cls(home=home, profile=profile, _path=path)

    def resolved_home(self) -> Path:
        if self._path is None:
            self._path = resolve_home(self.home, self.profile).absolute()
        return self._path

    def opened(self) -> Profile:
        """The selected profile, opened once (settings read, storage decided)."""
        if self._opened is None:
            self._opened = open_profile(self.resolved_home())
        return self._opened

    def settings(self) -> Settings:
        return self.opened().settings


def state(ctx: typer.Context) -> AppState:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, AppState) else AppState()


def app_home(ctx: typer.Context) -> Path:
    """The absolute home of this invocation (``--home``, ``--profile``, ``SILCROW_HOME``)."""
    return state(ctx).resolved_home()


def app_profile(ctx: typer.Context) -> Profile:
    """The selected home/profile, opened once for the invocation (see :mod:`silcrow.home`)."""
    return state(ctx).opened()


def app_settings(ctx: typer.Context) -> Settings:
    """Settings from the home's config.toml and the environment, loaded once."""
    return state(ctx).settings()


def current_directory() -> str | None:
    """The directory the command runs in (whose git work tree is its project), or None when
    it is gone (removed under the shell)."""
    try:
        return os.getcwd()
    except OSError:
        return None


def safe_text(text: str) -> str:
    """``text`` made printable: undecodable bytes kept as surrogate escapes become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:  # a surrogate that is not an escaped byte
            return text.encode("utf-8", "replace").decode("utf-8")
    return text


def print_error(message: str) -> None:
    """One ``error: ...`` line on stderr (the text is never read as markup)."""
    console_err.print(Text.assemble(("error: ", "bold red"), safe_text(message)),
                      highlight=False, soft_wrap=True)


def error(message: str, code: int = EXIT_REFUSED) -> typer.Exit:
    """Print one ``error:`` line; returns the exit to raise: ``raise error("...")``."""
    print_error(message)
    return typer.Exit(code)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on plain stdout, not Rich: it must survive ``| jq`` byte for byte."""
    from silcrow.safety import display_safe  # the scanner's tables load only when JSON is printed

    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    if safe_text(text) != text or display_safe(text) != text:
        # Lone surrogates from a damaged file, or characters a terminal acts on (C1 controls,
        # bidi overrides, in a caller's session name or a note): let JSON escape them.
        text = json.dumps(data, ensure_ascii=True, indent=2, default=str)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


@contextmanager
def guarded() -> Iterator[None]:
    """Turn failures of the work (a refused operation, a locked or unreadable file)
    into one ``error:`` line and exit 1."""
    try:
        yield
    except SilcrowError as exc:
        raise error(str(exc)) from None
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        raise error(f"cannot access{where}: {exc.strerror or exc}; check the path and its permissions") \
            from None


def _click_exception_class(name: str) -> type[Exception]:
    # Typer raises the exceptions of the Click it is built on (vendored in
    # recent releases). Reach them through typer's public BadParameter rather
    # than importing a Click that may not be the one typer uses.
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == name and issubclass(cls, Exception):
            return cls
    raise RuntimeError(f"typer.BadParameter does not derive from {name}")  # pragma: no cover


_CLICK_EXCEPTION = _click_exception_class("ClickException")
_VALUE_ERROR_PREFIX = re.compile(r"(:\s+)Value error,\s+")


def error_line(exc: Exception) -> str:
    """A Click/Typer error as one line: ``invalid value for '--target': ... (see 'silcrow ... --help')``."""
    format_message = getattr(exc, "format_message", None)
    message = format_message() if callable(format_message) else str(exc)
    message = _VALUE_ERROR_PREFIX.sub(r"\1", " ".join(str(message).split())).rstrip(".")
    if message[:1].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    command_path = getattr(ctx, "command_path", None)
    if command_path:
        message += f" (see '{command_path} --help')"
    return message


@contextmanager
def _one_line_errors() -> Iterator[None]:
    try:
        yield
    except _CLICK_EXCEPTION as exc:
        # "silcrow memory" with no command prints its help and exits 2; leave that alone.
        if type(exc).__name__ == "NoArgsIsHelpError":
            raise
        print_error(error_line(exc))
        raise typer.Exit(getattr(exc, "exit_code", EXIT_USAGE)) from None


class OneLineErrorsGroup(TyperGroup):
    """The root command: usage errors (bad option values, missing arguments, unknown
    commands, a bad --profile) print as one ``error:`` line and exit 2, instead of
    Typer's multi-line usage text and error panel. Help output is unchanged.

    Every sub-command is parsed and run inside the root's ``make_context`` /
    ``invoke``, so catching there covers every command group, whether the app is
    run by :func:`run_app` or by a test runner.
    """

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        with _one_line_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _one_line_errors():
            return super().invoke(ctx)


def run_app(app: typer.Typer, argv: Sequence[str]) -> int:
    """Run the Typer app, turning every failure into one line and an exit code.

    Usage errors become one line and exit 2 in :class:`OneLineErrorsGroup`;
    ``typer.Exit`` gives its code; what escapes is ours to report.
    """
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app(args=list(argv), prog_name="silcrow")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_REFUSED)
    except SilcrowError as exc:
        print_error(str(exc))
        return EXIT_REFUSED
    except KeyboardInterrupt:
        console_err.print("interrupted")
        return 130
    except Exception as exc:  # last resort: still no traceback for the user
        console_err.print(
            Text.assemble(
                ("internal error: ", "bold red"),
                f"{type(exc).__name__}: {exc} (please report this; set SILCROW_DEBUG=1 for details)",
            ),
            highlight=False,
            soft_wrap=True,
        )
        if env_switch("debug"):
            raise
        return EXIT_REFUSED
    return EXIT_OK
