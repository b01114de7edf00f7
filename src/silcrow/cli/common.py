"""What every command group shares: app state, consoles, error handling."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from silcrow.errors import SilcrowError
from silcrow.paths import resolve_home

console = Console()
console_err = Console(stderr=True)

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2


@dataclass
class AppState:
    home: str | None = None
    profile: str | None = None

    def resolved_home(self) -> Path:
        return resolve_home(self.home, self.profile)


def state(ctx: typer.Context) -> AppState:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, AppState) else AppState()


def fail(message: str, code: int = EXIT_REFUSED) -> None:
    """Print one clear error line and exit with ``code``."""
    console_err.print(Text.assemble(("error: ", "bold red"), message), highlight=False, soft_wrap=True)
    raise typer.Exit(code)


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
        console_err.print(Text.assemble(("error: ", "bold red"), error_line(exc)),
                          highlight=False, soft_wrap=True)
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
        console_err.print(Text.assemble(("error: ", "bold red"), str(exc)), highlight=False, soft_wrap=True)
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
        if os.environ.get("SILCROW_DEBUG"):
            raise
        return EXIT_REFUSED
    return EXIT_OK
