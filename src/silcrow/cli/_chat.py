"""`silcrow chat`: talk to a model through the agent loop, with memory.

Settings: flags, then the environment, then ``<home>/config.toml``
(:mod:`silcrow.config`). The reply streams as it arrives, through the fence
scrubber so a model that echoes its recalled ``<memory-context>`` never
shows it. Lines read with ``input()`` so the REPL also works on piped stdin.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table
from rich.text import Text

from silcrow._json import loads
from silcrow.cli._common import app_profile, console, console_err, current_directory, print_error
from silcrow.cli.main import app
from silcrow.errors import ModelError, SilcrowError
from silcrow.safety import StreamingFenceScrubber, display_safe

if TYPE_CHECKING:
    from silcrow.agent import Agent

HELP = """commands:
  /new            start a new session (the current one is saved)
  /resume [ID]    continue an earlier session (default: the most recent other one)
  /branch         fork this session into a new one with the same history
  /compress       summarise the middle of this conversation now
  /memory         show the curated notes as they are on disk now
  /sessions       list recent sessions
  /pending        the model's writes waiting for your approval (write_policy = "approve")
  /approve ID|all apply a pending write (through the normal checks)
  /reject ID [why] drop a pending write
  /help           this text
  /quit           end the session (also Ctrl-D)"""


@app.command("chat")
def chat(
    ctx: typer.Context,
    model: str = typer.Option(None, "--model", "-m", help="model name (env SILCROW_MODEL)"),
    base_url: str = typer.Option(
        None, "--base-url",
        help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (env OPENAI_BASE_URL)",
    ),
    provider: str = typer.Option(
        None, "--provider", help="long-term recall provider (default: local; 'none' for no recall)"
    ),
    project: str = typer.Option(
        None, "--project", metavar="DIR",
        help="the project whose notes (PROJECT.md) join the session: the git work tree holding DIR "
             "(default: the one holding the current directory)",
    ),
) -> None:
    """Chat with a model that remembers: curated notes, recall, sessions."""
    from silcrow.agent import Agent  # the model client is heavy; other commands do not need it

    opened = app_profile(ctx)  # opened once for the whole invocation; the agent uses it as it is
    home = opened.path
    settings = opened.settings.with_overrides(model=model, base_url=base_url, provider=provider)
    # Every other setting (limits, write policy, [agent] options, the embedder) is the profile's.
    # No --provider: the profile's choice, which may be several providers (`providers`).
    # A person's session runs where they are: the work tree holding the current directory is its
    # project (the library's Agent takes a project only when told).
    agent = Agent(settings.model, base_url=settings.base_url, profile=opened,
                  provider=... if provider is None else provider, on_tool_call=_show_tool_call,
                  project=project if project is not None else current_directory())
    try:
        console.print(Text.assemble(
            ("silcrow chat", "bold"), f" · model {settings.model} at {agent.llm.endpoint}",
            f" · home {home} · session {agent.session_id}"
            + (f" · project {display_safe(str(agent.notes.project))}" if agent.notes.project else "")))
        console.print("type /help for commands, /quit to leave", style="dim")
        if agent.review_findings:
            count = len(agent.review_findings)
            console.print(Text(f"memory review: a note file is nearly full; {count} "
                               f"{'proposal' if count == 1 else 'proposals'} (merge, archive) await you: "
                               "/pending shows them", style="yellow"), soft_wrap=True)
        _repl(agent)
    finally:
        try:
            agent.close()
        except SilcrowError as exc:
            console_err.print(Text(f"warning: closing the session failed: {exc}"), soft_wrap=True)


def _read(prompt: str) -> str | None:
    console.print(Text(prompt, style="bold cyan"), end="")
    try:
        return input()
    except EOFError:
        console.print()
        return None


def _repl(agent: Agent) -> None:
    while True:
        line = _read("you> ")
        if line is None:
            return
        line = line.strip()
        if not line:
            continue
        if line.startswith("/"):
            if not _command(agent, line):
                return
            continue
        _turn(agent, line)


def _turn(agent: Agent, text: str) -> None:
    scrubber = StreamingFenceScrubber()
    write: Callable[[str], None] = _writer()
    console.print(Text("assistant> ", style="bold green"), end="")
    try:
        agent.run_turn(text, on_delta=lambda piece: write(scrubber.feed(piece)))
        write(scrubber.flush())
        console.print()
        recalled = getattr(agent, "last_recalled", 0)
        if recalled:
            console.print(Text(f"  recalled {recalled} {'memory' if recalled == 1 else 'memories'}",
                               style="dim"))
    except KeyboardInterrupt:
        console.print()
        console_err.print(Text("interrupted; this turn was not saved to long-term recall", style="yellow"))
    except ModelError as exc:
        console.print()
        console_err.print(Text.assemble(("model error: ", "bold red"), str(exc)), soft_wrap=True)
    except SilcrowError as exc:  # e.g. a locked sessions.db: report it, keep the REPL
        console.print()
        print_error(str(exc))


def _show_tool_call(name: str, arguments: str, result: str) -> None:
    """One dim line per tool call, so the user sees what the model saved or looked up."""
    args, outcome = _json_or_none(arguments), _json_or_none(result)
    failed = isinstance(outcome, dict) and outcome.get("success") is False
    detail = ""
    if isinstance(args, dict):
        detail = " ".join(str(args[k]) for k in ("action", "target", "query", "content", "old_text")
                          if args.get(k))
    elif arguments.strip():
        detail = "(arguments were not valid JSON)"
    error = str(outcome.get("error", "")) if isinstance(outcome, dict) else ""
    status = f"refused: {error[:120]}" if failed else "ok"
    if isinstance(outcome, dict) and outcome.get("pending"):
        status = f"awaiting your approval: /approve {outcome.get('proposal_id')} or /reject it"
    console.print(Text(f"\n  [{name} {detail[:100]}] {status}", style="dim"), soft_wrap=True)


def _json_or_none(text: str) -> Any:
    try:
        return loads(text)
    except (json.JSONDecodeError, TypeError):
        return None


def _writer() -> Callable[[str], None]:
    def write(piece: str) -> None:
        if piece:
            sys.stdout.write(piece)
            sys.stdout.flush()

    return write


def _command(agent: Agent, line: str) -> bool:
    """Run one slash command; False means leave the REPL."""
    name, _, arg = line.partition(" ")
    arg = arg.strip()
    try:
        if name in ("/quit", "/exit", "/q"):
            return False
        if name == "/help":
            console.print(Text(HELP))
        elif name == "/new":
            agent.new_session()
            console.print(Text(f"new session {agent.session_id}"))
        elif name == "/resume":
            target = agent.sessions.resolve(arg) if arg else _previous_session(agent)
            if target is None:
                console_err.print("no earlier session to resume; /sessions lists them")
            else:
                agent.resume(target)
                info = agent.sessions.get(target)
                console.print(Text(f"resumed session {target} ({info.message_count} messages): "
                                   f"{info.title or 'untitled'}"))
        elif name == "/branch":
            old = agent.session_id
            agent.branch()
            console.print(Text(f"branched {old} -> {agent.session_id}"))
        elif name == "/compress":
            done = agent.compress()
            console.print(Text("compressed the middle of the conversation into a summary" if done
                               else "nothing to compress yet (too few turns)"))
        elif name == "/memory":
            _show_memory(agent)
        elif name == "/sessions":
            _show_sessions(agent)
        elif name in ("/pending", "/approve", "/reject"):
            _gate(agent, name, arg)
        else:
            console_err.print(Text(f"unknown command {name}; type /help"))
    except ModelError as exc:
        console_err.print(Text.assemble(("model error: ", "bold red"), str(exc)), soft_wrap=True)
    except SilcrowError as exc:
        message = str(exc).replace("`silcrow sessions list`", "/sessions")  # the REPL's own hint
        print_error(message)
    return True


def _previous_session(agent: Agent) -> str | None:
    for info in agent.sessions.list(limit=50):
        if info.id != agent.session_id and info.message_count:
            return info.id
    return None


def _show_memory(agent: Agent) -> None:
    labels = {"memory": "MEMORY (agent notes)", "user": "USER PROFILE",
              "project": f"PROJECT ({display_safe(str(agent.notes.project))})"}
    for target in agent.notes.targets:
        label = labels[target]
        entries = agent.notes.entries(target)
        console.print(Text(f"{label} [{agent.notes.usage(target)}]", style="bold"))
        for i, entry in enumerate(entries, 1):
            console.print(Text(f"  {i}. {display_safe(entry)}"), soft_wrap=True)
        if not entries:
            console.print(Text("  (empty)", style="dim"))
    console.print(Text("(on disk now; the model's prompt shows them from the next session on)", style="dim"))


def _gate(agent: Agent, name: str, arg: str) -> None:
    """/pending, /approve ID|all, /reject ID [reason]: the approval gate from the REPL."""
    from silcrow.cli._memory import approve_shown, print_review

    store = agent.notes
    if name == "/pending":
        print_review(console, store.review())
        return
    proposal_id, _, reason = arg.partition(" ")
    if not proposal_id:
        console_err.print(Text(f"{name} needs a proposal id ({'or all; ' if name == '/approve' else ''}"
                               "/pending lists them)"))
        return
    # Through the agent's notes service: an approved write reaches its recall provider, as a
    # write approved over REST or MCP does.
    if name == "/reject":
        results = [agent.notes.decide(proposal_id, False, reason=reason.strip() or None)]
    else:
        results = approve_shown(console, agent.notes, None if proposal_id == "all" else proposal_id)
    for result in results:
        if result.get("success"):
            console.print(Text(f"✓ {result.get('message', 'done')}"), soft_wrap=True)
        else:
            print_error(str(result.get("error")))


def _show_sessions(agent: Agent) -> None:
    table = Table("id", "title", "updated", "messages")
    table.columns[0].no_wrap = True  # ids are typed back into /resume: never cut them
    table.columns[1].overflow = "ellipsis"
    for info in agent.sessions.list(limit=15):
        mark = " *" if info.id == agent.session_id else ""
        table.add_row(Text(info.id + mark), Text(info.title or ""), info.updated_at[:16].replace("T", " "),
                      str(info.message_count))
    console.print(table)
