"""Generated worst cases for every regex silcrow runs on untrusted text.

A backtracking regex is slow on a text made of long runs of characters that
two adjacent quantifiers both accept, cut off by a character that makes the
match fail. This module builds such texts from each pattern's own parts: every
literal and a few members of every character class it uses, repeated to a
given length, alone, after each literal run of the pattern and between
pairs of them. The test suite runs every pattern on them under a time guard,
and ``bench/safety.py`` reports the slowest.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Iterator
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from silcrow.errors import ExtraNotInstalledError

# Members tried for each category escape (\s, \w, \d and their negations): every kind of
# character the category holds that a neighbouring class may hold too.
_CATEGORY_CHARS = {
    C.CATEGORY_SPACE: " \t\n\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000",
    C.CATEGORY_WORD: "aZ_0é\u0436\u4e2d\u0663",
    C.CATEGORY_DIGIT: "0\u0663",
    C.CATEGORY_NOT_SPACE: "a!<\u200b",
    C.CATEGORY_NOT_WORD: " !<-\u200b\x1c",
    C.CATEGORY_NOT_DIGIT: "a ",
}
_FAIL = "\x01!"  # what ends a run: a control character and a punctuation mark


def _walk(tree: Any, chars: set[str], runs: list[str]) -> None:
    run: list[str] = []
    for op, arg in tree:
        if op is C.LITERAL:
            run.append(chr(arg))
            chars.add(chr(arg))
            continue
        if run:
            runs.append("".join(run))
            run = []
        if op is C.NOT_LITERAL:
            chars.update({chr(arg), "a"})
        elif op is C.ANY:
            chars.update("a\n")
        elif op is C.IN:
            for iop, iarg in arg:
                if iop is C.LITERAL:
                    chars.add(chr(iarg))
                elif iop is C.RANGE:
                    lo, hi = iarg
                    chars.update({chr(lo), chr(hi), chr((lo + hi) // 2)})
                elif iop is C.CATEGORY:
                    chars.update(_CATEGORY_CHARS.get(iarg, "a"))
        elif op is C.CATEGORY:
            chars.update(_CATEGORY_CHARS.get(arg, "a"))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            _walk(arg[2], chars, runs)
        elif op is C.SUBPATTERN:
            _walk(arg[-1], chars, runs)
        elif op is C.ATOMIC_GROUP:
            _walk(arg, chars, runs)
        elif op is C.BRANCH:
            for branch in arg[1]:
                _walk(branch, chars, runs)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(arg[1], chars, runs)
    if run:
        runs.append("".join(run))


def parts(pattern: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """The characters a pattern's parts accept and its literal runs (longest first)."""
    chars: set[str] = set()
    runs: list[str] = []
    _walk(_parser.parse(pattern.pattern, pattern.flags), chars, runs)
    return sorted(chars), sorted(set(runs), key=lambda r: (-len(r), r))


def worst_cases(pattern: re.Pattern[str], length: int, triggers: int = 6,
                pairs: bool = True) -> Iterator[str]:
    """Texts of about ``length`` characters built to make ``pattern`` backtrack.

    Each character of the pattern repeated; after each of its ``triggers`` longest literal
    runs, and alternating with them; with ``pairs``, after every other character.
    """
    chars, runs = parts(pattern)
    for c in chars:
        yield c * length
        for t in runs[:triggers]:
            yield t + c * max(0, length - len(t) - 2) + _FAIL
            yield (t + c) * (length // (len(t) + 1))
        if pairs:
            for d in chars:
                if d != c:
                    yield d + c * (length - 2) + _FAIL[0]


def _patterns_in(value: Any, name: str) -> Iterator[tuple[str, re.Pattern[str]]]:
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        yield name, value
    elif isinstance(getattr(value, "patterns", None), tuple):  # a Near matcher
        for i, rx in enumerate(value.patterns):
            yield f"{name}<{i}>", rx
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            if isinstance(item, tuple | list):
                pid = next((x for x in item if isinstance(x, str)), str(i))
                yield from (p for p in _patterns_in(item, f"{name}[{pid}]"))
            else:
                yield from _patterns_in(item, f"{name}[{i}]")


def untrusted_patterns(packages: Iterable[str] = ("silcrow",)) -> list[tuple[str, re.Pattern[str]]]:
    """Every module-level regex in silcrow (compiled patterns, and those in tuples or lists).

    All of them are treated as running on untrusted text: it is cheaper to keep every one
    linear than to prove which ones never see a user's or a model's words.
    """
    found: dict[str, re.Pattern[str]] = {}
    for package in packages:
        root = importlib.import_module(package)
        names = [package] + [m.name for m in pkgutil.walk_packages(root.__path__, package + ".")]
        for modname in names:
            if modname.endswith("__main__") or ".demo" in modname:
                continue
            try:
                module = importlib.import_module(modname)
            except ExtraNotInstalledError:
                # A framework that cannot share this venv (AutoGen, CrewAI, ADK: tested in venvs of
                # their own); their adapters compile no regex of their own.
                continue
            members = dict(vars(module))
            if callable(members.get("__regexes__")):  # tables a module compiles on first use
                members["__regexes__"] = tuple(members["__regexes__"]())
            for attr, value in members.items():
                for name, rx in _patterns_in(value, f"{modname}.{attr}"):
                    if rx not in found.values():
                        found[name] = rx
    return sorted(found.items())


# How a pattern outside silcrow.safety is used, where that is not ``search`` on untrusted text.
FULLMATCH_ONLY = frozenset({
    # One line of a memory file at a time, anchored at both ends: one start position.
    "silcrow.store._entries._SECTION_LINE",
    "silcrow.store._entries._ESCAPED_SECTION_LINE",
})
OWN_TEXT_ONLY = frozenset({
    # Applied to the store's own "1,234/2,200 chars" usage string, never to user text.
    "silcrow.cli._memory_kit._USAGE_NUMBERS",
})

#: (length, literal runs tried as triggers, whether every pair of characters is tried).
SIZES = ((1_300, 4, True), (20_000, 2, False))


def slowest(prefix: str = "silcrow", sizes: tuple[tuple[int, int, bool], ...] = SIZES,
            ) -> list[tuple[float, str, int, str]]:
    """``(seconds, pattern name, length, start of the text)`` of each pattern's slowest case,
    slowest first."""
    import time

    out: list[tuple[float, str, int, str]] = []
    for name, rx in untrusted_patterns():
        if not name.startswith(prefix) or name in OWN_TEXT_ONLY:
            continue
        run = rx.fullmatch if name in FULLMATCH_ONLY else rx.search
        worst = (0.0, name, 0, "")
        for length, triggers, pairs in sizes:
            for text in worst_cases(rx, length, triggers, pairs):
                start = time.perf_counter()
                run(text)
                took = time.perf_counter() - start
                if took > worst[0]:
                    worst = (took, name, length, text[:16])
        out.append(worst)
    return sorted(out, reverse=True)


def entry_point_cases(length: int, step: int = 1) -> Iterator[str]:
    """Worst cases for the whole scan and the fence: every character the fence-tag and
    invisible-character patterns use (and every kind of whitespace), repeated after ``<`` and
    a fence-name prefix, alone, and fence fragments nested. (Each behavioural pattern has its
    own worst cases in :func:`slowest`.)"""
    from silcrow.safety import _confusables as confusables
    from silcrow.safety import _tags as tags

    chars: set[str] = set(_CATEGORY_CHARS[C.CATEGORY_SPACE]) | set("aG-_./\\&;%#")
    for rx in (tags.TAG, tags.UNCLOSED, confusables.ANY_INVISIBLE):
        chars.update(parts(rx)[0])
    for c in sorted(chars)[::step]:
        yield c * length
        yield "<" + c * (length - 2) + "a"
        yield "<memory" + c * (length - 8) + "x"
        yield ("<" + c) * (length // 2)
    depth = length // 25
    yield "<memory-" * depth + "<memory-context>" + "context>" * depth
    yield "<memory-context>" * (length // 16)
    yield "&lt;memory-context " + "a" * length
    yield "ignore " * (length // 7)


#: (length, every how many characters is tried) for the entry points.
ENTRY_SIZES = ((1_300, 1), (20_000, 6))


def slowest_entry_points(sizes: tuple[tuple[int, int], ...] = ENTRY_SIZES,
                         ) -> list[tuple[float, str, int, str]]:
    """The slowest ``scan``, ``sanitize_context`` and streaming scrub on :func:`entry_point_cases`."""
    import time

    from silcrow.safety import StreamingFenceScrubber, sanitize_context, scan

    def stream(text: str) -> None:
        scrubber = StreamingFenceScrubber()
        for i in range(0, len(text), 64):
            scrubber.feed(text[i:i + 64])
        scrubber.flush()

    worst: dict[str, tuple[float, str, int, str]] = {}
    for length, step in sizes:
        for text in entry_point_cases(length, step):
            for name, fn in (("scan", scan), ("sanitize_context", sanitize_context), ("stream", stream)):
                start = time.perf_counter()
                fn(text)
                took = time.perf_counter() - start
                if took > worst.get(name, (0.0,))[0]:
                    worst[name] = (took, name, length, text[:16])
    return sorted(worst.values(), reverse=True)
