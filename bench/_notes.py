"""Notes of ordinary lines at the MEMORY.md budget, the texts the scan's timings are taken on."""

from __future__ import annotations


def ordinary_notes(pool: list[str], count: int = 200, chars: int = 2_200) -> list[str]:
    """Up to ``count`` notes of ``chars`` characters, each made of lines of ``pool`` (every
    seventh line from its own start, so no two notes are alike)."""
    notes: list[str] = []
    for i in range(min(count, len(pool))):
        note, j = "", i
        while len(note) < chars:
            note += pool[j % len(pool)] + "\n"
            j += 7
        notes.append(note[:chars])
    return notes
