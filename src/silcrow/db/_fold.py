"""Diacritic folding that PostgreSQL and Python apply identically ("ünïcode" finds "unicode").

SQLite's FTS5 tokenizer does this itself (``remove_diacritics 2``); PostgreSQL
needs the unaccent extension for it, which a bundled server may lack. So the
schema defines ``silcrow.fold(text)`` as one ``translate()`` over the Latin
letters with a decomposition (U+00C0-U+024F), and queries are folded here with
the same table before they become tsquery lexemes.
"""

from __future__ import annotations

import unicodedata


def _table() -> tuple[str, str]:
    src, dst = [], []
    for code in range(0x00C0, 0x0250):
        char = chr(code)
        base = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
        if len(base) == 1 and base != char and base.isascii():
            src.append(char)
            dst.append(base)
    return "".join(src), "".join(dst)


FROM, TO = _table()
_MAP = str.maketrans(FROM, TO)


def fold(text: str) -> str:
    """``text`` with the letters of :data:`FROM` replaced by their bases, as ``silcrow.fold`` does."""
    return text.translate(_MAP)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


#: The SQL function, for the migrations.
FUNCTION_SQL = (
    "CREATE FUNCTION silcrow.fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT"
    f" RETURN translate(t, {_literal(FROM)}, {_literal(TO)})"
)
#: The same function, returning text without a letter to fold as it is. translate() compares
#: every character of the text with every letter of FROM: folding a memory's body and context
#: was three quarters of the time PostgreSQL spent inserting it, for text (nearly all of it)
#: with nothing to fold. Every letter of FROM lies in U+00C0-U+024F, so text with none of those
#: is unchanged by translate(). (In a SQL_ASCII database the class holds every byte of a
#: character outside ASCII, so text is translated exactly when it was before.)
SHORTCUT_SQL = (
    "CREATE OR REPLACE FUNCTION silcrow.fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE"
    f" STRICT RETURN CASE WHEN t ~ '[\\u00c0-\\u024f]' THEN translate(t, {_literal(FROM)}, {_literal(TO)})"
    " ELSE t END"
)
