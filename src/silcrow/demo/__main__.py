"""`python -m silcrow.demo`: the walkthrough `make demo` runs."""

from __future__ import annotations

import importlib


def main() -> None:
    # Each walkthrough is a module with run(); they are shown in this order.
    for name in ("memory_walkthrough", "agent_walkthrough"):
        try:
            module = importlib.import_module(f"silcrow.demo.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"silcrow.demo.{name}":
                raise
            continue
        module.run()


if __name__ == "__main__":
    main()
