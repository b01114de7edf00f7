"""Every command of the CLI treats a bad profile, a missing home and --json the same way.

The command list comes from the app itself, so a command added later without an
entry in ARGS fails here until it says how it is run.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import typer

from silcrow.cli.main import _register, app, main

# Arguments that make each command runnable; the exit code it gives on a home that does
# not exist (0: it worked, 1: it refused and said why); whether it may create the home.
ARGS: dict[str, tuple[list[str], int, bool]] = {
    "memory show": ([], 0, False),
    "memory add": (["The user deploys on Fridays."], 0, True),
    "memory replace": (["Fridays", "The user deploys on Mondays."], 1, True),
    "memory remove": (["Fridays"], 1, True),
    "memory prompt": ([], 0, False),
    "memory doctor": ([], 0, False),
    "memory history": ([], 0, False),
    "memory undo": ([], 1, True),
    "memory pending": ([], 0, False),
    "memory approve": (["--all"], 0, False),
    "memory reject": (["nope"], 1, False),
    "memory archive": ([], 0, False),
    "memory restore": (["nope"], 1, False),
    "memory review": (["--rules-only"], 0, False),
    "memory projects": ([], 0, False),
    "memory projects archive": (["/nowhere"], 1, False),  # no such project: refused, nothing made
    "memory projects move": (["/nowhere", "/"], 1, False),
    "memory projects restore": (["/nowhere"], 1, False),  # no archive of it: refused, nothing made
    "recall ingest": (["{conversation}", "--embedder", "none"], 0, True),
    "recall search": (["deploys"], 1, False),
    "recall stats": ([], 1, False),
    "recall forget": (["1", "--yes"], 1, False),
    "providers": ([], 0, False),
    "providers check": (["retaindb"], 1, False),  # no RETAINDB_API_KEY here: refused, nothing written
    "providers status": ([], 0, False),
    "chat": (["--provider", "none"], 0, True),
    "sessions list": ([], 0, False),
    "sessions show": (["abc123"], 1, False),
    "sessions search": (["deploys"], 0, False),
    # No database is configured for a missing home: each says so and touches nothing.
    "db migrate": ([], 1, False),
    "db status": ([], 1, False),
    "db import": (["--from-home", "{conversation}"], 1, False),
    "db export": (["--to-home", "{conversation}"], 1, False),
    # The Hermes commands work on a Hermes home, not on the silcrow home.
    "hermes install": (["--hermes-home", "{hermes_home}"], 1, False),
    "hermes doctor": (["--hermes-home", "{hermes_home}"], 1, False),  # no hermes-agent in this venv
    "hermes uninstall": (["--hermes-home", "{hermes_home}"], 1, False),
    "mcp": ([], 0, True),  # stdin at EOF: serves nothing and exits
    "connect": (["cursor", "--dry-run"], 0, False),  # shows the change, writes nothing
    "hook": (["session-end"], 0, False),  # no hook input: says so on stderr, exit 0 (never blocks)
    "serve": (["--host", "0.0.0.0"], 1, False),  # refused: a public address with no token
    "tokens create": (["--profile", "a"], 0, True),
    "tokens list": ([], 0, False),
    "tokens revoke": (["nope"], 1, False),
}


# The exit code of a usage error where it is not 2: Claude Code reads exit 2 from a hook as "block
# the prompt", so `silcrow hook` reports the error line and exits 0.
_USAGE = {"hook": 0}


def _fill(args: list[str], conversation: str, tmp_path: Path) -> list[str]:
    return [a.replace("{conversation}", conversation).replace("{hermes_home}", str(tmp_path / "hermes"))
            for a in args]


def _leaves(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    # Typer may vendor its own Click, so a group is recognised by its sub-commands.
    subs = getattr(command, "commands", None)
    if isinstance(subs, dict):
        # A group that runs on its own too (`silcrow providers`) is a command as well.
        alone = bool(path) and getattr(command, "invoke_without_command", False)
        runnable = [(" ".join(path), command)] if alone else []
        return runnable + [leaf for name, sub in sorted(subs.items()) for leaf in _leaves(sub, (*path, name))]
    return [(" ".join(path), command)]


def _commands() -> list[tuple[str, Any]]:
    _register()
    return _leaves(typer.main.get_command(app))


COMMANDS = _commands()


def _takes_json(command: Any) -> bool:
    return any("--json" in getattr(p, "opts", ()) for p in command.params)


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.fixture(autouse=True)
def _quiet_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SILCROW_HOME", str(tmp_path / "default-home"))  # never the user's home
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # chat makes no request without input
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdin", _EmptyStdin())


class _EmptyStdin:
    def read(self, *_: Any) -> str:
        return ""

    @property
    def buffer(self) -> io.BytesIO:  # what `silcrow mcp` reads its messages from
        return io.BytesIO()

    def readline(self, *_: Any) -> str:
        return ""

    def isatty(self) -> bool:
        return False


def _one_error_line(err: str, *, details: bool = False) -> str:
    """The one ``error:`` line; with ``details``, lines that explain it may follow
    (a refused memory edit lists the entries it looked at)."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error: "), err
    assert details or len(lines) == 1, err
    assert sum(line.startswith("error") for line in lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_every_command_is_listed() -> None:
    names = {name for name, _ in COMMANDS}
    missing = sorted(names - set(ARGS))
    assert not missing, f"add the arguments of {missing} to ARGS in this test"
    assert not set(ARGS) - names, f"ARGS names commands that do not exist: {sorted(set(ARGS) - names)}"


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
@pytest.mark.parametrize("profile", ["../escape", "a/b", "-x", ""])
def test_a_bad_profile_is_one_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, command: Any, profile: str
) -> None:
    home = tmp_path / "home"
    args = _fill(ARGS.get(name, ([], 0, False))[0], "unused.jsonl", tmp_path)
    json_flag = ["--json"] if _takes_json(command) else []
    code, out, err = _run(capsys, ["--home", str(home), f"--profile={profile}", *name.split(), *args,
                                   *json_flag])
    line = _one_error_line(err)
    assert code == _USAGE.get(name, 2) and out == ""
    assert "invalid profile name" in line and "'--profile'" in line
    assert not home.exists()


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_a_home_that_is_a_file_is_one_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, command: Any
) -> None:
    home = tmp_path / "home"
    home.write_text("keep me", encoding="utf-8")
    args = _fill(ARGS.get(name, ([], 0, False))[0], "unused.jsonl", tmp_path)
    code, out, err = _run(capsys, ["--home", str(home), *name.split(), *args])
    line = _one_error_line(err)
    assert code == _USAGE.get(name, 2) and out == "" and "is not a directory" in line and "'--home'" in line
    assert home.read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_a_missing_home_works_or_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, command: Any
) -> None:
    assert name in ARGS, f"add the arguments of {name!r} to ARGS"
    raw, expected, writes = ARGS[name]
    conversation = tmp_path / "chat.jsonl"
    conversation.write_text(json.dumps({"role": "user", "content": "The user deploys on Fridays."}) + "\n",
                            encoding="utf-8")
    args = _fill(raw, str(conversation), tmp_path)
    home = tmp_path / "nowhere" / "home"
    as_json = _takes_json(command)
    code, out, err = _run(capsys, ["--home", str(home), *name.split(), *args,
                                   *(["--json"] if as_json else [])])
    assert "Traceback" not in err
    assert code == expected, (code, out, err)
    if code:
        line = _one_error_line(err, details=name.startswith("memory "))
        assert str(home) in line or "no " in line.lower(), line  # it says what is missing
        assert out == ""
    elif as_json:
        json.loads(out)  # nothing but the JSON document on stdout
    if not writes:
        assert not home.exists(), f"`silcrow {name}` only reads but created {home}"
