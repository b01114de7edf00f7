"""`python -m silcrow.demo`: the walkthrough `make demo` runs."""

from __future__ import annotations

import importlib
import sys


def main() -> None:
    # Each walkthrough is a module with run() -> bool (every check passed); shown in this order.
    failed = []
    for name in ("memory_walkthrough", "agent_walkthrough", "serve_walkthrough"):
        try:
            module = importlib.import_module(f"silcrow.demo.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"silcrow.demo.{name}":
                raise
            continue
        if module.run() is False:
            failed.append(name)
    if failed:
        print(f"demo: a check failed in {', '.join(failed)} (see the table above)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
