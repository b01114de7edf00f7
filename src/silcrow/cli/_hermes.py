"""`silcrow hermes install|doctor|uninstall`: silcrow as the Hermes agent's memory provider."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from silcrow.cli._common import EXIT_REFUSED, console, error
from silcrow.cli.main import app
from silcrow.errors import SilcrowError

hermes_app = typer.Typer(help="Use silcrow as the Hermes agent's memory provider (plugin install, checks).",
                         no_args_is_help=True)
app.add_typer(hermes_app, name="hermes")

HOME_HELP = "the Hermes home (default $HERMES_HOME, else ~/.hermes)"


def _hermes_home(value: str | None) -> Path:
    from silcrow.integrations.hermes import default_hermes_home

    return Path(value).expanduser() if value else default_hermes_home()


@hermes_app.command("install")
def install_cmd(
    hermes_home: str = typer.Option(None, "--hermes-home", help=HOME_HELP),
    silcrow_home: str = typer.Option(
        None, "--silcrow-home", help="where the plugin keeps recall data (default <hermes-home>/silcrow)"),
    provider: str = typer.Option(
        None, "--provider", help="silcrow recall provider (default: that home's config, else local)"),
    force: bool = typer.Option(False, "--force", help="replace a changed plugin and reset its settings"),
) -> None:
    """Write the silcrow plugin into <hermes-home>/plugins/silcrow/."""
    from silcrow.integrations.hermes import hermes_importable, install, plugin_settings

    home = _hermes_home(hermes_home)
    try:
        written = install(home, silcrow_home=silcrow_home, provider=provider, force=force)
        settings = plugin_settings(home)
    except SilcrowError as exc:
        raise error(str(exc)) from None
    for path in written:
        console.print(f"wrote {path}", highlight=False)
    console.print(f"recall data: {settings['silcrow_home']}", highlight=False)
    if not hermes_importable():
        console.print(Text(f"note: hermes-agent does not import in {sys.executable}; Hermes loads this "
                           "plugin only if silcrow is installed in Hermes's own Python "
                           "(`<hermes python> -m pip install silcrow`)", style="yellow"), highlight=False)
    console.print(Text.assemble(
        "next: in ", (str(home / "config.yaml"), "bold"), " set ",
        ("memory: {provider: silcrow}", "bold"), ", then check with ",
        (f"silcrow hermes doctor --hermes-home {home}", "bold")), highlight=False)


@hermes_app.command("doctor")
def doctor_cmd(
    hermes_home: str = typer.Option(None, "--hermes-home", help=HOME_HELP),
    as_json: bool = typer.Option(False, "--json", help="print the checks as JSON"),
) -> None:
    """Check that Hermes finds, loads and selects the plugin (exit 1 when a check fails)."""
    from silcrow.integrations.hermes import doctor

    checks = doctor(_hermes_home(hermes_home))
    if checks[0].name == "hermes" and not checks[0].ok:  # nothing else can be checked from here
        raise error(f"{checks[0].detail}: {checks[0].fix}")
    ok = all(check.ok for check in checks)
    if as_json:
        sys.stdout.write(json.dumps({"ok": ok, "checks": [c.as_dict() for c in checks]},
                                    ensure_ascii=False, indent=2) + "\n")
    else:
        table = Table(title="silcrow as Hermes's memory")
        table.add_column("check", style="bold cyan")
        table.add_column("ok")
        table.add_column("detail", overflow="fold")
        table.add_column("what to do", overflow="fold")
        for check in checks:
            table.add_row(check.name, Text("yes", style="green") if check.ok else Text("no", style="red"),
                          Text(check.detail), Text(check.fix))
        console.print(table)
    if not ok:
        raise typer.Exit(EXIT_REFUSED)


@hermes_app.command("uninstall")
def uninstall_cmd(
    hermes_home: str = typer.Option(None, "--hermes-home", help=HOME_HELP),
    force: bool = typer.Option(False, "--force", help="remove the plugin file even if it was changed"),
) -> None:
    """Remove what `silcrow hermes install` wrote (the recall data stays)."""
    from silcrow.integrations.hermes import plugin_settings, uninstall

    home = _hermes_home(hermes_home)
    try:
        data = plugin_settings(home)["silcrow_home"]
    except SilcrowError:
        data = str(home / "silcrow")
    try:
        removed = uninstall(home, force=force)
    except SilcrowError as exc:
        raise error(str(exc)) from None
    for path in removed:
        console.print(f"removed {path}", highlight=False)
    console.print(f"kept the recall data in {data}; set memory.provider in {home / 'config.yaml'} to "
                  "another provider (or remove it)", highlight=False)
