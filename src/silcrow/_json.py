"""JSON text from outside silcrow, read one way everywhere.

Files a user imports, hook input from a coding agent, a model's tool arguments and
request bodies can hold any JSON. ``json.loads`` fails on it in three ways, and only
the first says where: a ``JSONDecodeError``; a ``RecursionError`` (the C decoder
recurses once per level, so a few thousand ``[`` end the interpreter's stack); and a
bare ``ValueError`` for an integer of more than 4,300 digits (CPython's guard against
slow int parsing). A caller that catches only the first lets the other two end an
import or a hook. :func:`loads` makes every failure a ``JSONDecodeError`` and reads
what it can.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "TooDeep", "loads", "position"]

#: Deeper than this, a JSON text is refused, naming where (the decoder would reach Python's
#: recursion limit near 1,000 levels); real exports and payloads nest a few dozen levels.
MAX_DEPTH = 500


class TooDeep(json.JSONDecodeError):
    """JSON nested deeper than :data:`MAX_DEPTH`; ``pos``, ``lineno``, ``colno`` say where it passes."""


def _number(digits: str) -> int | float:
    try:
        return int(digits)
    except ValueError:  # too many digits for int(): the value a JavaScript reader would get
        return float(digits)


_LENIENT = json.JSONDecoder(parse_int=_number)


def loads(text: str) -> Any:
    """``json.loads(text)``, except that an integer too long for ``int()`` reads as a float
    (``inf`` past 1e308) and any text that is not JSON raises ``json.JSONDecodeError``
    (:class:`TooDeep` for nesting past :data:`MAX_DEPTH`)."""
    try:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise
        except ValueError:
            # Only the digit limit raises a bare ValueError; the default decoder stays the fast
            # path (a parse_int hook costs a Python call per integer of a 100 MB export).
            return _LENIENT.decode(text)
    except RecursionError:
        raise TooDeep(f"nested more than {MAX_DEPTH} levels deep", text, _too_deep_at(text)) from None


def position(text: str, offset: int) -> tuple[int, int]:
    """(line, column) from 1 of a character offset, as editors count them."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _too_deep_at(text: str) -> int:
    """The offset where the nesting of a JSON text first passes MAX_DEPTH (brackets inside
    strings ignored); the end of the text if it never does."""
    depth, in_string, escaped = 0, False, False
    for offset, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return offset
        elif char in "]}":
            depth -= 1
    return len(text)
