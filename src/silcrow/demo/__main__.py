"""`python -m silcrow.demo`: the walkthrough `make demo` runs."""

from __future__ import annotations


def main() -> None:
    print("silcrow demo: not built yet")


if __name__ == "__main__":
    main()
