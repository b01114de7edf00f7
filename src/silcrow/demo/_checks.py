"""How a walkthrough reports: its checks as one table, a mark per check."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text


def report(console: Console, title: str, checks: Sequence[tuple[str, bool]]) -> bool:
    """Print ``checks`` (label, held) as a table titled ``title``; True when every one held."""
    console.print()
    table = Table("check", "result", title=title)
    for label, ok in checks:
        table.add_row(label, Text("✓" if ok else "✗ FAILED", style="green" if ok else "bold red"))
    console.print(table)
    return all(ok for _, ok in checks)
