"""Addressing entries, archived items and proposals the way they are shown.

* An entry by the **number** `memory show` prints, checked against the file's *version*
  (a short digest of its entries that `show` prints): a number means nothing once entries
  come and go, so a file that changed since it was shown is refused, never guessed at.
* An entry by its **id** (`show --json`): a digest of its text, so it names that text only.
* An archived item or a proposal by a unique **prefix** of its id (at least
  :data:`MIN_PREFIX` characters, as git users type them); an ambiguous one is refused with
  the candidates.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from silcrow import safety as threats
from silcrow.store import _entries as E
from silcrow.store._pending import fingerprint
from silcrow.store._results import Refusal, Refused

MIN_PREFIX = 4
VERSION_LENGTH = 6
# "2", or "2@3f2a9c": the number `show` printed and the version it printed with it.
# Anchored on a digit (the caller strips the ends): a leading run of spaces would make a search
# of a long blank text quadratic.
_NUMBER = re.compile(r"(\d{1,6})(?:\s*+@\s*+([0-9a-fA-F]{4,16}))?")


def entry_id(text: str) -> str:
    """The id of an entry: a digest of its text (another text, another id)."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def version(entries: list[str]) -> str:
    """The short version stamp of a file's entries that `memory show` prints."""
    return fingerprint(entries)[:VERSION_LENGTH]


def number_of(ref: str) -> tuple[int, str | None] | None:
    """(number, version or None) when ``ref`` is an entry number ("2", "2@3f2a9c"), else None."""
    found = _NUMBER.fullmatch(ref.strip())
    return (int(found.group(1)), found.group(2)) if found else None


def by_number(entries: list[str], file_name: str, number: int, stamp: str | None) -> str:
    """The entry numbered ``number`` as shown at version ``stamp`` (None: never shown);
    refused when the file is at another version, or has no such entry."""
    now = version(entries)
    how = f"run `silcrow memory show` and use the number it prints (or {number}@{now} for this version)"
    if stamp is None:
        raise Refused(Refusal(
            f"{file_name} has not been shown with numbers yet, so {number} may not be the entry you mean: "
            f"{how}; to remove or replace an entry holding the text {number!s}, add --text."))
    if not now.startswith(stamp.casefold()):
        raise Refused(Refusal(
            f"{file_name} changed since it was shown (version {stamp} then, {now} now), so entry {number} "
            f"may be another entry: nothing was changed; {how}."))
    if not 1 <= number <= len(entries):
        raise Refused(Refusal(
            f"{file_name} has {len(entries)} {'entry' if len(entries) == 1 else 'entries'}, "
            f"no entry {number}; `silcrow memory show` numbers them."))
    return entries[number - 1]


def by_id(entries: Sequence[str], ref: str) -> str | None:
    """The one entry whose id starts with ``ref`` (at least :data:`MIN_PREFIX` hex digits)."""
    ref = ref.strip().casefold()
    if len(ref) < MIN_PREFIX or not re.fullmatch(r"[0-9a-f]+", ref):
        return None
    found = list(dict.fromkeys(e for e in entries if entry_id(e).startswith(ref)))
    return found[0] if len(found) == 1 else None


def matching_entries(entries: list[str], text: str) -> list[str]:
    """The distinct entries ``text`` designates, as the store's remove and replace find them."""
    return E.find(entries, text).distinct


def resolve_entry(entries: list[str], file_name: str, ref: str, shown: str | None) -> str:
    """What ``ref`` names among ``entries``, as an ``old_text`` for remove and replace: the
    whole entry of a number (checked against ``shown``, the version last shown, unless ``ref``
    carries its own) or of an id that no entry holds as text; else ``ref`` itself (a text)."""
    numbered = number_of(ref)
    if numbered is not None:
        number, stamp = numbered
        return by_number(entries, file_name, number, stamp or shown)
    if E.find(entries, ref).found:
        return ref
    return by_id(entries, ref) or ref


def unique_id(given: str, ids: Sequence[str], what: str, listed_by: str) -> str | None:
    """The one id of ``ids`` that ``given`` is, or is a unique prefix of (at least
    :data:`MIN_PREFIX` characters); None when none is; refused when several are."""
    if given in ids:
        return given
    if len(given) < MIN_PREFIX:
        return None
    matches = list(dict.fromkeys(i for i in ids if i.startswith(given)))
    if len(matches) > 1:
        shown = threats.display_safe(given)
        raise Refused(Refusal(
            f"{shown!r} is the start of {len(matches)} {what} ids ({', '.join(matches[:10])}); give more of "
            f"the id (see {listed_by})."))
    return matches[0] if matches else None
