"""What happens to one odd record of an import: the same for every reader and the API.

An import of a long history must not fail because one turn in it is odd. Each
record is kept as it is, kept repaired or clipped, or skipped; every repair,
clip and skip is counted under a reason the caller shows the user
(``silcrow recall ingest`` prints them, :meth:`LocalProvider.ingest` fills the
``skipped`` counter it is given). The rest is stored.

- text over :data:`MAX_RECORD_CHARS`: its beginning is kept (recall indexes a
  turn by its beginning; a pasted book would slow every search that finds it);
- no text (empty or only white space): skipped, there is nothing to recall;
- NUL characters: removed (PostgreSQL text cannot hold them, SQLite's FTS5
  stops reading at them);
- lone UTF-16 surrogates (``"\\ud800"`` from a JSON escape or a bad decode):
  replaced with U+FFFD, since they cannot be stored as UTF-8.

A record that is not a :class:`RecallRecord`, or names an unknown kind, is a
programming error and still raises.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from silcrow.errors import RecallError
from silcrow.recall._limits import MAX_RECORD_CHARS
from silcrow.recall.local._records import KINDS, RecallRecord

__all__ = ["admit"]

CLIPPED = f"ends of long messages (kept their first {MAX_RECORD_CHARS} characters)"
EMPTY = "messages without text"
NUL = "messages holding NUL characters (removed)"
SURROGATE = "messages holding lone surrogates (replaced with U+FFFD)"
_SURROGATES = re.compile("[\ud800-\udfff]")


def admit(records: Iterable[RecallRecord], skipped: Counter[str] | None = None) -> list[RecallRecord]:
    """``records`` fit to be stored, odd ones repaired, clipped or left out (counted in ``skipped``).

    A changed record is a copy: the caller's objects are left as they were.
    """
    skipped = Counter() if skipped is None else skipped
    out: list[RecallRecord] = []
    for n, rec in enumerate(records):
        if not isinstance(rec, RecallRecord):
            raise RecallError(f"record {n} is a {type(rec).__name__}, expected RecallRecord")
        if rec.kind not in KINDS:
            raise RecallError(f"record {n} has kind {rec.kind!r}; use one of {', '.join(KINDS)}")
        if not isinstance(rec.text, str):
            raise RecallError(f"record {n} has text of type {type(rec.text).__name__}, expected str")
        text, speaker, session = rec.text, rec.speaker, rec.session_id
        if "\x00" in text:
            text = text.replace("\x00", "")
            skipped[NUL] += 1
        if any(_SURROGATES.search(value) for value in (text, speaker, session)):
            text, speaker, session = (_SURROGATES.sub("\ufffd", v) for v in (text, speaker, session))
            skipped[SURROGATE] += 1
        speaker, session = speaker.replace("\x00", ""), session.replace("\x00", "")
        if not text.strip():
            skipped[EMPTY] += 1
            continue
        if len(text) > MAX_RECORD_CHARS:
            text = text[:MAX_RECORD_CHARS]
            skipped[CLIPPED] += 1
        out.append(rec if (text, speaker, session) == (rec.text, rec.speaker, rec.session_id)
                   else replace(rec, text=text, speaker=speaker, session_id=session))
    return out

