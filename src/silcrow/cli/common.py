"""What every command group shares: app state, consoles, error handling."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import typer
from rich.console import Console
from rich.text import Text

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
    console_err.print(Text.assemble(("error: ", "bold red"), message), highlight=False)
    raise typer.Exit(code)


def run_app(app: typer.Typer, argv: list[str]) -> int:
    """Run the Typer app, turning every failure into one line and an exit code.

    Click's standalone mode already maps usage errors to exit 2 and
    ``typer.Exit`` to its code; what escapes it is ours to report.
    """
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app(args=argv, prog_name="silcrow")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_REFUSED)
    except SilcrowError as exc:
        console_err.print(Text.assemble(("error: ", "bold red"), str(exc)), highlight=False)
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
        )
        if os.environ.get("SILCROW_DEBUG"):
            raise
        return EXIT_REFUSED
    return EXIT_OK
