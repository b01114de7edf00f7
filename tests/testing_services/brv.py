#!/usr/bin/env python3
"""A STAND-IN for the ByteRover ``brv`` command (not ByteRover: no LLM, word-overlap search).

It behaves like the documented ``brv query``, ``brv curate`` and ``brv
status`` as silcrow's byterover provider calls them, keeping its data where
the real one keeps the context tree: ``.brv/context-tree/`` under the working
directory, one Markdown file per curated entry. It uses the standard library
only, so :func:`install_brv` can copy this very file onto a PATH as ``brv``.

Strict: an unknown command or flag exits 2 with usage on stderr; a query or
curate without text exits 1. Test faults live in the working directory:
``.brv/STAND_IN_DOWN`` makes every command fail (exit 1, as when its daemon is
unreachable) and ``.brv/STAND_IN_SLOW`` (a number of seconds) makes it sleep
first, to trip timeouts; ``.brv/STAND_IN_NO_DAEMON`` prints what the real brv
3.14 prints when its daemon cannot start, and exits 0 as it does. Each command that ran is appended to
``.brv/stand-in.log`` (one line, newlines escaped).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import sys
import time
from pathlib import Path

VERSION = "0.0.0-silcrow-stand-in"
USAGE = "usage: brv {query|curate} [--] TEXT | brv status | brv --version"
_WORD = re.compile(r"[\w']+")
_STOP = frozenset("a an the is are was were be of to in on at for and or with what where who when how do "
                  "does did i you my your me we our it this that".split())


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


def _tree() -> Path:
    return Path.cwd() / ".brv" / "context-tree"


def _text(args: list[str], command: str) -> str:
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0].startswith("-"):
        print(f"brv {command}: unknown flag {args[0]!r}\n{USAGE}", file=sys.stderr)
        raise SystemExit(2)
    text = " ".join(args).strip()
    if not text:
        print(f"brv {command}: missing text\n{USAGE}", file=sys.stderr)
        raise SystemExit(1)
    return text


def curate(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    domain = "user" if text.startswith(("[User profile]", "User:")) else "knowledge"
    path = _tree() / domain / f"{digest}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    return f"Context curated: {path.relative_to(Path.cwd())}"


def query(text: str) -> str:
    wanted = _words(text)
    scored = []
    for path in sorted(_tree().rglob("*.md")) if _tree().is_dir() else []:
        body = path.read_text(encoding="utf-8").strip()
        score = len(wanted & _words(body)) / len(wanted) if wanted else 0.0
        if score > 0:
            scored.append((score, body))
    scored.sort(key=lambda sb: -sb[0])
    if not scored:
        return "No relevant context found."
    return "Query Results:\n" + "\n".join(f"- {body}" for _, body in scored[:5])


def status() -> str:
    entries = len(list(_tree().rglob("*.md"))) if _tree().is_dir() else 0
    cloud = "configured (BRV_API_KEY set)" if os.environ.get("BRV_API_KEY") else "off (local only)"
    return (f"ByteRover CLI {VERSION}\nProject: {Path.cwd()}\n"
            f"Context tree: {entries} entries in .brv/context-tree\nCloud sync: {cloud}")


def main(argv: list[str]) -> int:
    faults = Path.cwd() / ".brv"
    if (faults / "STAND_IN_SLOW").exists():
        time.sleep(float((faults / "STAND_IN_SLOW").read_text(encoding="utf-8").strip() or "0"))
    if (faults / "STAND_IN_DOWN").exists():
        print("Error: ByteRover daemon is not reachable (stand-in outage)", file=sys.stderr)
        return 1
    if (faults / "STAND_IN_NO_DAEMON").exists():  # what the real brv 3.14 printed here, exit status 0
        print("Connection lost. Restarting daemon... (attempt 2/10)\nFailed to connect to the daemon.")
        return 0
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    faults.mkdir(exist_ok=True)
    with (faults / "stand-in.log").open("a", encoding="utf-8") as log:  # what tests check the order by
        log.write(" ".join(argv).replace("\n", "\\n") + "\n")
    if command == "--version":
        print(VERSION)
    elif command == "status" and not rest:
        print(status())
    elif command == "query":
        print(query(_text(rest, command)))
    elif command == "curate":
        print(curate(_text(rest, command)))
    else:
        print(f"brv: unknown command {' '.join(argv)!r}\n{USAGE}", file=sys.stderr)
        return 2
    return 0


def install_brv(bin_dir: Path) -> Path:
    """Copy this stand-in into ``bin_dir`` as an executable ``brv`` run by this Python."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = bin_dir / "brv"
    source = Path(__file__).read_text(encoding="utf-8").split("\n", 1)[1]  # drop the generic shebang
    target.write_text(f"#!{sys.executable}\n{source}", encoding="utf-8")
    target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    if shutil.which("brv", path=str(bin_dir)) is None:  # pragma: no cover - a noexec temp dir
        raise RuntimeError(f"{target} is not executable here")
    return target


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
