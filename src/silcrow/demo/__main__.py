"""`python -m silcrow.demo`: the walkthrough `make demo` runs."""

from __future__ import annotations

from silcrow.demo import main

if __name__ == "__main__":
    main()
