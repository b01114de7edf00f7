"""`silcrow recall ingest|search|stats|forget`: the built-in local recall store from a shell.

These commands work on the local provider's database, ``<home>/recall.db``
(the Python API of :class:`silcrow.recall.local.LocalProvider`). Reading
commands on a home without that file say so instead of creating an empty
database. Stored text is printed as :class:`rich.text.Text`, never as
markup, since memories routinely contain ``[brackets]``; ``--json`` output
is written to stdout directly so it survives ``| jq`` byte for byte.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from silcrow._paths import recall_db
from silcrow.cli._common import (
    EXIT_USAGE,
    JSON_OPTION,
    app_home,
    app_profile,
    app_settings,
    console,
    console_err,
    error,
    guarded,
    print_json,
)
from silcrow.cli.main import app
from silcrow.db import redact
from silcrow.safety import display_safe

if TYPE_CHECKING:
    from silcrow.recall.local import LocalProvider, RecallRecord

recall_app = typer.Typer(
    help="Long-term recall (local provider): ingest conversations, search, stats, forget.",
    no_args_is_help=True,
)
app.add_typer(recall_app, name="recall")

_EMBEDDER_HELP = ("embedder: bge (offline default), onnx (offline MiniLM), e5, fastembed, openai or none "
                  "(default: config `embedder`)")


@contextmanager
def _provider(ctx: typer.Context, embedder: str | None, *, create: bool) -> Iterator[LocalProvider]:
    """An initialised local provider for the selected home, shut down afterwards.

    With ``create=False`` a home that has no recall database is an error
    that tells the user how to make one, and nothing is written.
    """
    home = app_home(ctx)
    if not create and not app_profile(ctx).storage.shared and not recall_db(home).exists():
        raise error(
            f"no recall database at {recall_db(home)}; add memories first with "
            "`silcrow recall ingest FILE` (or chat with the local provider)"
        )
    from silcrow.recall.local import LocalProvider

    with guarded():
        settings = app_settings(ctx)
        provider = LocalProvider(home, embedder=settings.embedder_spec(embedder or settings.embedder),
                                 reranker=settings.reranker)
    try:
        with guarded():
            if not provider.is_available():
                raise error(f"the local recall provider cannot run: {provider.unavailable_reason()}")
            provider.initialize("cli", home=home)
            yield provider
    finally:
        provider.shutdown()


@recall_app.command("ingest")
def ingest(
    ctx: typer.Context,
    file: str = typer.Argument(
        None, metavar="PATH", help="ChatGPT or Claude.ai conversations.json, LoCoMo JSON, JSONL of {role,"
        " content, timestamp, session_id}, a Claude Code transcript or Codex rollout, a directory of"
        " those transcripts, or - for standard input",
    ),
    client: str = typer.Option(
        None, "--from", metavar="CLIENT", help="claude-code or codex: import that client's sessions"
        " (from ~/.claude/projects or ~/.codex/sessions unless PATH is given)",
    ),
    embedder: str = typer.Option(None, "--embedder", help=_EMBEDDER_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Load a conversation file, chat export or coding-agent sessions into long-term recall
    (duplicates are skipped)."""
    from collections import Counter

    skipped: Counter[str] = Counter()
    file, records = _read_for_ingest(file, client, skipped, quiet=as_json)
    if not records:
        raise error(
            f"{file} holds no messages to ingest ({_skips(skipped)}); check that it is the right file"
        )
    db_path = recall_db(app_home(ctx))
    shared = app_profile(ctx).storage.dsn
    existed = shared is not None or db_path.exists()
    try:
        with _provider(ctx, embedder, create=True) as provider:
            start = time.perf_counter()
            with Progress(
                TextColumn("[bold]ingesting[/]"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
                TimeRemainingColumn(),
                console=console_err, transient=True, disable=as_json or not console_err.is_terminal,
            ) as bar:
                task = bar.add_task("ingest", total=len(records))
                # One odd message (too long, unstorable characters) is clipped or repaired and counted.
                stored = provider.ingest(records, progress=lambda done: bar.update(task, completed=done),
                                         skipped=skipped)
            elapsed = time.perf_counter() - start
    except BaseException:
        if not existed:
            # A first ingest that failed (e.g. the embedder is unreachable) leaves no empty
            # database behind: later commands would report an empty store, not the real cause.
            _remove_if_empty(db_path)
        raise
    db = redact(shared) if shared else str(db_path)
    result = {
        "file": str(file), "records": len(records), "stored": stored,
        "duplicates": len(records) - stored, "seconds": round(elapsed, 3),
        "records_per_s": round(len(records) / elapsed, 1) if elapsed > 0 else None, "db": db,
        "skipped": dict(skipped),
    }
    if as_json:
        print_json(result)
        return
    console.print(Text(
        f"stored {stored} of {len(records)} records from {file} "
        f"({len(records) - stored} duplicates skipped) in {elapsed:.1f}s "
        f"({result['records_per_s']} records/s) -> {db}"
    ))
    if skipped:
        console.print(Text(f"left out of {file}: {_skips(skipped)}"))


class _RateColumn(ProgressColumn):
    """Turns stored per second so far (blank until Rich has a rate)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} turns/s", style="progress.data.speed")


def _read_for_ingest(
    path: str | None, client: str | None, skipped: Counter[str], *, quiet: bool
) -> tuple[str, list[RecallRecord]]:
    """What ``recall ingest`` was pointed at (a file, standard input, a directory of coding-agent
    transcripts, or a client's default place) and the records read from it."""
    from silcrow.recall import CLIENTS, STDIN, default_dir, load_records, load_transcripts, transcript_files

    if client is not None and client not in CLIENTS:
        raise error(f"--from {client!r} is not a client silcrow reads; use {' or '.join(CLIENTS)}",
                    EXIT_USAGE)
    if path is None:
        if client is None:
            raise error("say what to ingest: a file, a directory of transcripts, - for standard input, "
                        "or --from claude-code / --from codex", EXIT_USAGE)
        where = default_dir(client)
        if not where.is_dir():
            raise error(f"no {client} sessions at {where}; pass the directory that holds them "
                        f"(`silcrow recall ingest --from {client} DIR`)")
        path = str(where)
    if path != STDIN and Path(path).is_dir():
        files = transcript_files(Path(path), client)
        if not files:
            raise error(f"{path} holds no .jsonl transcripts; pass a Claude Code projects directory "
                        "(~/.claude/projects), a Codex sessions directory (~/.codex/sessions) or a file",
                        EXIT_USAGE)
        with Progress(
            TextColumn("[bold]reading[/]"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=console_err, transient=True, disable=quiet or not console_err.is_terminal,
        ) as bar:
            task = bar.add_task("read", total=len(files))
            records = load_transcripts(files, client=client, skipped=skipped,
                                              progress=lambda done: bar.update(task, completed=done))
        return path, records
    if path != STDIN and not Path(path).is_file():
        raise error(
            f"{path} is not a file or directory; pass a ChatGPT/Claude conversations.json, a LoCoMo .json,"
            " a .jsonl of messages, a Claude Code or Codex transcript (or a directory of them),"
            " or - for standard input", EXIT_USAGE,
        )
    with guarded():
        if client is not None and path != STDIN:
            return path, load_transcripts([Path(path)], client=client, skipped=skipped)
        return path, load_records(path, skipped)


def _skips(skipped: Mapping[str, int]) -> str:
    """``"3 system messages (not conversation), 1 hidden messages"``, or "nothing left out"."""
    if not skipped:
        return "nothing left out"
    return ", ".join(f"{n} {why}" for why, n in sorted(skipped.items(), key=lambda p: -p[1]))


@recall_app.command("search")
def search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="what to look for, in plain words"),
    k: int = typer.Option(10, "-k", "--k", min=1, max=200, help="how many results"),
    project: str = typer.Option(
        None, "--project", metavar="DIR", help="only memories of this working directory or one below it"
        " (imported Claude Code / Codex sessions; . for the current directory)",
    ),
    embedder: str = typer.Option(None, "--embedder", help=_EMBEDDER_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Search long-term recall (hybrid: full-text + embeddings)."""
    if not query.strip():
        raise error("the query is empty; say what to look for", EXIT_USAGE)
    where = str(Path(project).expanduser().resolve()) if project is not None else None
    with _provider(ctx, embedder, create=False) as provider, guarded():
        hits = provider.search(query, k=k, project=where).hits
    if as_json:
        print_json([hit.to_dict() for hit in hits])
        return
    if not hits:
        console.print("no memories matched")
        return
    table = Table(show_lines=False)
    for column, style in (("id", "cyan"), ("score", ""), ("date", "green"), ("speaker", "magenta"),
                          ("text", "")):
        table.add_column(column, style=style or None, overflow="fold")
    for hit in hits:
        date = hit.timestamp.strftime("%Y-%m-%d %H:%M") if hit.timestamp else ""
        text = display_safe(" ".join(hit.text.split()))
        table.add_row(str(hit.id), f"{hit.score:.3f}", date, Text(hit.speaker), Text(text[:300]))
    console.print(table)


@recall_app.command("stats")
def stats(
    ctx: typer.Context,
    as_json: bool = JSON_OPTION,
) -> None:
    """Show what the recall database holds."""
    with _provider(ctx, "none", create=False) as provider:
        # Counting rows needs no embedding model, so none is loaded (loading one could
        # start re-embedding). Report the model the stored vectors belong to instead.
        data = provider.stats()
        if not app_profile(ctx).storage.shared:  # the database backend reports its stored model itself
            data.update(_stored_embedder(recall_db(app_home(ctx))))
    if as_json:
        print_json(data)
        return
    table = Table(show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value")
    for key, value in data.items():
        shown = ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)
        table.add_row(key, Text(shown))
    console.print(table)


def _remove_if_empty(path: Path) -> None:
    """Delete the recall database at ``path`` (and its WAL files) if it holds no memories."""
    import sqlite3

    if not path.exists():
        return
    try:
        conn = sqlite3.connect(path)
        try:
            empty = conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 0
        finally:
            conn.close()
    except sqlite3.Error as exc:  # no memories table yet: nothing was ever stored
        empty = "no such table" in str(exc)
    if empty:
        for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            part.unlink(missing_ok=True)


def _stored_embedder(path: Path) -> dict[str, Any]:
    from silcrow.recall.local import stored_embedder

    ident = stored_embedder(path)
    if not ident:
        return {"embedder": "none (lexical only)", "dim": 0}
    name, _, dim = ident.rpartition("/")
    return {"embedder": name or ident, "dim": int(dim) if dim.isdigit() else dim}


@recall_app.command("forget")
def forget(
    ctx: typer.Context,
    target: str = typer.Argument(
        ..., metavar="ID_OR_QUERY", help="a memory id (see `recall search`) or text found in memories"
    ),
    yes: bool = typer.Option(False, "--yes", "-y", help="do not ask for confirmation"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Delete one memory by id, or every memory whose text contains the given text."""
    needle = target.strip()
    if not needle:
        raise error("say which memory to forget: an id or some of its text", EXIT_USAGE)
    what = f"memory #{needle}" if needle.isdigit() else f"every memory containing {needle!r}"
    if not yes:
        if not sys.stdin.isatty():
            raise error(f"this would delete {what}; re-run with --yes to confirm", EXIT_USAGE)
        if not typer.confirm(f"Delete {what}?", default=False):
            raise error("nothing deleted")
    with _provider(ctx, "none", create=False) as provider:
        removed = provider.forget(int(needle) if needle.isdigit() else needle).removed
    if as_json:
        print_json({"target": needle, "removed": removed})
    if removed == 0:  # an error with --json too: a script must not take "nothing" for success
        raise error(f"no memory matched {needle!r}; find ids with `silcrow recall search QUERY`")
    if as_json:
        return
    console.print(Text(f"deleted {removed} memor{'y' if removed == 1 else 'ies'} ({what})"))
