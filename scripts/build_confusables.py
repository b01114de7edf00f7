"""Rebuild ``src/silcrow/safety/data/confusables_ascii.json`` from Unicode's confusables data.

    .venv/bin/python scripts/build_confusables.py [--check]

The source is the ``confusable-homoglyphs`` package (a dev dependency), which
ships UTS #39 confusables.txt as JSON. silcrow only needs the characters that
read as one printable ASCII character, so it ships that reduction (a few
thousand entries, loaded on first use) instead of the whole table. ``--check``
exits 1 when the shipped file differs from what the package gives.
"""

from __future__ import annotations

import json
import string
import sys
from importlib import resources
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src/silcrow/safety/data/confusables_ascii.json"
# Preference when one character is listed under several ASCII targets ("l", "I", "1", "|"):
# letters first (the scanner reads words), then digits, then symbols.
_RANK = {c: i for i, c in enumerate(string.ascii_lowercase + string.ascii_uppercase + string.digits
                                      + string.punctuation)}


def build() -> dict[str, str]:
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    table: dict[str, str] = {}
    for target, glyphs in data.items():
        if len(target) != 1 or target not in _RANK:
            continue
        for glyph in glyphs:
            ch = glyph["c"]
            if len(ch) != 1 or ch.isascii():
                continue
            old = table.get(ch)
            if old is None or _RANK[target] < _RANK[old]:
                table[ch] = target
    return dict(sorted(table.items()))


def main() -> None:
    text = json.dumps(build(), ensure_ascii=False, indent=0, sort_keys=True) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if OUT.read_text(encoding="utf-8") == text else 1)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(json.loads(text))} characters)")


if __name__ == "__main__":
    main()
